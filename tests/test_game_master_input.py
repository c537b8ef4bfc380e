"""What a game master asks is kept and answered plainly: a forced turn survives the loss of its
task, a deadline set while the game forms is kept, and times are shown in the game's zone."""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from conftest import Queue
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import select

from adjudicator import bootstrap, cli
from adjudicator.models import Game, Turn, utcnow
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, ticks

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
NEW = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"


def reply_to(runtime: Runtime, address: str) -> str:
    return next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == address)


def last_to(runtime: Runtime, address: str) -> str:
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    return text_of(mails[-1]).replace("\r\n", "\n")


def formed(runtime: Runtime) -> tuple[int, str]:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    with runtime.db.session() as session:
        return session.scalars(select(Game.id)).one(), reply_to(runtime, GM)


def join(runtime: Runtime) -> None:
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))


def turn_reasons(runtime: Runtime, game_id: int) -> list[str]:
    with runtime.db.session() as session:
        turns = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.number > 0).order_by(Turn.number)
        )
        return [turn.reason for turn in turns]


def test_process_now_from_the_console_is_played_by_the_tick(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside a running server, a console that dies after its commit, before it plays the
    forced turn itself (adjudicator/console.py), leaves it on record: the server's tick queues
    it."""
    game_id, _ = formed(runtime)
    join(runtime)
    console = Runtime(runtime.config, runtime.db, enqueue=Queue())  # never run
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: console)
    monkeypatch.setattr("adjudicator.console.do", lambda runtime, queued: None)  # died first
    result = CliRunner().invoke(cli.main, ["game", "command", str(game_id), "PROCESS NOW"])
    assert result.exit_code == 0 and "will be processed at once" in result.output
    assert ticks.tick(runtime).turns_due == [game_id]
    drain(runtime)
    assert turn_reasons(runtime, game_id) == ["forced"]
    assert "turn 1 resolved (forced by the game master)" in last_to(runtime, SPAIN)
    # Done once: neither the tick nor a late copy of the task plays another turn.
    assert ticks.tick(runtime).turns_due == []
    assert deadlines.adjudicate(runtime, game_id) == deadlines.NOT_DUE
    assert turn_reasons(runtime, game_id) == ["forced"]


def test_process_now_by_mail_survives_the_loss_of_its_task(runtime: Runtime) -> None:
    game_id, gm_address = formed(runtime)
    join(runtime)
    stored = inbox.store(
        runtime, compose(GM, gm_address, "PROCESS NOW"), source="test", envelope_to=[]
    )
    assert isinstance(stored, inbox.Stored)
    pipeline.process(runtime, stored.id)
    queue: Queue = runtime.enqueue  # type: ignore[assignment]
    # The broker goes down with the turn's task in it.
    lost = [item for item in queue.items if item[0] in ("adjudicate", "force")]
    assert [record_id for _, record_id in lost] == [game_id]
    queue.items[:] = [item for item in queue.items if item not in lost]
    drain(runtime)
    assert turn_reasons(runtime, game_id) == []
    assert ticks.tick(runtime).turns_due == [game_id]
    drain(runtime)
    assert turn_reasons(runtime, game_id) == ["forced"]


def test_a_deadline_set_while_the_game_forms_is_kept_when_it_starts(runtime: Runtime) -> None:
    game_id, gm_address = formed(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "SET DEADLINE +72h"))
    answer = " ".join(last_to(runtime, GM).split())
    assert "SET DEADLINE +72h -> done: deadline now" in answer
    assert "kept for turn 1 once every player has joined" in answer
    with runtime.db.session() as session:
        chosen = session.get_one(Game, game_id).deadline
    assert chosen is not None
    join(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "active" and game.deadline == chosen
    local = chosen.astimezone(ZoneInfo("Europe/Madrid"))
    for player in (FRANCE, SPAIN):
        welcome = " ".join(last_to(runtime, player).split())
        assert "Orders for turn 1 are due" in welcome and f"{local:%d %b %Y %H:%M}" in welcome


def test_a_deadline_set_while_forming_that_has_passed_gives_way_to_the_schedule(
    runtime: Runtime,
) -> None:
    game_id, gm_address = formed(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "SET DEADLINE +1h"))
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        game.deadline -= timedelta(hours=2)  # the players took their time
    join(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        assert game.deadline - utcnow() > timedelta(hours=47)  # the 48-hour schedule


def last_sunday(year: int, month: int) -> date:
    day = date(year, month + 1, 1) - timedelta(days=1)
    return day - timedelta(days=(day.weekday() - 6) % 7)


def next_change(month: int) -> date:
    """The next day Madrid's clocks change in ``month`` (3: forward, 10: back), within a year."""
    today = utcnow().date()
    return next(
        day
        for day in (last_sunday(today.year, month), last_sunday(today.year + 1, month))
        if day > today + timedelta(days=1)
    )


def test_set_deadline_answers_in_the_zone_and_says_how_a_changing_clock_was_read(
    runtime: Runtime,
) -> None:
    _, gm_address = formed(runtime)
    join(runtime)
    spring, autumn = next_change(3), next_change(10)
    friday = utcnow().date() + timedelta(days=3)
    lines = [
        f"SET DEADLINE {spring:%Y-%m-%d} 02:30",
        f"SET DEADLINE {autumn:%Y-%m-%d} 02:30",
        f"SET DEADLINE {friday:%Y-%m-%d} 09:00 Pacific/Kiritimati",
    ]
    deliver_mail(runtime, compose(GM, gm_address, "\n".join(lines)))
    answer = " ".join(last_to(runtime, GM).split())
    thursday = friday - timedelta(days=1)
    expected = (
        (f"{spring:%a %d %b %Y} 03:30 CEST = 01:30 UTC", "02:30 does not exist on"),
        (f"{autumn:%a %d %b %Y} 02:30 CEST = 00:30 UTC", "02:30 happens twice on"),
        (f"{friday:%a %d %b %Y} 09:00 +14 = {thursday:%a %d %b} 19:00 UTC", ""),
    )
    for line, (shown, note) in zip(lines, expected, strict=True):
        said = answer.split(f"{line} -> ", 1)[1].split(" SET DEADLINE ", 1)[0]
        assert said.startswith(f"done: deadline now {shown} (in "), said
        assert note in said and ("in Europe/Madrid, as the clocks go" in said) == bool(note)


def test_the_game_master_help_says_how_slots_and_resume_work(runtime: Runtime) -> None:
    formed(runtime)
    help_text = " ".join(last_to(runtime, GM).split())
    assert "Weekly slots leave each turn at least 12 hours" in help_text
    assert "RESUME after the deadline passed gives the turn a new deadline" in help_text
    assert "A deadline is at most a year ahead" in help_text
