"""Real-world-shaped mail from each client: what `inspect` makes of it, exactly.

Each ``corpus/NAME.eml`` is a message as a mail client or a mail system really writes it (headers,
MIME structure, transfer encoding, quote style, HTML wrapper); ``NAME.expected.json`` beside it
holds the kind, the sender and, for mail a person wrote, the exact lines the order parser gets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.mail.inspect import inspect

CORPUS = Path(__file__).parent / "corpus"
DOMAIN, SECRET = "pbem.example", "corpus-secret"
NAMES = sorted(path.name.removesuffix(".eml") for path in CORPUS.glob("*.eml"))


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CORPUS / f"{name}.expected.json").read_text("utf-8"))
    return data


def test_every_fixture_has_an_expectation_and_the_corpus_is_broad() -> None:
    answers = {path.name.removesuffix(".expected.json") for path in CORPUS.glob("*.expected.json")}
    assert answers == set(NAMES)
    kinds = [expected(name)["kind"] for name in NAMES]
    assert len(NAMES) >= 45
    assert {"orders/commands", "auto-reply", "bounce", "list", "unreadable"} <= set(kinds)


@pytest.mark.parametrize("line_ending", ["lf", "crlf"])
@pytest.mark.parametrize("name", NAMES)
def test_fixture_yields_its_expected_kind_sender_and_lines(name: str, line_ending: str) -> None:
    raw = (CORPUS / f"{name}.eml").read_bytes()
    if line_ending == "crlf":  # as it travels over SMTP
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    want = expected(name)

    found = inspect(raw, DOMAIN, SECRET)

    assert found["kind"] == want["kind"], found
    if want["kind"] == "unreadable":
        assert found["reason"]
        return
    assert found["sender"] == want["sender"]
    if want["kind"] == "orders/commands":
        assert found["lines"] == want["lines"]
        # Every person's mail here is a reply to one of our addresses.
        assert found["route"]["to"] is not None and found["route"]["to"].endswith("@" + DOMAIN)
    else:
        assert "lines" not in found and found["reason"]
