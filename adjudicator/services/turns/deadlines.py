"""Turns at a deadline: set it, find what is due, claim it, adjudicate it exactly once.

The database is the clock of record and the only lock: a worker takes a lease on the game with a
compare-and-set, then re-checks under the row lock that the turn is still due. A duplicate task
or a second worker finds nothing to do; a worker that dies leaves a lease that expires.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists, func, or_, select, update
from sqlalchemy.orm import Session

from adjudicator import limits
from adjudicator.core.refusal import Refusal
from adjudicator.db import changed
from adjudicator.models import Game, Submission, Turn, utcnow
from adjudicator.services.outbound import calendar_entries, reports
from adjudicator.services.record import isolation, on_file, play, positions, reasons
from adjudicator.services.record.runtime import Runtime, Written
from adjudicator.services.turns import lifecycle
from adjudicator.statuses import GameStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Adjudicated:
    game_id: int
    turn: int
    why: str  # reasons.DEADLINE, ALL_SUBMITTED or FORCED (stored as the turn's reason)
    defaulted: tuple[str, ...]  # seats whose orders were the NMR defaults
    # The outbox ids of the turn's mails, when its caller sends them itself (``resolve``).
    written: tuple[Written, ...] = ()


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


def resolve(
    runtime: Runtime, game_id: int, now: datetime, force: bool, send_here: bool = False
) -> Adjudicated | Refusal:
    """Claim the game and resolve its turn if the check under the row lock finds it due; the
    caller has seen ``plainly_not_due`` say None. With ``send_here``, the turn's mails are not
    queued for a send task: they are in the answer (``written``), for the caller to send
    once the turn is committed (``Runtime.sent_here``)."""
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
            written = runtime.sent_here(session) if send_here else []
            game = play.locked_game(session, runtime, game_id)
            assert game is not None  # claimed above, and games are never deleted
            why = _why_due(session, game, now, force)
            if why is None:
                game.claimed_at = None
                return NOT_DUE
            done = _resolve_turn(session, runtime, game, why, now)
            ids = {"game_id": game_id, "turn": done.turn, "status": why}
            log.info("game %s turn %s adjudicated (%s)", game_id, done.turn, why, extra=ids)
            # Read as the session commits on leaving: a rollback empties the list.
            return replace(done, written=tuple(written))
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
    stale = calendar_entries.overtaken(game, turn.number, now)
    lifecycle.open_deadline(game, now)
    # The lease given back (and a forced turn done) in the same UPDATE of the game row as the
    # turn's other changes to it; flushed with the turn, whose id its reports name.
    game.claimed_at, game.forced_at = None, None
    session.flush()
    played = reports.Played(turn, resolution)
    for seat in game.seats:
        reports.turn_report(session, runtime, game, seat, played, overtaken=stale)
    return Adjudicated(game.id, turn.number, why, tuple(defaulted))
