"""The pbem command: inject mail, list and show games and mail, verify a finished game."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from playbymail import compose, deliver_mail, sent, text_of
from sqlalchemy import select

from adjudicator import bootstrap, cli
from adjudicator.models import Game, Turn
from adjudicator.services.record.runtime import Runtime


@pytest.fixture
def pbem(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    # The commands build their runtime from configuration; point them at this test's.
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: runtime)
    return CliRunner()


def test_inject_list_show_and_retry(pbem: CliRunner, runtime: Runtime, tmp_path: Path) -> None:
    mail = tmp_path / "new.eml"
    mail.write_bytes(compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    result = pbem.invoke(cli.main, ["mail", "inject", str(mail)])
    assert result.exit_code == 0, result.output
    assert "stored as inbound 1" in result.output and "done: started game 1" in result.output
    assert "Your game of Thermopyles has begun" in text_of(sent(runtime)[0])
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\x01\x02")
    pbem.invoke(cli.main, ["mail", "inject", str(garbage)])
    listing = pbem.invoke(cli.main, ["mail", "list", "--status", "rejected"]).output
    assert listing.split()[0] == "2" and "unreadable" in listing
    shown = pbem.invoke(cli.main, ["mail", "show", "2"]).output
    assert "status: rejected" in shown and "reason: unreadable" in shown
    games = pbem.invoke(cli.main, ["game", "list"]).output
    assert "Thermopyles" in games and "active" in games
    game = pbem.invoke(cli.main, ["game", "show", "1"]).output
    assert "seat spartans: a@example.com" in game and "orders+1-spartans-1-" in game
    assert pbem.invoke(cli.main, ["mail", "retry", "2"]).output.startswith("rejected: unreadable")


def test_verify_confirms_a_finished_game_and_finds_tampering(
    pbem: CliRunner, runtime: Runtime
) -> None:
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    reply_to = str(sent(runtime)[0]["Reply-To"])
    running = pbem.invoke(cli.main, ["verify", "1"])
    assert running.exit_code != 0 and "still running" in running.output
    for _ in range(6):  # six retreats reach space 7: the game is lost, the seed revealed
        deliver_mail(runtime, compose("a@example.com", reply_to, "RETREAT"))
    assert "THE GAME IS OVER" in text_of(sent(runtime)[-1])
    confirmed = pbem.invoke(cli.main, ["verify", "1"])
    assert confirmed.exit_code == 0, confirmed.output
    assert "confirmed" in confirmed.output
    with runtime.db.session() as session:
        opening = session.scalars(select(Turn).where(Turn.number == 0)).one()
        events = [dict(event) for event in opening.events]
        events[0]["result"] = list(reversed(events[0]["result"]))  # a re-dealt deck
        opening.events = events
    tampered = pbem.invoke(cli.main, ["verify", "1"])
    assert tampered.exit_code != 0
    assert "DIFFERS: turn 0" in tampered.output and events[0]["label"] in tampered.output


def test_game_new_reads_the_settings_a_new_mail_takes(pbem: CliRunner, runtime: Runtime) -> None:
    """The console starts a game with the same settings, checked by the same rules, as the
    lines under a NEW mail: REMIND, DELAY, DKIM and the game master too."""
    seats = ["--seat", "france=murat@example.com", "--seat", "spain=daoiz@example.com"]
    settings = ["--remind", "6", "--delay", "15", "--dkim", "required", "--gm", "g@example.com"]
    made = pbem.invoke(cli.main, ["game", "new", "2demayo", *seats, *settings])
    assert made.exit_code == 0, made.output
    assert made.output.startswith("game 1 started; turn 1 due "), made.output
    with runtime.db.session() as session:
        game = session.get_one(Game, 1)
        assert (game.reminder_hours, game.early_delay_minutes, game.require_dkim) == (6, 15, True)
        assert game.gm is not None and game.gm.address == "g@example.com"
        assert game.schedule == "48h"
    refused = pbem.invoke(cli.main, ["game", "new", "2demayo", *seats, "--remind", "999"])
    assert refused.exit_code != 0
    assert "999 is out of bounds: REMIND takes hours before the deadline" in refused.output
    one_seat = pbem.invoke(cli.main, ["game", "new", "2demayo", seats[0], seats[1]])
    assert "name a player for each of france, spain" in one_seat.output


def test_mail_read_shows_a_players_unread_mail_at_once_with_its_files(
    pbem: CliRunner, runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pbem mail read --to` shows only that player's mail, returns at once when it is already
    there (and waits when nothing unread is), names the attached files and saves them."""
    monkeypatch.setenv("PBEM_DATA_DIR", str(runtime.config.data_dir))
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    deliver_mail(runtime, compose("b@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    started = time.monotonic()
    read = pbem.invoke(cli.main, ["mail", "read", "--to", "A@example.com", "--wait", "20"])
    assert read.exit_code == 0, read.output
    assert time.monotonic() - started < 5  # the mail was there: no waiting
    assert read.output.count("=== ") == 1 and "To: a@example.com" in read.output
    assert "b@example.com" not in read.output
    assert re.search(r"Attached: \S+\.png \(image/png, \d+ KB\)", read.output), read.output
    # Read once, it is read: a second look waits its time and says nothing arrived.
    started = time.monotonic()
    again = pbem.invoke(cli.main, ["mail", "read", "--to", "a@example.com", "--wait", "0.5"])
    assert time.monotonic() - started >= 0.5
    assert again.output.startswith("no unread mail to a@example.com")
    # B's is still unread; --last shows the newest whatever was read, and --save keeps its files.
    folder = tmp_path / "saved"
    latest = pbem.invoke(cli.main, ["mail", "read", "--last", "1", "--save", str(folder)])
    assert "To: b@example.com" in latest.output
    saved = sorted(folder.iterdir())
    assert saved and all(path.read_bytes() for path in saved)
    assert any(path.read_bytes().startswith(b"\x89PNG") for path in saved)
    assert f"saved {saved[0]}" in latest.output
