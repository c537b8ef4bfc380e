"""What a task costs its worker: the CPU seconds of its own process, beside Celery's wall clock.

Celery's line for a task that succeeded says how long it took ("succeeded in 0.052s: 'done'"),
waits on the database and the relay included. Here that line ends with the CPU the worker's
process spent in it ("succeeded in 0.052s: 'done' (cpu 0.0170s)"), its start left as Celery
writes it for whatever reads it: what the work itself costs, apart from what the machine spends
around it (the broker, the pool, the database server), which the scale bench
(bench/bench_scale.py) sets against it. No line of its own: a line per task is itself a cost.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import signals
from celery.app import trace

# Celery's own line (celery.app.trace.LOG_SUCCESS), then the CPU seconds.
SUCCESS = trace.LOG_SUCCESS + " (cpu %(cpu).4fs)"

# When the running task began, in this process's CPU seconds (a pool process runs one at a time).
_began = 0.0


def _task_began(**_: Any) -> None:
    global _began
    _began = time.process_time()


class _WithCpu(logging.Filter):
    """Adds the task's CPU seconds to Celery's success line, logged in the task's own process
    right after the task returned."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == trace.LOG_SUCCESS and isinstance(record.args, dict):
            record.msg = SUCCESS
            record.args = {**record.args, "cpu": time.process_time() - _began}
        return True


def watch() -> None:
    """Start measuring (once per process: workers/app.py calls it as it is imported)."""
    signals.task_prerun.connect(_task_began, weak=False, dispatch_uid="pbem-task-cpu")
    if not any(isinstance(f, _WithCpu) for f in trace.logger.filters):
        trace.logger.addFilter(_WithCpu())
