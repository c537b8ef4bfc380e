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
from playbymail import outbox_files, parsed
from test_serve_e2e import Service, launch

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
