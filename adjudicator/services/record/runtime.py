"""What every service call needs: the configuration, the database and a way to queue work."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

import redis
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from adjudicator.config import Config
from adjudicator.db import Database

log = logging.getLogger(__name__)

# The queues workers/app.py declares, every one consumed by every worker: Celery's default one,
# "celery" (inbound mail), one for adjudication (so that a burst of inbound mail does not hold
# back a deadline), one for sending mail and one for the tick. Kombu's Redis transport keeps a
# queue as a list of that name, plus one list per priority step for tasks sent with a priority
# ("celery\x06\x163" ...).
QUEUES = ("celery", "adjudicate", "outbox", "tick")
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)
# The tick asks the queue's depth at every tick: a slow Redis must not hold it up for long.
DEPTH_TIMEOUT_SECONDS = 1.0


class Task(StrEnum):
    """The work a service queues for a worker, each on one record id (``send_outboxes`` on a
    list of them); the value is the Celery task's name after ``pbem.`` (``workers/tasks.py``
    defines one of each)."""

    PROCESS_INBOUND = "process_inbound"
    SEND_OUTBOX = "send_outbox"
    SEND_OUTBOXES = "send_outboxes"
    ADJUDICATE = "adjudicate"


# The queue each task goes to (workers/app.py routes them so).
QUEUE_OF = {
    Task.PROCESS_INBOUND: "celery",
    Task.SEND_OUTBOX: "outbox",
    Task.SEND_OUTBOXES: "outbox",
    Task.ADJUDICATE: "adjudicate",
}

# (task, record id); the workers package supplies the real one. Without it, nothing is lost:
# the tick finds every pending record in the database and queues it again.
Enqueue = Callable[[Task, int], None]
# (task, record ids): one task for several records (the mails of one turn); None where the
# queue takes one record a task (then each is queued by itself).
EnqueueMany = Callable[[Task, list[int]], None]
# A queue's name -> how many tasks wait in it, None when that cannot be told.
Depth = Callable[[str], int | None]
# Where a session keeps the mails its caller sends itself once it has committed (``sent_here``).
_SENT_HERE = "sent_here"
# Where a session keeps the work it queues once it has committed (``Runtime.later``).
_AFTER_COMMIT = "after_commit"
# Where a session keeps, for each savepoint open in it, how long those two lists were when the
# savepoint began: what a savepoint rolled back drops.
_SAVEPOINTS = "pbem.savepoints"


@dataclass(frozen=True)
class Written:
    """A mail a session wrote for its caller to send once committed (``Runtime.sent_here``),
    claimed for that caller as it was written (status "sending", one attempt): what sending it
    needs, so that nothing is claimed nor read back from the database to send it."""

    id: int  # the outbox row's
    raw: bytes
    to_address: str
    created_at: datetime
    game_id: int | None
    attempts: int = 1  # the claim it was written with


def _no_queue(task: Task, record_id: int) -> None:
    log.debug("no queue configured; %s(%s) waits for the tick", task, record_id)


def _unknown_depth(queue: str) -> int | None:
    return None


@dataclass
class Runtime:
    config: Config
    db: Database
    enqueue: Enqueue = field(default=_no_queue)
    enqueue_many: EnqueueMany | None = None
    # For a broker other than Redis (the embedded in-process one): workers/app.py supplies it.
    measure: Depth = field(default=_unknown_depth)
    _redis: redis.Redis | None = field(default=None, init=False, repr=False, compare=False)

    def later(self, session: Session, task: Task, record_id: int) -> None:
        """Queue ``task(record_id)`` once ``session`` has committed (never for rolled-back work)."""
        pending: list[tuple[Task, int]] = session.info.setdefault(_AFTER_COMMIT, [])
        pending.append((task, record_id))
        session.info["runtime"] = self

    def sent_here(self, session: Session) -> list[Written]:
        """The mails ``session`` writes from now on, which are then not queued for a send_outbox
        task: its caller sends them itself right after the commit (``delivery.deliver_written``),
        sparing a task, a claim and a queue round trip per mail. Each is written claimed for that
        caller; one that dies before sending them leaves them claimed, and the tick's sweep of
        the outbox queues them once the claim is stale (``sending_lease_seconds``,
        ``retries.pending_ids``). The list is emptied if the session rolls back."""
        kept: list[Written] = session.info.setdefault(_SENT_HERE, [])
        return kept

    @staticmethod
    def sending_here(session: Session) -> list[Written] | None:
        """The list ``sent_here`` gave out for ``session``, None if it gave none: where the mail
        it writes goes (``mailer.queue``)."""
        kept: list[Written] | None = session.info.get(_SENT_HERE)
        return kept

    def depth(self, queue: str) -> int | None:
        """How many tasks wait in ``queue`` (not those a worker has taken): LLEN in Redis, of the
        queue and its priority lists; None when the broker cannot say (then the tick presumes
        the queue busy, see services.turns.ticks)."""
        url = self.config.broker_url.split(";", 1)[0].strip()
        if not url.startswith(("redis://", "rediss://")):
            return self.measure(queue)
        try:
            if self._redis is None:
                self._redis = redis.Redis.from_url(
                    url,
                    socket_timeout=DEPTH_TIMEOUT_SECONDS,
                    socket_connect_timeout=DEPTH_TIMEOUT_SECONDS,
                )
            pipeline = self._redis.pipeline(transaction=False)
            for name in (queue, *(f"{queue}{PRIORITY_SEPARATOR}{s}" for s in PRIORITY_STEPS)):
                pipeline.llen(name)
            return sum(int(length) for length in pipeline.execute())
        except redis.RedisError as error:
            log.warning("could not ask the broker how deep %s is: %s", queue, error)
            return None

    def queue_all(self, task: Task, record_ids: list[int]) -> None:
        """Queue ``task`` for each record: as one task over them all when the queue takes lists
        (``enqueue_many``) and there are several, else one task each."""
        if len(record_ids) > 1 and self.enqueue_many is not None:
            self.enqueue_many(task, record_ids)
            return
        one = Task.SEND_OUTBOX if task == Task.SEND_OUTBOXES else task
        for record_id in record_ids:
            self.enqueue(one, record_id)


@event.listens_for(Session, "after_transaction_create")
def _mark_savepoint(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested:
        lengths = (len(session.info.get(_AFTER_COMMIT, [])), len(session.info.get(_SENT_HERE, [])))
        session.info.setdefault(_SAVEPOINTS, []).append(lengths)


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    # SQLAlchemy calls this when a savepoint is released too: its work waits for the commit of
    # the whole transaction, or a worker would look for rows not yet there for it to see.
    if session.in_nested_transaction():
        session.info.get(_SAVEPOINTS, [None]).pop()
        return
    session.info.pop(_SAVEPOINTS, None)
    pending: list[tuple[Task, int]] = session.info.pop(_AFTER_COMMIT, [])
    runtime: Runtime | None = session.info.get("runtime")
    if runtime is None:
        return
    # The mails one transaction wrote (a turn's reports, a game's welcomes) go out in one task,
    # over one connection to the relay, when the queue takes lists.
    mails = [record_id for task, record_id in pending if task == Task.SEND_OUTBOX]
    batches: list[tuple[Task, list[int]]] = [
        (task, [record_id])
        for task, record_id in pending
        if task != Task.SEND_OUTBOX or len(mails) < 2 or runtime.enqueue_many is None
    ]
    if len(mails) > 1 and runtime.enqueue_many is not None:
        batches.append((Task.SEND_OUTBOXES, mails))
    for task, record_ids in batches:
        try:
            runtime.queue_all(task, record_ids)
        except Exception:  # the broker being down must not undo a committed change
            log.exception("could not queue %s(%s); the tick will retry", task, record_ids)


@event.listens_for(Session, "after_rollback")
def _drop_after_rollback(session: Session) -> None:
    """Forget the work and mails of what was rolled back: the whole transaction's, or, for a
    savepoint (SQLAlchemy calls this for one too), only what was added since it began."""
    queued: list[tuple[Task, int]] = session.info.get(_AFTER_COMMIT, [])
    kept: list[Written] = session.info.get(_SENT_HERE, [])  # its caller holds this list
    if session.in_nested_transaction():
        queued_before, kept_before = session.info.get(_SAVEPOINTS, [(0, 0)]).pop()
    else:
        session.info.pop(_SAVEPOINTS, None)
        queued_before, kept_before = 0, 0
    del queued[queued_before:]
    del kept[kept_before:]  # a mail never kept must not be sent
