"""What an operator watches: can we reach the database and the broker, and how much work waits.

Everything here reads; nothing changes state. The database is the record (mail in, mail out,
deadlines), so the backlog is counted there; the broker only holds the task messages that point
at those rows, and its queue length says whether workers keep up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

import redis
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from adjudicator.models import Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services.record.runtime import PRIORITY_SEPARATOR, PRIORITY_STEPS, QUEUES, Runtime
from adjudicator.services.turns import deadlines
from adjudicator.statuses import InboundStatus, OutboxStatus

log = logging.getLogger(__name__)
S = TypeVar("S", bound=StrEnum)

INBOUND_STATUSES = tuple(InboundStatus)
OUTBOX_STATUSES = tuple(OutboxStatus)
# The queues workers/app.py declares (services.record.runtime.QUEUES), their priority lists; and the
# tasks a worker has taken but not yet acknowledged (acks_late: running, or lost with their
# worker) in the hash "unacked". The depth shown is all of them together.
UNACKED = "unacked"
# An unreachable Redis must not hang a health check behind a load balancer's own timeout.
REDIS_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class Unreachable:
    """A server we could not ask; ``why`` is the kind of error only (no host, no password)."""

    why: str


@dataclass(frozen=True)
class Queue:
    waiting: int  # task messages no worker has taken yet
    unacked: int  # taken by a worker and not yet finished (or lost with a dead worker)


@dataclass(frozen=True)
class Backlog:
    inbound: dict[InboundStatus, int]  # inbound messages by status
    outbox: dict[OutboxStatus, int]  # outbound mail by status
    oldest_inbound_s: float | None  # age of the oldest message still "received"
    oldest_outbox_s: float | None  # age of the oldest mail not yet handed on ("pending"/"sending")
    due_games: tuple[int, ...]  # games whose turn is due and that no worker holds
    oldest_due_s: float | None  # how long past its deadline (and grace) the most overdue one is

    @property
    def inbound_pending(self) -> int:
        return self.inbound.get(InboundStatus.RECEIVED, 0)

    @property
    def outbox_pending(self) -> int:
        return self.outbox.get(OutboxStatus.PENDING, 0) + self.outbox.get(OutboxStatus.SENDING, 0)

    # The keys of to_json, for the answer when the database cannot be asked.
    KEYS = (
        "inbound_pending",
        "outbox_pending",
        "inbound",
        "outbox",
        "oldest_inbound_pending_age_s",
        "oldest_outbox_pending_age_s",
        "oldest_pending_age_s",
        "due_games",
        "oldest_due_age_s",
    )

    def to_json(self) -> dict[str, Any]:
        ages = [a for a in (self.oldest_inbound_s, self.oldest_outbox_s) if a is not None]
        found = {
            "inbound_pending": self.inbound_pending,
            "outbox_pending": self.outbox_pending,
            "inbound": self.inbound,
            "outbox": self.outbox,
            "oldest_inbound_pending_age_s": self.oldest_inbound_s,
            "oldest_outbox_pending_age_s": self.oldest_outbox_s,
            "oldest_pending_age_s": max(ages, default=None),
            "due_games": len(self.due_games),
            "oldest_due_age_s": self.oldest_due_s,
        }
        return found


@dataclass(frozen=True)
class Report:
    database: Backlog | Unreachable
    # None: the embedded in-process broker (or one that is not Redis), which cannot be asked.
    broker: Queue | Unreachable | None

    @property
    def healthy(self) -> bool:
        return not isinstance(self.database, Unreachable) and not isinstance(
            self.broker, Unreachable
        )

    def to_json(self) -> dict[str, Any]:
        """Counts, ages and states only: safe for /healthz, which anyone may read."""
        found: dict[str, Any] = {
            "status": "ok" if self.healthy else "unavailable",
            "database": _state(self.database),
        }
        if self.broker is not None:
            found["redis"] = _state(self.broker)
        if isinstance(self.database, Backlog):
            found.update(self.database.to_json())
        else:  # the same keys, so a monitor's query never meets a missing field
            found.update(dict.fromkeys(Backlog.KEYS))
        queue = self.broker if isinstance(self.broker, Queue) else None
        found["queue_depth"] = queue.waiting if queue else None
        found["queue_unacked"] = queue.unacked if queue else None
        return found


def _state(part: object) -> str:
    return f"unreachable ({part.why})" if isinstance(part, Unreachable) else "ok"


def report(runtime: Runtime, now: datetime | None = None) -> Report:
    """The database's backlog and the broker's queue, each as found or as why not."""
    return Report(
        database_backlog(runtime, now or utcnow()), broker_queue(runtime.config.broker_url)
    )


def database_backlog(runtime: Runtime, now: datetime) -> Backlog | Unreachable:
    try:
        with runtime.db.session() as session:
            session.execute(text("SELECT 1"))
            return _backlog(session, runtime, now)
    except Exception as error:  # any failure to ask is the answer "unreachable"
        log.warning("the database is unreachable: %s", error)
        return Unreachable(type(error).__name__)


def _backlog(session: Session, runtime: Runtime, now: datetime) -> Backlog:
    inbound = _by_status(session, InboundMessage.status, INBOUND_STATUSES)
    outbox = _by_status(session, OutboxMessage.status, OUTBOX_STATUSES)
    oldest_inbound = session.scalar(
        select(func.min(InboundMessage.received_at)).where(
            InboundMessage.status == InboundStatus.RECEIVED
        )
    )
    oldest_outbox = session.scalar(
        select(func.min(OutboxMessage.created_at)).where(
            OutboxMessage.status.in_((OutboxStatus.PENDING, OutboxStatus.SENDING))
        )
    )
    # The tick's own test of what is due, so these are the games the next tick will queue.
    due = tuple(deadlines.due_game_ids(session, now, deadlines.lease(runtime)))
    overdue = [
        (now - deadline - deadlines.grace_of(grace)).total_seconds()
        for deadline, grace in session.execute(
            select(Game.deadline, Game.grace_minutes).where(Game.id.in_(due))
        )
        if deadline is not None
    ]
    return Backlog(
        inbound=inbound,
        outbox=outbox,
        oldest_inbound_s=_age(now, oldest_inbound),
        oldest_outbox_s=_age(now, oldest_outbox),
        due_games=due,
        oldest_due_s=max((age for age in overdue if age >= 0), default=None),
    )


def _by_status(session: Session, column: Any, known: tuple[S, ...]) -> dict[S, int]:
    counts = dict.fromkeys(known, 0)
    for status, count in session.execute(select(column, func.count()).group_by(column)):
        counts[status] = count
    return counts


def _age(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else round(max(0.0, (now - then).total_seconds()), 1)


def broker_queue(broker_url: str) -> Queue | Unreachable | None:
    """The Celery queue's length in Redis; None when the broker is not Redis."""
    # Kombu accepts several broker URLs separated by ";" for fail-over; the first is the one used.
    url = broker_url.split(";", 1)[0].strip()
    if not url.startswith(("redis://", "rediss://")):
        return None
    try:
        client = redis.Redis.from_url(
            url,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        )
        with client:
            names = [
                name
                for queue in QUEUES
                for name in (queue, *(f"{queue}{PRIORITY_SEPARATOR}{s}" for s in PRIORITY_STEPS))
            ]
            pipeline = client.pipeline(transaction=False)
            for name in names:
                pipeline.llen(name)
            pipeline.hlen(UNACKED)
            *lengths, unacked = pipeline.execute()
        return Queue(waiting=sum(int(n) for n in lengths), unacked=int(unacked))
    except redis.RedisError as error:
        log.warning("the broker is unreachable: %s", error)
        return Unreachable(type(error).__name__)
