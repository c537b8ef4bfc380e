"""Bounds on a game master's numbers: one game's values never stop the tick for the others, and an
out-of-bounds date, length or count is refused with a sentence naming the bound."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from playbymail import compose, deliver_mail, drain, reply_to, sent, text_of
from sqlalchemy import select, update

from adjudicator import bootstrap, cli
from adjudicator.models import Game, InboundMessage, Turn, utcnow
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import ticks

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"


def new_game(runtime: Runtime, gm: str, settings: str = "", players: tuple[str, str] = ()) -> str:
    """A 2 de Mayo game asked for by mail; the answer the game master got, its lines joined."""
    france, spain = players or (FRANCE, SPAIN)
    schedule = "" if settings.startswith("SCHEDULE") else "SCHEDULE 48h\n"
    body = f"NEW 2DEMAYO\nFRANCE {france}\nSPAIN {spain}\n{schedule}{settings}"
    deliver_mail(runtime, compose(gm, "new@pbem.localhost", body))
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == gm]
    return " ".join(text_of(mails[-1]).split())


def healthy_game(runtime: Runtime) -> int:
    """A started game with 48-hour turns whose players both joined."""
    assert "is formed" in new_game(runtime, GM)
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        return session.scalars(select(Game.id).where(Game.status == "active")).one()


def assert_healthy_game_runs(runtime: Runtime, game_id: int) -> None:
    """Its players are reminded before the deadline, and the turn is queued once it passes."""
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    reminded = ticks.tick(runtime, now=deadline - timedelta(hours=11)).reminded
    assert sorted(seat for seat in reminded if seat[0] == game_id) == [
        (game_id, "france"),
        (game_id, "spain"),
    ]
    assert game_id in ticks.tick(runtime, now=deadline + timedelta(minutes=1)).turns_due


def test_absurd_remind_and_grace_are_refused_and_the_tick_goes_on(runtime: Runtime) -> None:
    game_id = healthy_game(runtime)
    others = ("a@example.com", "b@example.com")
    answer = new_game(runtime, "prankster@example.com", "REMIND 100000000", others)
    assert "REMIND takes hours before the deadline" in answer and "from 0 to 168 hours" in answer
    answer = new_game(runtime, "second@example.com", "GRACE 9999999999", others)
    assert "GRACE takes minutes of grace" in answer and "from 0 to 10080 minutes" in answer
    answer = new_game(runtime, "third@example.com", "DELAY 99999999999999999999", others)
    assert "is too large: DELAY takes minutes" in answer
    with runtime.db.session() as session:
        assert session.scalars(select(Game.id)).all() == [game_id]
    assert_healthy_game_runs(runtime, game_id)


def test_the_console_refuses_an_absurd_grace(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: runtime)
    seats = ["--seat", f"france={FRANCE}", "--seat", f"spain={SPAIN}"]
    result = CliRunner().invoke(
        cli.main, ["game", "new", "2demayo", *seats, "--grace", "9999999999"]
    )
    assert result.exit_code == 1 and "from 0 to 10080 minutes" in result.output
    with runtime.db.session() as session:
        assert session.scalars(select(Game.id)).all() == []


def test_stored_absurd_values_and_a_corrupt_game_do_not_stop_the_others(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """Values that got past the door some other way (an old row, a hand edit) are bounded where
    the tick reads them, and a game whose work fails is logged and passed over."""
    game_id = healthy_game(runtime)
    answer = new_game(runtime, "other@example.com", "", ("a@example.com", "b@example.com"))
    assert "is formed" in answer
    for player in ("a@example.com", "b@example.com"):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        broken = session.scalars(select(Game).where(Game.id != game_id)).one()
        broken_id = broken.id
        # Out of bounds, but within what either database's integer column holds.
        broken.reminder_hours, broken.grace_minutes = 100_000_000, 2_000_000_000
        broken.early_delay_minutes = 1
    drain(runtime)
    assert_healthy_game_runs(runtime, game_id)
    # Now the broken game's position cannot be read: its reminders and its early check fail.
    with runtime.db.session() as session:
        session.execute(update(Turn).where(Turn.game_id == broken_id).values(state={"x": 1}))
        # Both due for their reminders and turns again.
        session.execute(
            update(Game).values(deadline_sequence=Game.deadline_sequence + 1, queued_at=None)
        )
        broken = session.get_one(Game, broken_id)
        healthy = session.get_one(Game, game_id)
        assert healthy.deadline is not None
        broken.deadline = healthy.deadline
        broken.reminder_hours = 12
    assert_healthy_game_runs(runtime, game_id)
    for work in ("reminders", "the early adjudication check"):
        assert f"game {broken_id}: {work} failed; the tick goes on" in caplog.text


def gm_answer(runtime: Runtime, gm_address: str, body: str) -> str:
    deliver_mail(runtime, compose(GM, gm_address, body))
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == GM]
    return text_of(mails[-1]).replace("\r\n", "\n")


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("SET DEADLINE 2027-02-30 20:00", "2027-02-30 20:00 is not a date and time"),
        ("SET DEADLINE 2027-13-01 20:00", "2027-13-01 20:00 is not a date and time"),
        ("SET DEADLINE 2027-03-01 24:00", "2027-03-01 24:00 is not a date and time"),
        ("SET DEADLINE 2027-03-01 20:60", "2027-03-01 20:60 is not a date and time"),
        ("SET DEADLINE +99999999999h", "99999999999h is too long: at most 365 days"),
        ("EXTEND 99999999999h", "99999999999h is too long: at most 365 days"),
        ("EXTEND 400d", "400d is too long: at most 365 days"),
        ("SET DEADLINE 9999-12-31 12:00 UTC", "a deadline may be at most a year ahead"),
        ("SET DEADLINE +9000h", "9000h is too long: at most 365 days (a year)"),
        ("SET DEADLINE 0001-01-01 00:00 Pacific/Kiritimati", "that moment has already passed"),
    ],
)
def test_a_bad_date_or_length_is_refused_and_the_other_lines_stand(
    runtime: Runtime, line: str, refusal: str
) -> None:
    healthy_game(runtime)
    gm_address = reply_to(runtime, GM)
    answer = gm_answer(runtime, gm_address, f"SET DEADLINE +24h\n{line}\nEXTEND 1h")
    assert "SET DEADLINE +24h\n     -> done: deadline now" in answer
    assert f"{line}\n     -> not done: {refusal}" in answer
    assert "EXTEND 1h\n     -> done: deadline now" in answer
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.deadline is not None
        ahead = game.deadline - utcnow()
        assert timedelta(hours=24, minutes=55) < ahead <= timedelta(hours=25)
        statuses = session.scalars(select(InboundMessage.status)).all()
        assert "failed" not in statuses


def test_extending_a_far_deadline_is_refused_not_overflowed(runtime: Runtime) -> None:
    """A deadline stored before these bounds (or by hand) near the end of the calendar."""
    game_id = healthy_game(runtime)
    with runtime.db.session() as session:
        session.get_one(Game, game_id).deadline = datetime(9999, 12, 30, 12, tzinfo=UTC)
    answer = gm_answer(runtime, reply_to(runtime, GM), "EXTEND 48h")
    assert "EXTEND 48h\n     -> not done: a deadline may be at most a year ahead" in answer


@pytest.mark.parametrize(
    ("setting", "refusal"),
    [
        ("SCHEDULE 99999999999h", "99999999999h is too long: at most 365 days"),
        ("SCHEDULE 3000000d", "3000000d is too long: at most 365 days"),
        ("GRACE 99999999999999999999", "is too large: GRACE takes minutes"),
    ],
)
def test_a_new_game_with_an_absurd_schedule_is_refused(
    runtime: Runtime, setting: str, refusal: str
) -> None:
    answer = new_game(runtime, GM, setting)
    assert refusal in answer
    with runtime.db.session() as session:
        assert session.scalars(select(Game.id)).all() == []
        assert session.scalars(select(InboundMessage.status)).all() == ["rejected"]
