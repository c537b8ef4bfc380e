"""A game master's console commands beside a running `pbem serve` (the embedded default, whose
queue lives in the service's own memory): `pbem game new` and `pbem game command` run in a
process of their own and send the mail they write themselves, at once, rather than leaving it
for the service's sweep of work left behind, minutes later."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from playbymail import outbox_files, parsed, sent
from test_serve_e2e import Service, launch

from adjudicator import bootstrap, cli
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime

FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
# Well under the claim lease (2 minutes) after which the service's tick would send a mail
# left pending by another process: only a mail sent by the command itself arrives in time.
PROMPTLY = 5.0


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    yield from launch(tmp_path, "--no-sample")


def arrived(service: Service, count: int) -> list[EmailMessage]:
    """The outbox once it holds ``count`` mails, waiting at most PROMPTLY."""
    outbox = service.data_dir / "outbox"
    deadline = time.monotonic() + PROMPTLY
    while len(outbox_files(outbox)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    mails = [parsed(path) for path in outbox_files(outbox)]
    assert len(mails) >= count, [str(m["Subject"]) for m in mails]
    return mails


def test_console_commands_deliver_their_mail_at_once(service: Service) -> None:
    seats = ["--seat", f"france={FRANCE}", "--seat", f"spain={SPAIN}", "--gm", GM]
    made = service.pbem("game", "new", "2demayo", *seats)
    assert made.returncode == 0, made.stdout + made.stderr
    found = re.match(r"game (\d+) started", made.stdout)
    assert found, made.stdout
    game_id = found.group(1)
    welcomes = arrived(service, 3)  # each player's welcome, and the game master's
    assert sorted(str(m["To"]) for m in welcomes) == sorted([FRANCE, SPAIN, GM])
    extended = service.pbem("game", "command", game_id, "EXTEND 24h")
    assert extended.returncode == 0, extended.stdout + extended.stderr
    assert "done: EXTEND 24h: deadline now" in extended.stdout
    notices = arrived(service, 5)[3:]
    assert sorted(str(m["To"]) for m in notices) == sorted([FRANCE, SPAIN])
    assert all("deadline moved" in str(m["Subject"]) for m in notices)


def test_process_now_from_the_console_plays_the_turn_and_mails_its_reports(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command does the work its transaction queued itself: the turn PROCESS NOW forces is
    played and its reports are in the outbox when the command returns, with no worker and no
    tick (the test's queue is left untouched)."""
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: runtime)
    seats = ["--seat", f"france={FRANCE}", "--seat", f"spain={SPAIN}"]
    made = CliRunner().invoke(cli.main, ["game", "new", "2demayo", *seats])
    assert made.exit_code == 0, made.output
    assert sorted(str(m["To"]) for m in sent(runtime)) == [SPAIN, FRANCE]
    before = len(sent(runtime))
    forced = CliRunner().invoke(cli.main, ["game", "command", "1", "PROCESS NOW"])
    assert forced.exit_code == 0, forced.output
    with runtime.db.session() as session:
        assert play.latest_turn(session, 1).number == 1
    reports = sent(runtime, before)
    assert sorted(str(m["To"]) for m in reports) == [SPAIN, FRANCE]
    assert all("turn 1 results" in str(m["Subject"]) for m in reports)
    assert runtime.enqueue.items == []  # type: ignore[attr-defined]
