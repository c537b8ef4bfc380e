"""Where a scale run's two cores go: CPU seconds per group of processes over a phase.

Read from /proc: for each live process, utime + stime and the times of its children it has
already reaped (cutime + cstime), so a prefork pool child that exited still counts, through its
parent, and no second is counted twice. Groups: each process the bench started, with its
descendants (web = gunicorn and its workers, worker-N = a celery worker and its pool, redis,
beat, smtp); the PostgreSQL backends serving the run's own database (``Backends``: the machine
is shared, and other people's databases on the same server are not the service's cost); the
bench itself (its sender threads and processes); and the whole machine from /proc/stat, busy and
idle, in core-seconds, for the record only. The service's own CPU (``SERVICE``) is what each item
is charged (``per_item``), set against the CPU its tasks measured themselves (workers/costs.py).
"""

from __future__ import annotations

import ast
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import psycopg

TICK = os.sysconf("SC_CLK_TCK")
# The groups that are the service (bench/bench_scale.py starts them; postgres: its backends).
SERVICE = ("worker", "web", "smtp", "beat", "redis", "postgres")


def _times(pid: int) -> float:
    """CPU seconds of one process and of its reaped children; 0 if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    utime, stime, cutime, cstime = (int(fields[i]) for i in (11, 12, 13, 14))
    return (utime + stime + cutime + cstime) / TICK


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _tree(pid: int) -> set[int]:
    seen, todo = set(), [pid]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo += _children(current)
    return seen


class Backends:
    """The CPU seconds of the PostgreSQL backends serving one database, since ``start``.

    A thread asks pg_stat_activity every ``every`` seconds which backends serve the database
    (less the harness's own connections, ``exclude``, and its own) and reads their CPU from
    /proc: a backend there at the start counts from what it had spent then, one that appears
    later from nothing, and one that ends counts up to its last sample (pooled connections last
    the run, so what is lost is at most a second of a rare one)."""

    def __init__(self, dsn: str, exclude: set[int], every: float = 1.0) -> None:
        self.dsn, self.exclude, self.every = dsn, set(exclude), every
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.connection = psycopg.connect(dsn, autocommit=True)
        self.database = self.connection.info.dbname
        self.sample(first=True)
        self.thread = threading.Thread(target=self.run, daemon=True, name="pg-backends")
        self.thread.start()

    def pids(self) -> list[int]:
        rows = self.connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (self.database,),
        ).fetchall()
        return [int(row[0]) for row in rows if int(row[0]) not in self.exclude]

    def sample(self, first: bool = False) -> None:
        for pid in self.pids():
            seconds = _times(pid)
            if seconds <= 0:
                continue
            with self.lock:
                self.first.setdefault(pid, seconds if first else 0.0)
                self.last[pid] = seconds

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                self.sample()
            except psycopg.Error:
                return

    def total(self) -> float:
        self.sample()
        with self.lock:
            return sum(self.last[pid] - self.first[pid] for pid in self.last)

    def count(self) -> int:
        with self.lock:
            return len(self.last)

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.connection.close()


def _machine() -> dict[str, float]:
    """Core-seconds busy and idle since boot, over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return {"busy": (sum(values[:8]) - idle) / TICK, "idle": idle / TICK}


def snapshot(started: Mapping[str, int], backends: Backends | None = None) -> dict[str, float]:
    """CPU seconds so far per group; ``started``: name -> pid of each process the bench ran;
    ``backends``: the database's backends, when followed."""
    groups: dict[str, set[int]] = {}
    for name, pid in started.items():
        group = name.rstrip("0123456789-") or name  # worker-1, worker-2 -> worker
        groups.setdefault(group, set()).update(_tree(pid))
    ours = set().union(*groups.values()) if groups else set()
    groups["bench"] = _tree(os.getpid()) - ours
    seconds = {group: sum(_times(pid) for pid in pids) for group, pids in groups.items()}
    # Of the workers' seconds, their main processes' (the broker, the pool, the acks), apart from
    # their pool processes', which run the tasks: shown, not added again to the service's.
    seconds["worker main"] = sum(
        _times(pid) for name, pid in started.items() if name.startswith("worker")
    )
    if backends is not None:
        seconds["postgres"] = backends.total()
    machine = _machine()
    seconds["machine busy"], seconds["machine idle"] = machine["busy"], machine["idle"]
    return seconds


def spent(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, float]:
    """CPU seconds per group between two snapshots (a group that appeared counts from 0)."""
    return {group: round(after[group] - before.get(group, 0.0), 1) for group in after}


def per_item(cpu: Mapping[str, float], tasks: Mapping[str, Any], items: int) -> dict[str, Any]:
    """Milliseconds per item: the service's processes' CPU (``SERVICE``), the CPU its tasks
    measured themselves (every task but the tick, which is the service's upkeep, not an item's
    work), their ratio, and the share of task runs that did nothing (``noop_runs``)."""
    service = sum(cpu.get(group, 0.0) for group in SERVICE)
    task = sum(entry.get("cpu", 0.0) for name, entry in tasks.items() if name != "tick")
    runs = sum(entry["runs"] for name, entry in tasks.items() if name != "tick")
    noops = sum(noop_runs(name, entry) for name, entry in tasks.items() if name != "tick")
    per = 1000 / max(1, items)
    return {
        "service_ms": service * per,
        "task_ms": task * per,
        "ratio": service / task if task > 0 else None,
        "task_runs": runs,
        "noop_runs": noops,
        "noop_share": 100 * noops / runs if runs else None,
        "groups_ms": {g: cpu.get(g, 0.0) * per for g in SERVICE},
    }


# What a task that found nothing to do says (workers/tasks.py): a copy of a task whose work was
# done, or one that came before its time.
NOOP = {
    "adjudicate": ("held", "not-due", "not active, or another worker holds it", "not due"),
    "force": ("held", "not-due", "not active, or another worker holds it", "not due"),
    "send_outbox": ("not pending", "not due"),
}


def noop_runs(task: str, entry: Mapping[str, Any]) -> int:
    """Runs of ``task`` that did nothing: their result is a no-op's (``NOOP``); for
    send_outboxes, a list of nothing but "not pending" and "not due"."""
    results: Mapping[str, int] = entry.get("results", {})
    if task == "send_outboxes":
        return sum(n for said, n in results.items() if _all_noops(said))
    return sum(n for said, n in results.items() if said in NOOP.get(task, ()))


def _all_noops(said: str) -> bool:
    """Whether send_outboxes said (a list's repr) that no mail of it was to be sent."""
    try:
        statuses = ast.literal_eval(said)
    except (ValueError, SyntaxError):  # cut short by Celery's repr limit: some were sent
        return False
    return isinstance(statuses, list) and all(s in NOOP["send_outbox"] for s in statuses)


def lines(cpu: Mapping[str, float], tasks: Mapping[str, Any], items: int, noun: str) -> list[str]:
    """The summary's lines: seconds per group, and milliseconds per item, the service's against
    its tasks' own."""
    shown = sorted(
        ((g, s) for g, s in cpu.items() if not g.startswith("machine")), key=lambda p: -p[1]
    )
    per = ", ".join(f"{g} {s:.0f} s ({1000 * s / max(1, items):.1f} ms/{noun})" for g, s in shown)
    busy, idle = cpu.get("machine busy", 0.0), cpu.get("machine idle", 0.0)
    found = per_item(cpu, tasks, items)
    ratio = "-" if found["ratio"] is None else f"{found['ratio']:.2f}"
    share = "-" if found["noop_share"] is None else f"{found['noop_share']:.1f} %"
    return [
        f"  CPU by process: {per}",
        f"  per {noun}: the service's processes {found['service_ms']:.1f} ms"
        f" ({' + '.join(SERVICE)}), its tasks' own CPU {found['task_ms']:.1f} ms,"
        f" ratio {ratio}; task runs that did nothing {found['noop_runs']} of"
        f" {found['task_runs']} ({share})",
        f"  whole machine (shared, for the record): {busy:.0f} core-s busy, {idle:.0f} idle"
        f" ({100 * busy / max(1e-9, busy + idle):.0f} % busy)",
    ]
