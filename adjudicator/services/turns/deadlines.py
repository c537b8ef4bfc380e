"""Turns at a deadline: set it, find what is due, claim it, adjudicate it exactly once.

The database is the clock of record and the only lock: a worker takes a lease on the game with a
compare-and-set, then re-checks under the row lock that the turn is still due. A duplicate task
or a second worker finds nothing to do; a worker that dies leaves a lease that expires.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists, func, or_, select, update
from sqlalchemy.orm import Session, contains_eager

from adjudicator import i18n, limits
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.core.refusal import Refusal
from adjudicator.db import changed
from adjudicator.models import Game, OutboxMessage, Player, Seat, Submission, Turn, utcnow
from adjudicator.services.outbound import reports
from adjudicator.services.record import isolation, on_file, play, positions, reasons
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import preferences
from adjudicator.statuses import GameStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Adjudicated:
    game_id: int
    turn: int
    why: str  # reasons.DEADLINE, ALL_SUBMITTED or FORCED (stored as the turn's reason)
    defaulted: tuple[str, ...]  # seats whose orders were the NMR defaults


# Why ``adjudicate`` played no turn: a duplicate task, or one that came before its time.
HELD = Refusal("not active, or another worker holds it", "held")
NOT_DUE = Refusal("not due", "not-due")


def lease(runtime: Runtime) -> timedelta:
    """How long a claim holds; an older one belongs to a worker that died."""
    return timedelta(seconds=runtime.config.claim_lease_seconds)


def due_game_ids(session: Session, now: datetime, held: timedelta) -> list[int]:
    """Games whose deadline (plus grace) has passed, or whose turn the game master forced, and
    nobody holds a live claim on."""
    candidates = session.execute(
        select(Game.id, Game.deadline, Game.grace_minutes).where(
            Game.status == GameStatus.ACTIVE,
            Game.paused.is_(False),
            Game.deadline.is_not(None),
            Game.deadline <= now,
            or_(Game.claimed_at.is_(None), Game.claimed_at < now - held),
        )
    ).all()
    due = [
        game_id
        for game_id, deadline, grace in candidates
        if deadline is not None and deadline + grace_of(grace) <= now
    ]
    # Turns the game master forced (PROCESS NOW), paused or not, deadline or not.
    due += session.scalars(
        select(Game.id).where(
            Game.status == GameStatus.ACTIVE,
            Game.forced_at.is_not(None),
            or_(Game.claimed_at.is_(None), Game.claimed_at < now - held),
        )
    ).all()
    # Early adjudication that waits a while after the last orders: the tick's to start.
    delayed = session.scalars(
        select(Game).where(
            Game.status == GameStatus.ACTIVE,
            Game.paused.is_(False),
            Game.early.is_(True),
            Game.early_delay_minutes > 0,
            Game.deadline.is_not(None),
            Game.deadline > now,
            or_(Game.claimed_at.is_(None), Game.claimed_at < now - held),
        )
    ).all()
    for game in delayed:
        # A savepoint each, so that one game's failed query does not end the tick's transaction.
        with isolation.apart("the early adjudication check", game.id), session.begin_nested():
            if early_and_quiet(session, game, now):
                due.append(game.id)
    return list(dict.fromkeys(due))  # once each, in the order found


def grace_of(minutes: int | None) -> timedelta:
    """A game's grace after its deadline, within bounds whatever its row says."""
    return timedelta(minutes=limits.GRACE.bounded(minutes))


def early_and_quiet(session: Session, game: Game, now: datetime) -> bool:
    """Every set on file is whole, nobody asked to WAIT, and the last set is at least the
    game's delay old (``on_file.owed``)."""
    return on_file.owed(session, game).resolves_early(now)


def adjudicate(
    runtime: Runtime, game_id: int, now: datetime | None = None, force: bool = False
) -> Adjudicated | Refusal:
    """Resolve the game's current turn if it is due (or ``force``), once; else say why not.
    Mail still waiting to be read is not taken in here: a worker's due turn reads it first
    (``services.inbound.due_turn``), so a deadline's own walk stays among the turns."""
    now = now or utcnow()
    refused = plainly_not_due(runtime, game_id, now, force)
    return refused if refused is not None else resolve(runtime, game_id, now, force)


def resolve(runtime: Runtime, game_id: int, now: datetime, force: bool) -> Adjudicated | Refusal:
    """Claim the game and resolve its turn if the check under the row lock finds it due; the
    caller has seen ``plainly_not_due`` say None."""
    # The compare-and-set is whole in one statement: committed on its own, no BEGIN nor COMMIT.
    with runtime.db.autocommit() as session:
        claimed = changed(
            session,
            update(Game)
            .where(
                Game.id == game_id,
                Game.status == GameStatus.ACTIVE,
                or_(Game.claimed_at.is_(None), Game.claimed_at < now - lease(runtime)),
            )
            # Taken from the queue: the tick's queueing is spent (services.turns.ticks).
            .values(claimed_at=now, queued_at=None),
        )
    if not claimed:
        return HELD
    try:
        with runtime.db.session() as session:
            game = play.locked_game(session, runtime, game_id)
            assert game is not None  # claimed above, and games are never deleted
            why = _why_due(session, game, now, force)
            if why is None:
                game.claimed_at = None
                return NOT_DUE
            done = _resolve_turn(session, runtime, game, why, now)
            ids = {"game_id": game_id, "turn": done.turn, "status": why}
            log.info("game %s turn %s adjudicated (%s)", game_id, done.turn, why, extra=ids)
            return done
    except Exception:
        with runtime.db.autocommit() as session:  # give the lease back: the next tick retries
            session.execute(update(Game).where(Game.id == game_id).values(claimed_at=None))
        raise


def plainly_not_due(runtime: Runtime, game_id: int, now: datetime, force: bool) -> Refusal | None:
    """HELD or NOT_DUE when one read of the game's row says so, without claiming, locking or
    committing anything (a copy of a task whose turn was played, a deadline that moved); None
    when the turn may be due, for the claim and the check under the lock to decide."""
    # Early adjudication needs everyone's orders on file: none at all for the turn to come (as
    # just after a turn was played) rules it out.
    next_turn = (
        select(func.max(Turn.number))
        .where(Turn.game_id == game_id, Turn.rolled_back_at.is_(None))
        .scalar_subquery()
    )
    orders = exists().where(Submission.game_id == game_id, Submission.turn_number == next_turn + 1)
    # One statement, committed on its own: no BEGIN nor COMMIT round trip.
    with runtime.db.autocommit() as session:
        row = session.execute(
            select(
                Game.status,
                Game.claimed_at,
                Game.forced_at,
                Game.paused,
                Game.deadline,
                Game.grace_minutes,
                Game.early,
                orders.label("orders"),
            ).where(Game.id == game_id)
        ).one_or_none()
    if row is None or row.status != GameStatus.ACTIVE:
        return HELD
    if row.claimed_at is not None and row.claimed_at >= now - lease(runtime):
        return HELD
    if force or row.forced_at is not None or (row.early and row.orders):
        return None  # forced, or perhaps everyone's orders are in: the full check says
    if row.paused or row.deadline is None or row.deadline + grace_of(row.grace_minutes) > now:
        return NOT_DUE
    return None


def _why_due(session: Session, game: Game, now: datetime, force: bool) -> str | None:
    if force or game.forced_at is not None:
        return reasons.FORCED
    if game.paused or game.deadline is None:
        return None
    if game.deadline + grace_of(game.grace_minutes) <= now:
        return reasons.DEADLINE
    if early_and_quiet(session, game, now):
        return reasons.ALL_SUBMITTED
    return None


def _resolve_turn(
    session: Session, runtime: Runtime, game: Game, why: str, now: datetime
) -> Adjudicated:
    rules = play.rules_for(game)
    previous = play.latest_turn(session, game.id)
    # The state and what each seat owes, as the check that everyone had submitted found them.
    shot = positions.snapshot(session, rules, previous)
    state = shot.state
    filed = on_file.current_orders(session, game, previous.number + 1)
    orders: dict[str, Any] = {}
    defaulted: list[str] = []
    for seat_name in shot.owed:
        if seat_name in filed:
            orders[seat_name] = filed[seat_name]
        else:
            orders[seat_name] = rules.default_orders(state, seat_name)
            defaulted.append(seat_name)
    turn, resolution = play.apply_orders(session, game, orders, why, {"defaulted": defaulted})
    # Played before its deadline (all orders in, or forced): the entry announcing that deadline
    # is withdrawn in the same mail that brings the next one.
    stale = reports.overtaken(game, turn.number, now)
    lifecycle.open_deadline(game, now)
    # The lease given back (and a forced turn done) in the same UPDATE of the game row as the
    # turn's other changes to it; flushed with the turn, whose id its reports name.
    game.claimed_at, game.forced_at = None, None
    session.flush()
    played = reports.Played(turn, resolution)
    for seat in game.seats:
        reports.turn_report(session, runtime, game, seat, played, overtaken=stale)
    return Adjudicated(game.id, turn.number, why, tuple(defaulted))


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
