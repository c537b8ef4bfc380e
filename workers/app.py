"""The Celery app. `celery -A workers.app worker` and `celery -A workers.app beat` use it as is."""

from __future__ import annotations

import logging
from typing import Any

import kombu.pools
from celery import Celery, signals
from kombu.entity import Queue

from adjudicator import config as configuration
from adjudicator import logs, preload
from adjudicator.db import Database
from adjudicator.services.record.runtime import QUEUE_OF, QUEUES, Runtime, Task
from workers import costs

celery = Celery("pbem", include=["workers.tasks"])
_runtime: Runtime | None = None


def settings(config: configuration.Config) -> dict[str, Any]:
    # beat keeps its last-run times in a file; it lives with the service's other files.
    config.data_dir.mkdir(parents=True, exist_ok=True)
    return {
        "broker_url": config.broker_url,
        "task_ignore_result": True,
        # A task is acknowledged only after it ran, so a worker dying mid-task hands it on;
        # every task is idempotent, so running one twice is harmless.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_serializer": "json",
        "accept_content": ["json"],
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        # Adjudication and sending mail have a queue each, which every worker consumes along
        # with the default one (inbound mail), taking from each in turn: a deadline's turns are
        # played, and a reply goes out as soon as it is written, instead of after every mail of
        # a burst queued before them. The tick has one too, so that a burst of inbound mail does
        # not hold back deadlines and reminders.
        "task_queues": tuple(Queue(name) for name in QUEUES),  # type: ignore[no-untyped-call]
        "task_routes": {
            **{f"pbem.{task}": {"queue": queue} for task, queue in QUEUE_OF.items()},
            "pbem.force": {"queue": QUEUE_OF[Task.ADJUDICATE]},
            "pbem.tick": {"queue": "tick"},
        },
        # The in-process queue is polled (Redis pushes); kombu's default second per poll would
        # put a second into every reply.
        "broker_transport_options": {"polling_interval": 0.01} if config.embedded_broker else {},
        "beat_schedule_filename": str(config.data_dir / "celerybeat-schedule"),
        "beat_schedule": {
            "tick": {"task": "pbem.tick", "schedule": float(config.tick_seconds)},
        },
    }


def configure(runtime: Runtime) -> Celery:
    """Point the app at a runtime (tests and `pbem serve` call this; workers do it lazily)."""
    global _runtime
    _runtime = runtime
    previous = celery.conf.broker_url
    celery.conf.update(settings(runtime.config))
    if previous != runtime.config.broker_url:
        _forget_connections()
    runtime.enqueue, runtime.enqueue_many, runtime.measure = enqueue, enqueue_many, depth
    return celery


def _forget_connections() -> None:
    """Drop pooled connections and producers, which still point at the previous broker."""
    # Celery has no public way to reset its pools; kombu keeps a process-wide registry of them.
    kombu.pools.reset()  # type: ignore[no-untyped-call]
    celery._pool = None
    celery.amqp._producer_pool = None


def runtime() -> Runtime:
    if _runtime is None:
        config = configuration.load()
        configure(Runtime(config, Database(config.database_url)))
    assert _runtime is not None
    return _runtime


def enqueue(task: Task, record_id: int) -> None:
    celery.send_task(f"pbem.{task}", args=[record_id])


def enqueue_many(task: Task, record_ids: list[int]) -> None:
    celery.send_task(f"pbem.{task}", args=[record_ids])


def depth(queue: str) -> int | None:
    """How many tasks wait in ``queue``, asked of the broker through kombu (for the in-process
    broker; Runtime.depth asks Redis itself)."""
    try:
        with celery.connection_for_write() as connection:
            declared = connection.default_channel.queue_declare(queue=queue)
            return int(declared.message_count)
    except Exception as error:  # an unknown depth only makes the tick wait longer
        logging.getLogger(__name__).warning("could not ask how deep %s is: %s", queue, error)
        return None


def _defaults() -> dict[str, Any]:
    # Celery asks for its defaults when its configuration is first used, which configure() does
    # itself: then they come from the runtime being configured. Reading the environment again
    # could name another data directory (by default var/ in the current one) and write there.
    return settings(_runtime.config if _runtime is not None else configuration.load())


# Workers started by the `celery` command read the configuration when the app is first used.
celery.add_defaults(_defaults)


def _log_format(logger: logging.Logger, **_: Any) -> None:
    # `celery worker` and `celery beat` set up their own log handlers; log_format still decides
    # whether their lines, and the services' lines through them, are JSON.
    config = _runtime.config if _runtime is not None else configuration.load()
    logs.adopt(logger, config.log_format)
    if logger.getEffectiveLevel() > logging.DEBUG:
        # Celery's "Task ... received" line, one per task in the worker's main process, says
        # nothing its success line does not; below DEBUG it is a cost per task, not news.
        logging.getLogger("celery.worker.strategy").setLevel(logging.WARNING)


def _preload(**_: Any) -> None:
    # In the worker's main process, before it forks its pool: each pool process starts with the
    # rules, catalogs and templates loaded instead of loading them on its first task.
    preload.preload()


signals.worker_init.connect(_preload, weak=False)
signals.after_setup_logger.connect(_log_format, weak=False)
signals.after_setup_task_logger.connect(_log_format, weak=False)
costs.watch()
