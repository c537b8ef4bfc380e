"""A reminder tells a player something new, once: a game of one decision at a time opens a new
deadline with every answer, and its players, just told of it by the step's mail, are not
reminded at every tick; a decision left unanswered is reminded of once, half-way through its
span, in the game's words. On SQLite and PostgreSQL, through the real pipeline and the tick."""

from __future__ import annotations

import random
from datetime import timedelta

from playbymail import compose, deliver_mail, drain, reply_to, sent, sent_count, text_of
from sqlalchemy import select
from test_musket_and_pike_by_mail import start as skirmish

from adjudicator.games.registry import get
from adjudicator.models import Game, OutboxMessage, utcnow
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, ticks

GM, ROYALIST, PARLIAMENT = "gm@example.com", "hopton@example.com", "ruthin@example.com"
PLAYERS = {"royalist": ROYALIST, "parliament": PARLIAMENT}
RULES = get("musketpike")


def start(runtime: Runtime) -> int:
    """A skirmish by mail, each decision 12 h long: as long as the game's 12 h reminder lead."""
    game_id = skirmish(runtime)
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).reminder_hours == 12
    return game_id


def owing(runtime: Runtime, game_id: int) -> tuple[list[str], object]:
    assert RULES is not None
    with runtime.db.session() as session:
        state = RULES.load(play.latest_turn(session, game_id).state)
    return sorted(RULES.pending(state)), state


def reminders(runtime: Runtime) -> list[tuple[str, str]]:
    with runtime.db.session() as session:
        rows = session.execute(
            select(OutboxMessage.to_address, OutboxMessage.subject).where(
                OutboxMessage.kind == "reminder"
            )
        ).all()
    return [(to, subject) for to, subject in rows]


def test_decisions_answered_quickly_are_not_reminded_and_one_left_is_reminded_once(
    runtime: Runtime,
) -> None:
    assert RULES is not None
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    choose = random.Random(3)
    # Several decisions answered within a minute, the tick running between them: every step's
    # mail has just told both players the new deadline, so nobody is reminded.
    for _ in range(8):
        seats, state = owing(runtime, game_id)
        for seat in seats:
            orders = choose.choice(list(RULES.legal_orders(state, seat)))
            deliver_mail(
                runtime, compose(PLAYERS[seat], addresses[seat], RULES.orders_text(orders))
            )
        report = ticks.tick(runtime)
        drain(runtime)
        assert report.reminded == [], report
    assert reminders(runtime) == []
    # Now one decision is left unanswered: reminded once, half-way through its 12 hours.
    seats, _ = owing(runtime, game_id)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        deadline, sequence = game.deadline, game.deadline_sequence
        told = session.scalar(
            select(OutboxMessage.created_at)
            .where(OutboxMessage.game_id == game_id, OutboxMessage.kind == "report")
            .order_by(OutboxMessage.id.desc())
            .limit(1)
        )
        step = play.latest_turn(session, game_id).number + 1
    assert deadline is not None and told is not None
    assert timedelta(hours=11, minutes=59) < deadline - told <= timedelta(hours=12)
    half_way = told + (deadline - told) / 2
    assert ticks.tick(runtime, now=half_way - timedelta(minutes=1)).reminded == []
    before = sent_count(runtime)
    report = ticks.tick(runtime, now=half_way + timedelta(minutes=1))
    drain(runtime)
    assert report.reminded == [(game_id, seat) for seat in seats]
    mails = sent(runtime, before)
    assert sorted(str(m["To"]) for m in mails) == sorted(PLAYERS[seat] for seat in seats)
    for mail in mails:
        text = text_of(mail)
        assert "we have no answer from you yet to your decision: " in text, text
        assert "orders from you for this turn" not in text
        assert str(mail["Subject"]).endswith(f"reminder: your decision for step {step} is due")
    # Once per deadline: later ticks before it say nothing more.
    for later in (timedelta(hours=1), timedelta(hours=5, minutes=50)):
        assert ticks.tick(runtime, now=half_way + later).reminded == []
    assert len(reminders(runtime)) == len(seats)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert (game.deadline, game.deadline_sequence) == (deadline, sequence)


def test_a_reminder_comes_its_lead_before_a_long_deadline_and_never_in_its_first_half() -> None:
    """The rule alone: the lead wins for a span of twice the lead or more; a shorter span is
    reminded of half-way; without a mail that told the deadline, the lead alone counts."""
    told = utcnow()
    lead = timedelta(hours=12)
    for span, after in (
        (timedelta(hours=48), timedelta(hours=36)),
        (timedelta(hours=24), timedelta(hours=12)),
        (timedelta(hours=12), timedelta(hours=6)),
        (timedelta(hours=13), timedelta(hours=6, minutes=30)),
        (timedelta(minutes=30), timedelta(minutes=15)),
    ):
        assert deadlines.remind_at(told + span, lead, told) == told + after, span
    assert deadlines.remind_at(told + lead, lead, None) == told
