"""The embedded default: a real Celery worker and a scheduler as threads of one process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery.worker import WorkController
from celery.worker import state as worker_state

from workers.app import celery

log = logging.getLogger(__name__)


@contextmanager
def worker_thread(concurrency: int = 2) -> Iterator[WorkController]:
    """A Celery worker consuming the configured broker from a thread of this process.

    With the in-process ``memory://`` broker this is the only consumer that can see the queue;
    with Redis it is an ordinary worker. Either way tasks really go through the broker.
    """
    celery.loader.import_default_modules()
    celery.finalize()
    ready = threading.Event()
    worker = WorkController(
        app=celery,
        hostname="embedded@pbem",
        pool="threads",
        concurrency=concurrency,
        loglevel="WARNING",
        ready_callback=lambda _consumer: ready.set(),
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    thread.start()
    if not ready.wait(30):
        raise RuntimeError("the embedded Celery worker did not start within 30 s")
    try:
        yield worker
    finally:
        # The worker's own loop checks this flag and shuts down warmly (as Celery's test worker).
        worker_state.should_terminate = 0
        thread.join(15)
        worker_state.should_terminate = None


@contextmanager
def scheduler_thread(interval: float) -> Iterator[threading.Thread]:
    """Send the tick task every ``interval`` seconds, as `celery beat` does at scale."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                celery.send_task("pbem.tick")
            except Exception:
                log.exception("could not queue the tick")
            stop.wait(interval)

    thread = threading.Thread(target=loop, name="scheduler", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        thread.join(5)
