"""bench_scale.py --against DIR: the same run against another checkout's tree, then this one's,
in turn (never at once: they would share the machine), and the figures side by side.

The other tree runs under this harness (so both get the same load and the same checks): its
service processes, its migrations and its game setup import the other tree's code (PYTHONPATH),
and only the harness is this tree's. Make the other tree with, e.g.

    git archive b17dba8 | tar -x -C /tmp/pbem-before

Writes comparison.txt and comparison.json under --out, beside before/ and after/ (each a run's
own results.json, summary.txt, figures and logs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import scale_mid

# (label, path into results.json, unit); the targets' figures come first, from scale_mid.
FIGURES: list[tuple[str, tuple[str, ...], str]] = [
    ("burst: accepted", ("burst", "accepted_per_second"), "mails/s"),
    ("burst: send -> reply p50", ("burst", "send_to_reply_written_ms", "p50"), "ms"),
    ("burst: send -> reply p99", ("burst", "send_to_reply_written_ms", "p99"), "ms"),
    ("burst: last reply", ("burst", "seconds_to_last_reply"), "s"),
    ("mid: deadline -> last turn", ("mid", "deadline_to_last_turn_s"), "s"),
    ("storm: deadline -> last turn", ("storm", "deadline_to_last_turn_s"), "s"),
    ("storm: games/s", ("storm", "games_per_second"), "games/s"),
    ("burst: tasks' own CPU per mail", ("burst", "per_mail", "task_ms"), "ms"),
    *(
        (f"burst: {group} CPU per mail", ("burst", "per_mail", "groups_ms", group), "ms")
        for group in ("worker", "postgres", "web", "smtp", "redis", "beat")
    ),
    ("storm: tasks' own CPU per game", ("storm", "per_game", "task_ms"), "ms"),
    *(
        (f"storm: {group} CPU per game", ("storm", "per_game", "groups_ms", group), "ms")
        for group in ("worker", "postgres", "redis", "beat")
    ),
]
TASKS = ("process_inbound", "adjudicate", "send_outbox", "send_outboxes", "tick")


def run_both(script: Path, argv: list[str], other: Path, out: Path) -> int:
    """Run the bench against ``other``, then against this tree; compare. Exit status: 1 when
    either run's checks failed."""
    passed = [a for a in _without(argv, "--against", "--out")]
    statuses = {}
    for label, tree in (("before", other.resolve()), ("after", script.parent.parent)):
        command = [sys.executable, str(script), *passed, "--tree", str(tree)]
        command += ["--out", str(out / label)]
        env = {**os.environ, "PYTHONPATH": str(tree)}
        print(f"== {label}: {tree}", file=sys.stderr, flush=True)
        statuses[label] = subprocess.run(command, env=env, check=False).returncode
    results = {
        label: json.loads((out / label / "results.json").read_text())
        for label in statuses
        if (out / label / "results.json").is_file()
    }
    text, table = compare(results.get("before", {}), results.get("after", {}), other)
    (out / "comparison.txt").write_text(text + "\n")
    (out / "comparison.json").write_text(json.dumps(table, indent=1) + "\n")
    print(text)
    print(f"comparison in {out / 'comparison.txt'}")
    return 0 if all(status == 0 for status in statuses.values()) else 1


def _without(argv: list[str], *names: str) -> list[str]:
    """``argv`` less the options ``names`` and their values (as --name value or --name=value)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in names:
            skip = True
            continue
        if any(arg.startswith(name + "=") for name in names):
            continue
        kept.append(arg)
    return kept


def _at(result: dict[str, Any], path: tuple[str, ...]) -> float | None:
    value: Any = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return float(value) if isinstance(value, int | float) else None


def _runs(result: dict[str, Any], task: str) -> float | None:
    runs = [
        (result.get(phase) or {}).get("tasks_run", {}).get(task, {}).get("runs", 0)
        for phase in ("burst", "storm")
    ]
    return float(sum(runs)) if result else None


def compare(
    before: dict[str, Any], after: dict[str, Any], other: Path
) -> tuple[str, list[dict[str, Any]]]:
    rows: list[tuple[str, str, float | None, float | None]] = []
    first, second = scale_mid.figures(before), scale_mid.figures(after)
    for name, (what, unit, _, _) in scale_mid.TARGETS.items():
        rows.append((what, unit, first[name], second[name]))
    rows += [(label, unit, _at(before, path), _at(after, path)) for label, path, unit in FIGURES]
    rows += [
        (f"task runs: {task}", "runs", _runs(before, task), _runs(after, task)) for task in TASKS
    ]
    width = max(len(f"{label} ({unit})") for label, unit, _, _ in rows)
    lines = [
        f"before: {other} ({before.get('started', 'no run')});"
        f" after: this tree ({after.get('started', 'no run')})",
        f"{'':{width}}  {'before':>10}  {'after':>10}  {'after/before':>12}",
    ]
    table = []
    for label, unit, old, new in rows:
        ratio = new / old if old and new is not None else None
        lines.append(
            f"{label + f' ({unit})':{width}}  {_shown(old):>10}  {_shown(new):>10}"
            f"  {_shown(ratio, 2):>12}"
        )
        table.append({"figure": label, "unit": unit, "before": old, "after": new, "ratio": ratio})
    for label, result in (("before", before), ("after", after)):
        problems = result.get("problems", ["no results"])
        lines.append(f"{label} checks: " + ("all passed" if not problems else "; ".join(problems)))
    return "\n".join(lines), table


def _shown(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
