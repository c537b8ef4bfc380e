"""What every service call needs: the configuration, the database and a way to queue work."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import event
from sqlalchemy.orm import Session

from adjudicator.config import Config
from adjudicator.db import Database

log = logging.getLogger(__name__)


class Task(StrEnum):
    """The work a service queues for a worker, each on one record id; the value is the Celery
    task's name after ``pbem.`` (``workers/tasks.py`` defines one of each)."""

    PROCESS_INBOUND = "process_inbound"
    SEND_OUTBOX = "send_outbox"
    ADJUDICATE = "adjudicate"


# (task, record id); the workers package supplies the real one. Without it, nothing is lost:
# the tick finds every pending record in the database and queues it again.
Enqueue = Callable[[Task, int], None]


def _no_queue(task: Task, record_id: int) -> None:
    log.debug("no queue configured; %s(%s) waits for the tick", task, record_id)


@dataclass
class Runtime:
    config: Config
    db: Database
    enqueue: Enqueue = field(default=_no_queue)

    def later(self, session: Session, task: Task, record_id: int) -> None:
        """Queue ``task(record_id)`` once ``session`` has committed (never for rolled-back work)."""
        pending: list[tuple[Task, int]] = session.info.setdefault("after_commit", [])
        pending.append((task, record_id))
        session.info["runtime"] = self


@event.listens_for(Session, "after_commit")
def _run_after_commit(session: Session) -> None:
    pending: list[tuple[Task, int]] = session.info.pop("after_commit", [])
    runtime: Runtime | None = session.info.get("runtime")
    if runtime is None:
        return
    for task, record_id in pending:
        try:
            runtime.enqueue(task, record_id)
        except Exception:  # the broker being down must not undo a committed change
            log.exception("could not queue %s(%s); the tick will retry", task, record_id)


@event.listens_for(Session, "after_rollback")
def _drop_after_rollback(session: Session) -> None:
    session.info.pop("after_commit", None)
