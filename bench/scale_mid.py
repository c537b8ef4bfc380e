"""The scale bench's deadline in the middle of the inbound burst, and its targets.

bench_scale.py runs a burst of inbound mail; halfway through it (once half the mails are sent),
the deadline of --mid-games games of 2 de Mayo passes. Measured: deadline -> the last of their
reports written, while the burst is still being answered: a deadline must not wait for the burst.
Also here: the share of task runs that found nothing to do, and the targets every run prints
its figures against.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

# name -> (what, unit, the target, whether the figure must be at most (True) or at least it).
# The CPU figures are the service's processes' per item, and that against its tasks' own CPU
# (scale_cpu.per_item): what is spent around the work, on two cores.
TARGETS: dict[str, tuple[str, str, float, bool]] = {
    "mid_last_report_s": ("mid-burst deadline -> last report", "s", 90.0, True),
    "noop_share": ("task runs that found nothing to do", "%", 1.0, True),
    "burst_answered_per_s": ("burst answered", "mails/s", 80.0, False),
    "burst_service_ms": ("service CPU per answered mail", "ms", 25.0, True),
    "burst_ratio": ("per mail: service CPU / its tasks' own", "x", 1.4, True),
    "storm_last_report_s": ("storm deadline -> last report", "s", 115.0, True),
    "storm_service_ms": ("service CPU per storm game", "ms", 45.0, True),
    "storm_ratio": ("per game: service CPU / its tasks' own", "x", 1.4, True),
}


class MidDeadline:
    """The games whose deadline passes halfway through the burst: when to set it, whether their
    turns and reports are all out, and what it took."""

    def __init__(self, monitor: Any, game_ids: list[int], mails: int) -> None:
        self.monitor, self.game_ids, self.mails = monitor, game_ids, mails
        self.deadline: Any = None  # the database's now() when it was set
        self.set_at = 0.0

    def poll(self, sent: int) -> None:
        """Set the deadline once half the burst's mails are sent."""
        if self.deadline is not None or not self.game_ids or sent < self.mails // 2:
            return
        self.deadline = self.monitor.value(
            "UPDATE games SET deadline = now() WHERE id = ANY(%s) RETURNING deadline",
            self.game_ids,
        )
        self.set_at = time.time()

    def turns(self) -> int:
        if not self.game_ids:
            return 0
        return int(
            self.monitor.value(
                "SELECT count(*) FROM turns WHERE number = 1 AND game_id = ANY(%s)", self.game_ids
            )
        )

    def settled(self) -> bool:
        """Nothing to wait for, or every game's turn played (its reports: the burst's wait)."""
        return not self.game_ids or (
            self.deadline is not None and self.turns() >= len(self.game_ids)
        )

    def report_ids(self) -> set[int]:
        """Outbox rows of these games: the burst's checks leave them out."""
        if not self.game_ids:
            return set()
        rows = self.monitor.rows("SELECT id FROM outbox WHERE game_id = ANY(%s)", self.game_ids)
        return {row[0] for row in rows}

    def result(self, files: dict[int, Any]) -> dict[str, Any]:
        """What the deadline took, and what is wrong with what it did (one turn, one report a
        seat, each report in the Maildir)."""
        count = len(self.game_ids)
        problems: list[str] = []
        if self.deadline is None:
            return {"games": count, "problems": ["the mid-burst deadline was never set"]}
        numbers = Counter(
            game_id
            for game_id, number in self.monitor.rows(
                "SELECT game_id, number FROM turns WHERE game_id = ANY(%s)", self.game_ids
            )
            if number >= 0
        )
        wrong = [g for g in self.game_ids if numbers[g] != 2]
        if wrong:
            problems.append(f"mid: {len(wrong)} games without exactly turns 0 and 1: {wrong[:5]}")
        reports = self.monitor.rows(
            "SELECT id, game_id, to_address FROM outbox"
            " WHERE kind = 'report' AND game_id = ANY(%s)",
            self.game_ids,
        )
        per_seat = Counter((game_id, to) for _, game_id, to in reports)
        if len(reports) != 2 * count or any(n != 1 for n in per_seat.values()):
            problems.append(f"mid: {len(reports)} reports for {count} games (want one a seat)")
        absent = [row[0] for row in reports if row[0] not in files]
        if absent:
            problems.append(f"mid: {len(absent)} reports without a Maildir file")
        written = sorted(files[row[0]].stat().st_mtime for row in reports if row[0] in files)
        last_turn = self.monitor.value(
            "SELECT max(created_at) FROM turns WHERE number = 1 AND game_id = ANY(%s)",
            self.game_ids,
        )
        base = self.deadline.timestamp()
        return {
            "games": count,
            "reports": len(written),
            "deadline_to_last_turn_s": last_turn.timestamp() - base if last_turn else None,
            "deadline_to_last_report_s": written[-1] - base if written else None,
            "problems": problems,
        }


def noop_share(result: dict[str, Any]) -> tuple[int, int]:
    """Task runs (the tick's aside) in the burst and the storm, and how many of them did nothing
    (scale_cpu.noop_runs)."""
    runs = noops = 0
    for phase, per in (("burst", "per_mail"), ("storm", "per_game")):
        found = (result.get(phase) or {}).get(per)
        if found:
            runs += found["task_runs"]
            noops += found["noop_runs"]
    return runs, noops


def figures(result: dict[str, Any]) -> dict[str, float | None]:
    """The figures the targets are about, None where the run did not measure one."""
    runs, noops = noop_share(result)
    mid, burst, storm = (result.get(name) or {} for name in ("mid", "burst", "storm"))
    per_mail, per_game = burst.get("per_mail") or {}, storm.get("per_game") or {}
    return {
        "mid_last_report_s": mid.get("deadline_to_last_report_s"),
        "noop_share": 100.0 * noops / runs if runs else None,
        "burst_answered_per_s": burst.get("answered_per_second"),
        "burst_service_ms": per_mail.get("service_ms"),
        "burst_ratio": per_mail.get("ratio"),
        "storm_last_report_s": storm.get("deadline_to_last_report_s"),
        "storm_service_ms": per_game.get("service_ms"),
        "storm_ratio": per_game.get("ratio"),
    }


def met(name: str, value: float | None) -> str:
    if value is None:
        return "not measured"
    _, _, target, at_most = TARGETS[name]
    return "met" if (value <= target if at_most else value >= target) else "MISSED"


def target_lines(result: dict[str, Any]) -> list[str]:
    lines = ["targets:"]
    runs, noops = noop_share(result)
    for name, value in figures(result).items():
        what, unit, target, at_most = TARGETS[name]
        shown = "-" if value is None else f"{value:.{2 if unit == 'x' else 1}f} {unit}"
        bound = f"{'<=' if at_most else '>='} {target:g} {unit}"
        extra = f" ({noops} of {runs} runs)" if name == "noop_share" else ""
        lines.append(f"  {what}: {shown}{extra} (target {bound}: {met(name, value)})")
    return lines
