"""The periodic tick: find due work in the database and queue it. The database is the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Update, and_, func, or_, select, update
from sqlalchemy.orm import Session

from adjudicator.models import Challenge, Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services import deadlines, delivery, isolation, lifecycle, steps
from adjudicator.services.runtime import Runtime, Task
from adjudicator.statuses import GameStatus, InboundStatus

# A due turn, an inbound message or an outbox mail is queued again only once its last queueing
# (or its storing, for mail never queued by the tick) is older than the claim lease
# (deadlines.lease, claim_lease_seconds): until then its task is presumed waiting in a busy queue,
# and queueing a copy at every tick only lengthens that queue. A task the broker lost is thus
# queued again within claim_lease_seconds + tick_seconds (2.5 min by default). An outbox mail
# whose retry is due after a failed try is queued at once: no task waits for it.
# Ids per UPDATE ... IN (...), well under every database's limit on bound parameters.
CHUNK = 1000


@dataclass
class TickReport:
    requeued_inbound: list[int] = field(default_factory=list)
    requeued_outbox: list[int] = field(default_factory=list)
    challenges_revealed: list[str] = field(default_factory=list)
    games_warned: list[int] = field(default_factory=list)
    games_closed: list[int] = field(default_factory=list)
    turns_due: list[int] = field(default_factory=list)
    reminded: list[tuple[int, str]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {name: len(items) for name, items in vars(self).items()}


def tick(runtime: Runtime, now: datetime | None = None) -> TickReport:
    """One tick's work: the steps of ``STEPS`` in order, each filling its part of the report."""
    return steps.run(STEPS, _Tick(runtime, now or utcnow()), _report)


@dataclass
class _Tick:
    """What the steps of one tick share: the moment it runs at, and the report they fill."""

    runtime: Runtime
    now: datetime
    report: TickReport = field(default_factory=TickReport)

    @property
    def lost_before(self) -> datetime:
        """A queueing older than this is presumed lost with its task (see the note above CHUNK)."""
        return self.now - deadlines.lease(self.runtime)


def _queue_due_turns(work: _Tick) -> None:
    """Turns past their deadline (or forced) are queued for adjudication."""
    with work.runtime.db.session() as session:
        due_games = deadlines.due_game_ids(session, work.now, deadlines.lease(work.runtime))
        work.report.turns_due = _mark_queued(
            session,
            update(Game).where(
                Game.id.in_(due_games),
                or_(Game.queued_at.is_(None), Game.queued_at < work.lost_before),
            ),
            work.now,
        )
    for game_id in work.report.turns_due:
        work.runtime.enqueue(Task.ADJUDICATE, game_id)


def _remind(work: _Tick) -> None:
    """Players whose orders are still missing near a deadline are reminded."""
    work.report.reminded = deadlines.send_reminders(work.runtime, work.now)


def _requeue_inbound(work: _Tick) -> None:
    """Inbound mail stored but left unprocessed (its task lost) is queued again."""
    with work.runtime.db.session() as session:
        work.report.requeued_inbound = _mark_queued(
            session,
            update(InboundMessage).where(
                InboundMessage.status == InboundStatus.RECEIVED,
                func.coalesce(InboundMessage.queued_at, InboundMessage.received_at)
                < work.lost_before,
            ),
            work.now,
        )
    for inbound_id in work.report.requeued_inbound:
        work.runtime.enqueue(Task.PROCESS_INBOUND, inbound_id)


def _requeue_outbox(work: _Tick) -> None:
    """Outbox mail due to be sent (a retry due, a dead worker's claim, a lost task) is queued."""
    lost_before = work.lost_before
    due_outbox = delivery.pending_ids(work.runtime, now=work.now)
    with work.runtime.db.session() as session:
        for start in range(0, len(due_outbox), CHUNK):
            work.report.requeued_outbox += _mark_queued(
                session,
                update(OutboxMessage).where(
                    OutboxMessage.id.in_(due_outbox[start : start + CHUNK]),
                    or_(
                        # Never queued by the tick: a mail tried before (its retry is due, or a
                        # dead worker's claim was released), or one whose own task is overdue.
                        and_(
                            OutboxMessage.queued_at.is_(None),
                            or_(
                                OutboxMessage.claimed_at.is_not(None),
                                OutboxMessage.created_at < lost_before,
                            ),
                        ),
                        OutboxMessage.queued_at < OutboxMessage.claimed_at,  # tried since
                        OutboxMessage.queued_at < lost_before,
                    ),
                ),
                work.now,
            )
    for outbox_id in sorted(work.report.requeued_outbox):
        work.runtime.enqueue(Task.SEND_OUTBOX, outbox_id)


def _reveal_shared_deals(work: _Tick) -> None:
    """Shared deals past their deadline are revealed, each apart from the others."""
    with work.runtime.db.session() as session:
        due = session.scalars(
            select(Challenge.id).where(
                Challenge.revealed_at.is_(None), Challenge.deadline <= work.now
            )
        ).all()
    for challenge_id in due:
        with isolation.apart("the reveal", challenge_id, "challenge"):
            name = lifecycle.reveal_challenge(work.runtime, challenge_id)
            if name:
                work.report.challenges_revealed.append(name)


def _warn_or_close_idle(work: _Tick) -> None:
    """Solo games left idle are warned, then closed, each apart from the others."""
    config = work.runtime.config
    warn_before = work.now - timedelta(days=config.idle_close_days - config.idle_warning_days)
    close_before = work.now - timedelta(days=config.idle_close_days)
    with work.runtime.db.session() as session:
        idle = session.execute(
            select(Game.id, Game.last_activity, Game.idle_warned_at).where(
                Game.status == GameStatus.ACTIVE,
                Game.challenge_id.is_(None),
                # Solo games only: a game with deadlines moves on by itself (silent seats get the
                # defaults), and after a long outage or a clock jump its due turn must be played,
                # not the game closed.
                Game.schedule == "",
                Game.last_activity < warn_before,
            )
        ).all()
    for game_id, last_activity, warned_at in idle:
        with isolation.apart("idle closing", game_id):
            if last_activity < close_before:
                if lifecycle.close_idle(work.runtime, game_id):
                    work.report.games_closed.append(game_id)
            elif (warned_at is None or warned_at < last_activity) and lifecycle.warn_idle(
                work.runtime, game_id
            ):
                work.report.games_warned.append(game_id)


def _report(work: _Tick) -> TickReport:
    """The tick's answer, once every step has run: the report they filled."""
    return work.report


# The tick's steps, in order (``tick`` runs them). No step ends the tick early: each returns None
# to go on, and a failure in one game's work is that game's alone (``isolation.apart``).
STEPS: tuple[Callable[[_Tick], None], ...] = (
    _queue_due_turns,
    _remind,
    _requeue_inbound,
    _requeue_outbox,
    _reveal_shared_deals,
    _warn_or_close_idle,
)


def _mark_queued(session: Session, statement: Update, now: datetime) -> list[int]:
    """Stamp queued_at on the rows ``statement`` picks and return their ids: a compare-and-set,
    so that of two ticks running at once only one queues a row."""
    marked = session.scalars(
        statement.values(queued_at=now)
        .returning(statement.table.c.id)
        .execution_options(synchronize_session=False)
    )
    return sorted(marked)
