"""The periodic tick: find due work in the database and queue it. The database is the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Update, and_, func, or_, select, update
from sqlalchemy.orm import Session

from adjudicator.models import Challenge, Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services.outbound import delivery
from adjudicator.services.record import isolation, steps
from adjudicator.services.record.runtime import QUEUE_OF, Runtime, Task
from adjudicator.services.turns import deadlines, idle, lifecycle
from adjudicator.statuses import GameStatus, InboundStatus

# A due turn, an inbound message or an outbox mail is queued again only once its last queueing
# (or its storing, for mail never queued by the tick) is presumed lost with its task. How long
# that takes depends on the queue the task went to (``_Tick.lost_before``): while the broker
# says tasks wait in it, the task may be one of them, and a copy would only lengthen the queue:
# queued_lease_seconds (10 min by default, more than a burst of mail takes to drain). Once the
# queue is empty no task waits there: claim_lease_seconds (2 min) lets a worker that took it
# claim the row. A task the broker lost is thus queued again within queued_lease_seconds +
# tick_seconds at worst. A turn whose adjudication claimed it (which clears games.queued_at) and
# died is queued once the claim runs out; an outbox mail whose retry is due after a failed try
# is queued at once: no task waits for either.
# Ids per UPDATE ... IN (...), well under every database's limit on bound parameters.
CHUNK = 1000
# Outbox mails re-queued together in one send_outboxes task (one connection to the relay).
MAILS_PER_TASK = 50


def waiting_lease(runtime: Runtime) -> timedelta:
    """How long a task may wait in a queue the broker says is not empty (or cannot say about)
    before the tick presumes it lost: queued_lease_seconds, never less than the claim lease."""
    config = runtime.config
    return timedelta(seconds=max(config.queued_lease_seconds, config.claim_lease_seconds))


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

    depths: dict[str, int | None] = field(default_factory=dict)

    def depth(self, task: Task) -> int | None:
        """How many tasks wait in ``task``'s queue, asked once a tick."""
        queue = QUEUE_OF[task]
        if queue not in self.depths:
            self.depths[queue] = self.runtime.depth(queue)
        return self.depths[queue]

    def lost_before(self, task: Task) -> datetime:
        """A queueing of ``task`` older than this is presumed lost (see the note above CHUNK)."""
        if self.depth(task) == 0:
            return self.now - deadlines.lease(self.runtime)
        return self.now - waiting_lease(self.runtime)

    def taken(self, task: Task, queued: list[tuple[datetime, int]]) -> list[int]:
        """Of rows queued (when, id), those whose task has left the queue and whose queueing is
        older than the claim lease, so that their task is presumed lost with a worker.

        The queue is first in, first out, and the tick queues rows in the order of their ids:
        of the rows queued, at most the newest ``depth`` can still have a task waiting there, and
        the older ones were taken. Tasks queued otherwise (not stamped) only make the queue
        deeper, so fewer rows are presumed taken; with no depth known, none are."""
        depth = self.depth(task)
        if depth is None:
            return []
        older = sorted(queued, reverse=True)[depth:]
        lost_before = self.now - deadlines.lease(self.runtime)
        return [row_id for when, row_id in older if when < lost_before]


def _queue_due_turns(work: _Tick) -> None:
    """Turns past their deadline (or forced) are queued for adjudication."""
    lease = deadlines.lease(work.runtime)
    with work.runtime.db.session() as session:
        due_games = deadlines.due_game_ids(session, work.now, deadlines.lease(work.runtime))
        known = due_games and work.depth(Task.ADJUDICATE) is not None
        queued = (
            session.execute(
                select(Game.queued_at, Game.id).where(
                    Game.id.in_(due_games), Game.queued_at.is_not(None)
                )
            ).all()
            if known
            else []
        )
        taken = work.taken(
            Task.ADJUDICATE, [(when, game_id) for when, game_id in queued if when is not None]
        )
        work.report.turns_due = _mark_queued(
            session,
            update(Game).where(
                Game.id.in_(due_games),
                or_(
                    Game.queued_at.is_(None),
                    Game.queued_at < work.lost_before(Task.ADJUDICATE),
                    # Queued for an earlier deadline or before the game master forced the turn.
                    and_(Game.queued_at < Game.deadline, Game.deadline <= work.now),
                    Game.queued_at < Game.forced_at,
                    # Taken from the queue and never claimed: lost with a worker.
                    and_(Game.id.in_(taken), Game.queued_at < work.now - lease),
                ),
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
    last_queued = func.coalesce(InboundMessage.queued_at, InboundMessage.received_at)
    with work.runtime.db.session() as session:
        queued = (
            session.execute(
                select(last_queued, InboundMessage.id).where(
                    InboundMessage.status == InboundStatus.RECEIVED
                )
            ).all()
            if work.depth(Task.PROCESS_INBOUND) is not None
            else []
        )
        work.report.requeued_inbound = _mark_queued(
            session,
            update(InboundMessage).where(
                InboundMessage.status == InboundStatus.RECEIVED,
                last_queued < work.lost_before(Task.PROCESS_INBOUND),
            ),
            work.now,
        )
        # Taken from the queue and still unprocessed: lost with a worker (``_Tick.taken``).
        taken = work.taken(Task.PROCESS_INBOUND, [(when, row_id) for when, row_id in queued])
        lost_before = work.now - deadlines.lease(work.runtime)
        for start in range(0, len(taken), CHUNK):
            work.report.requeued_inbound += _mark_queued(
                session,
                update(InboundMessage).where(
                    InboundMessage.id.in_(taken[start : start + CHUNK]),
                    InboundMessage.status == InboundStatus.RECEIVED,
                    last_queued < lost_before,
                ),
                work.now,
            )
        work.report.requeued_inbound.sort()
    for inbound_id in work.report.requeued_inbound:
        work.runtime.enqueue(Task.PROCESS_INBOUND, inbound_id)


def _requeue_outbox(work: _Tick) -> None:
    """Outbox mail due to be sent (a retry due, a dead worker's claim, a lost task) is queued."""
    lost_before = work.lost_before(Task.SEND_OUTBOX)
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
    requeued = sorted(work.report.requeued_outbox)
    for start in range(0, len(requeued), MAILS_PER_TASK):
        work.runtime.queue_all(Task.SEND_OUTBOXES, requeued[start : start + MAILS_PER_TASK])


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
        quiet = session.execute(
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
    for game_id, last_activity, warned_at in quiet:
        with isolation.apart("idle closing", game_id):
            if last_activity < close_before:
                if idle.close_idle(work.runtime, game_id):
                    work.report.games_closed.append(game_id)
            elif (warned_at is None or warned_at < last_activity) and idle.warn_idle(
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
