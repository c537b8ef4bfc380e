"""Reminders near a deadline: each seat still owing is reminded once per deadline (again if the
deadline moves), at the lead time its player asked for, and not soon after a mail that told it
the deadline already."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, contains_eager

from adjudicator import i18n, limits
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.models import Game, OutboxMessage, Player, Seat
from adjudicator.services.outbound import reports
from adjudicator.services.record import isolation, on_file, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import preferences
from adjudicator.statuses import GameStatus

log = logging.getLogger(__name__)


# The mails that tell a seat its deadline as they open or move it: the welcome, a turn's (or
# step's) report, the game master's notices. A reminder soon after one of them says nothing new.
TELLING = ("start", "report", "notice")


def send_reminders(runtime: Runtime, now: datetime) -> list[tuple[int, str]]:
    """Remind each seat still owing near its deadline, once per deadline (again if it moves).

    The seats are picked in SQL (a deadline within the longest lead time anyone asks for, not yet
    reminded for it) and their lead time checked before any game's position is loaded, so that a
    tick over thousands of games with no reminder due costs a few queries."""
    reminded: list[tuple[int, str]] = []
    with runtime.db.session() as session:
        # Bounded as read: one game's absurd lead must not make the window overflow for all.
        longest = limits.REMIND.bounded(
            max(
                session.scalar(select(func.max(Game.reminder_hours))) or 0,
                session.scalar(select(func.max(Player.reminder_hours))) or 0,
            )
        )
        if longest <= 0:
            return reminded
        near = session.scalars(
            select(Seat)
            .join(Seat.game)
            .join(Seat.player)
            .options(contains_eager(Seat.game), contains_eager(Seat.player))
            .where(
                Game.status == GameStatus.ACTIVE,
                Game.paused.is_(False),
                Game.deadline > now,
                Game.deadline <= now + timedelta(hours=longest),
                Seat.reminded_sequence != Game.deadline_sequence,
            )
            .order_by(Game.id, Seat.id)
        ).all()
        for game, seats in _due(session, near, now).items():
            # A savepoint each: a game whose reminders fail leaves no half of them behind.
            with isolation.apart("reminders", game.id), session.begin_nested():
                reminded += _remind(session, runtime, game, seats)
    return reminded


def _due(session: Session, near: Sequence[Seat], now: datetime) -> dict[Game, list[Seat]]:
    """Of the seats whose deadline is near, those whose reminder is due now, by game."""
    # The lead's own window first: no look at the outbox for seats not near their lead.
    # Not marked as reminded when away: a player back before the deadline is reminded then.
    leads = [
        seat
        for seat in near
        if lead(seat) > timedelta(0)
        and seat.game.deadline is not None
        and seat.game.deadline - lead(seat) <= now
        and not preferences.on_vacation(seat.player, now)
    ]
    due: dict[Game, list[Seat]] = {}
    for seat, when in reminders_at(session, leads).items():
        if when <= now:
            due.setdefault(seat.game, []).append(seat)
    return due


def lead(seat: Seat) -> timedelta:
    """How long before a deadline the seat's player is reminded: their own lead time, else the
    game's (bounded); zero means never."""
    hours = seat.player.reminder_hours
    return timedelta(
        hours=limits.REMIND.bounded(seat.game.reminder_hours if hours is None else hours)
    )


def reminders_at(session: Session, seats: Sequence[Seat]) -> dict[Seat, datetime]:
    """When each seat (with a deadline and a lead) is reminded if it still owes then: what the
    tick acts on, and what the game master's page says is coming."""
    told = _told(session, list(seats))
    return {
        seat: remind_at(
            seat.game.deadline, lead(seat), told.get((seat.game_id, seat.player.address))
        )
        for seat in seats
        if seat.game.deadline is not None and lead(seat) > timedelta(0)
    }


def _whom(seat: Seat) -> tuple[int, str]:
    return seat.game_id, seat.player.address


def _told(session: Session, seats: list[Seat]) -> dict[tuple[int, str], datetime]:
    """When each seat's player (game, address) was last told its deadline by a mail (TELLING)."""
    if not seats:
        return {}
    rows = session.execute(
        select(OutboxMessage.game_id, OutboxMessage.to_address, func.max(OutboxMessage.created_at))
        .where(
            OutboxMessage.game_id.in_({seat.game_id for seat in seats}),
            OutboxMessage.kind.in_(TELLING),
        )
        .group_by(OutboxMessage.game_id, OutboxMessage.to_address)
    ).all()
    return {(game_id, address): when for game_id, address, when in rows if game_id is not None}


def remind_at(deadline: datetime, lead: timedelta, told: datetime | None) -> datetime:
    """When a seat still owing is reminded of ``deadline``: ``lead`` before it, but never in the
    first half of the time between the mail that ``told`` the seat this deadline and the
    deadline. A decision whose whole span is shorter than the lead (one decision at a time, an
    extension near the end) is thus reminded of once, half-way, and not seconds after its mail,
    which said all the reminder would."""
    at = deadline - lead
    if told is None or told >= deadline:
        return at
    return max(at, told + (deadline - told) / 2)


def _remind(
    session: Session, runtime: Runtime, game: Game, seats: list[Seat]
) -> list[tuple[int, str]]:
    turn = play.latest_turn(session, game.id)
    filed = on_file.owed(session, game, turn).on_file
    rules = play.rules_for(game)
    # Only seats that owe something now: in a game of one decision at a time, the other
    # player has nothing to send and must not be nagged.
    owed = rules.pending(rules.load(turn.state))
    reminded = []
    for seat in seats:
        if seat.seat not in owed or seat.seat in filed:
            continue
        seat.reminded_sequence = game.deadline_sequence
        lang = play.language(seat.player, game)
        decision = owed[seat.seat] if rules.resolves_on_receipt else None
        letter = reports.SeatLetter(
            key=f"game:{game.id}:remind:{game.deadline_sequence}:{seat.seat}",
            kind="reminder",
            template="notice",
            what="reminder" if decision is None else "decision-reminder",
            extra={"message": _reminder_text(rules, decision, lang)},
            map=False,  # nothing has moved since the mail that showed this position
        )
        reports.mail_seat(session, runtime, game, seat, letter)
        reminded.append((game.id, seat.seat))
        log.info(
            "game %s seat %s reminded",
            game.id,
            seat.seat,
            extra={"game_id": game.id, "seat": seat.seat},
        )
    return reminded


def _reminder_text(rules: Rules[Any], decision: Decision | None, lang: str) -> str:
    """What the reminder says is owed, in the game's words: a turn's orders, or the one decision
    a game of one decision at a time waits for ("choose the first wing")."""
    if decision is None:
        return i18n.gettext("a reminder: we have no orders from you for this turn yet.", lang)
    _ = i18n.translator(lang)
    what = i18n.localized(decision.brief, lang) or _("your next %(noun)s", noun=_(rules.turn_noun))
    return _("a reminder: we have no answer from you yet to your decision: %(what)s.", what=what)
