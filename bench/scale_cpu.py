"""Where a scale run's two cores go: CPU seconds per group of processes over a phase.

Read from /proc: for each live process, utime + stime and the times of its children it has
already reaped (cutime + cstime), so a prefork pool child that exited still counts, through its
parent, and no second is counted twice. Groups: each process the bench started, with its
descendants (web = gunicorn and its workers, worker-N = a celery worker and its pool); the
machine's PostgreSQL server (every process named postgres: run nothing else against it while
measuring); the bench itself (its sender threads and processes); and the whole machine from
/proc/stat, busy and idle, in core-seconds.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


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


def _named(name: str) -> set[int]:
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    pids.add(int(entry.name))
            except OSError:
                continue
    return pids


def _machine() -> dict[str, float]:
    """Core-seconds busy and idle since boot, over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return {"busy": (sum(values[:8]) - idle) / TICK, "idle": idle / TICK}


def snapshot(started: Mapping[str, int]) -> dict[str, float]:
    """CPU seconds so far per group; ``started``: name -> pid of each process the bench ran."""
    groups: dict[str, set[int]] = {}
    for name, pid in started.items():
        group = name.rstrip("0123456789-") or name  # worker-1, worker-2 -> worker
        groups.setdefault(group, set()).update(_tree(pid))
    ours = set().union(*groups.values()) if groups else set()
    groups["postgres"] = _named("postgres")
    groups["bench"] = _tree(os.getpid()) - ours
    seconds = {group: sum(_times(pid) for pid in pids) for group, pids in groups.items()}
    machine = _machine()
    seconds["machine busy"], seconds["machine idle"] = machine["busy"], machine["idle"]
    return seconds


def spent(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, float]:
    """CPU seconds per group between two snapshots (a group that appeared counts from 0)."""
    return {group: round(after[group] - before.get(group, 0.0), 1) for group in after}


def lines(cpu: Mapping[str, float], items: int, noun: str) -> list[str]:
    """The summary's lines: seconds per group, and milliseconds per item."""
    shown = sorted(
        ((g, s) for g, s in cpu.items() if not g.startswith("machine")), key=lambda p: -p[1]
    )
    per = ", ".join(f"{g} {s:.0f} s ({1000 * s / max(1, items):.1f} ms/{noun})" for g, s in shown)
    busy, idle = cpu.get("machine busy", 0.0), cpu.get("machine idle", 0.0)
    return [
        f"  CPU by process: {per}",
        f"  machine: {busy:.0f} core-s busy, {idle:.0f} idle"
        f" ({100 * busy / max(1e-9, busy + idle):.0f} % busy)",
    ]
