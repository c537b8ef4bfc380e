"""Start-up cost of the `pbem` command, as a user feels it: whole processes, wall time.

Two commands that need no database are timed, each run as a fresh process: `pbem mail parse`
on a delivery-status report from the test fixtures, and `pbem adjudicate 2demayo` on the first
golden movement case. The code is run from two trees side by side, interleaved run by run so
the machine's noise falls on both alike: this work tree ("now") and the tree at BASELINE, read
from git into a temporary folder ("before"; `--baseline ''` times only the work tree). The bare
interpreter (`python -c pass`) is timed the same way for reference. Every run's output is checked
(JSON of the right kind, exit status) before its time counts.

Figures are milliseconds of wall time, median and min of ``--runs`` runs, and the median CPU time
the process itself used (user + system: less swayed by other work on a shared machine); "x python"
is the median over the bare interpreter's median, "now/before" the ratio of the two trees' median
wall times (below 1.00: faster), "calib." the median as a multiple of the fixed calibration
workload timed in the same run (``bench/calibration.py``), which compares across runs and
machines.

    .venv/bin/python bench/bench_cli.py [--runs 9] [--baseline 986c6c9]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from calibration import Yardstick

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "986c6c9"  # the last commit before the command imported its services lazily
MAIL = ROOT / "tests/mail/fixtures/bounce_dsn.eml"
GOLDEN = ROOT / "tests/games/cases/dos_de_mayo/movement.json"
# What the console script `pbem` does (see .venv/bin/pbem), with the tree chosen by PYTHONPATH.
TREE = ("adjudicator", "workers", "config", "templates")  # what the commands read
LAUNCH = "import sys; from adjudicator.cli import main; sys.exit(main())"


def parsed_bounce(out: str) -> bool:
    return bool(json.loads(out)["kind"] == "bounce")


def adjudicated(out: str) -> bool:
    found = json.loads(out)
    return found["ok"] is True and found["position"]["areas"]["14"]["france"] == 2


def commands(case: Path) -> dict[str, tuple[list[str], Callable[[str], bool]]]:
    return {
        "pbem mail parse": (["mail", "parse", str(MAIL)], parsed_bounce),
        "pbem adjudicate 2demayo": (["adjudicate", "2demayo", str(case)], adjudicated),
    }


def baseline_tree(commit: str, into: Path) -> Path:
    """The package as it was at ``commit`` (the folders in TREE), without a checkout."""
    archive = subprocess.run(["git", "archive", commit, *TREE], cwd=ROOT, capture_output=True)
    if archive.returncode != 0:
        sys.exit(f"cannot read {commit} from git: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(
    argv: list[str], env: dict[str, str], cwd: Path, check: Callable[[str], bool]
) -> tuple[float, float]:
    """Wall time and the process's own CPU time (user + system), in seconds."""
    start, start_cpu = time.perf_counter(), cpu()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    took, took_cpu = time.perf_counter() - start, cpu() - start_cpu
    if done.returncode != 0 or not check(done.stdout):
        sys.exit(f"{' '.join(argv)} gave {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return took, took_cpu


Times = dict[tuple[str, str], list[tuple[float, float]]]  # (command, tree): (wall, cpu) per run


def measure(runs: int, trees: dict[str, Path], work: Path) -> Times:
    case = work / "case.json"
    golden = json.loads(GOLDEN.read_text())["cases"][0]
    case.write_text(json.dumps({"position": golden["position"], "orders": golden["orders"]}))
    cwd = work / "cwd"  # an empty folder: no config file, no data directory, nothing written
    cwd.mkdir()
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "PYTHON"))}
    base["PBEM_SECRET_KEY"] = "bench-" + "k" * 58
    times: Times = {}
    for _ in range(runs):
        times.setdefault(("python -c pass", ""), []).append(
            timed([sys.executable, "-c", "pass"], base, cwd, lambda out: out == "")
        )
        for name, (args, check) in commands(case).items():
            for label, tree in trees.items():
                env = {**base, "PYTHONPATH": str(tree)}
                argv = [sys.executable, "-c", LAUNCH, *args]
                times.setdefault((name, label), []).append(timed(argv, env, cwd, check))
    return times


def report(times: Times, yard: Yardstick) -> None:
    wall = {key: [run[0] for run in found] for key, found in times.items()}
    used = {key: statistics.median(run[1] for run in found) for key, found in times.items()}
    medians = {key: statistics.median(found) for key, found in wall.items()}
    python = medians[("python -c pass", "")]
    heads = ("median ms", "min ms", "cpu ms", "x python", "now/before", "calib.")
    print(
        f"{'command':<26} {'tree':<7} {heads[0]:>10} {heads[1]:>7} {heads[2]:>7} "
        f"{heads[3]:>9} {heads[4]:>11} {heads[5]:>7}"
    )
    for key, found in wall.items():
        name, label = key
        before = medians.get((name, "before"))
        ratio = f"{medians[key] / before:.2f}" if label == "now" and before else ""
        print(
            f"{name:<26} {label:<7} {medians[key] * 1000:>10.0f} {min(found) * 1000:>7.0f} "
            f"{used[key] * 1000:>7.0f} {medians[key] / python:>9.1f} {ratio:>11}"
            f" {yard.ratio(medians[key]):>7.1f}"
        )
    print(yard.describe())


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare ('': none)")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_cli_") as folder:
        work = Path(folder)
        trees = {"now": ROOT}
        if options.baseline:
            trees["before"] = baseline_tree(options.baseline, work / "before")
        print(f"{options.runs} runs each; before = {options.baseline or '-'}; {sys.executable}")
        yard = Yardstick()
        times = measure(options.runs, trees, work)
        yard.again()
        report(times, yard)


if __name__ == "__main__":
    main()
