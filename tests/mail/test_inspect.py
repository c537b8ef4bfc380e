"""pbem mail parse: what the pipeline makes of a raw message, as JSON, acting on nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator import cli
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.inspect import inspect

FIXTURES = Path(__file__).parent / "fixtures"
DOMAIN, SECRET = "pbem.localhost", "inspect-secret"


@pytest.mark.parametrize(
    ("fixture", "kind"),
    [
        ("bounce_dsn.eml", "bounce"),
        ("vacation_auto_reply.eml", "auto-reply"),
        ("exchange_automatic_reply.eml", "auto-reply"),
        # Exchange sends an out-of-office with the null sender, as bounces are sent: its own
        # signs (the "Automatic reply:" subject) name it.
        ("exchange_automatic_reply_null_sender.eml", "auto-reply"),
        ("list_mail.eml", "list"),
        ("binary.eml", "unreadable"),
        ("no_headers.eml", "unreadable"),
        ("gmail_reply.eml", "orders/commands"),
    ],
)
def test_kinds(fixture: str, kind: str) -> None:
    assert inspect((FIXTURES / fixture).read_bytes(), DOMAIN, SECRET)["kind"] == kind


def test_route_and_lines_as_the_pipeline_would_see_them() -> None:
    raw = (FIXTURES / "gmail_reply.eml").read_bytes()
    address = reply_address(seat_token(SECRET, 12, "spartans"), DOMAIN)
    found = inspect(raw, DOMAIN, SECRET, envelope_to=[address])
    assert found["route"] == {"to": address, "game": 12, "seat": "spartans", "version": 1}
    assert found["lines"] and all(not line.startswith(">") for line in found["lines"])
    forged = inspect(raw, DOMAIN, SECRET, envelope_to=[address.replace("-1-", "-2-")])
    assert "does not check out" in forged["route"]["problem"]
    assert inspect(raw, DOMAIN, SECRET, ["new@pbem.localhost"])["route"]["service"] == "new"


def test_cli_prints_json(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_SECRET_KEY", SECRET)
    monkeypatch.setenv("PBEM_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(
        cli.main, ["mail", "parse", str(FIXTURES / "bounce_dsn.eml")], catch_exceptions=False
    )
    assert result.exit_code == 0
    assert json.loads(result.output)["kind"] == "bounce"
    assert not (tmp_path / "pbem.sqlite").exists()  # nothing stored, nothing acted on
