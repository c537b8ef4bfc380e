"""The scale harness (bench/bench_scale.py) end to end with tiny numbers: every process of the
scale configuration started, a burst over HTTP and SMTP and a deadline storm, all checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow


def test_the_scale_harness_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "figures"
    command = [sys.executable, str(ROOT / "bench" / "bench_scale.py")]
    command += ["--mails", "40", "--games", "20", "--inbound-games", "10", "--tick-seconds", "1"]
    command += ["--web-workers", "2", "--celery-workers", "2", "--concurrency", "1"]
    command += ["--clients", "2", "--timeout", "90", "--mid-games", "6", "--out", str(out)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    result = json.loads((out / "results.json").read_text())
    assert result["problems"] == []
    burst, storm = result["burst"], result["storm"]
    assert burst["stored"] == burst["answered_once"] == 40
    assert burst["by_channel"] == {"http": 20, "smtp": 20}
    assert storm["games"] == 20 and storm["reports"] == 40
    # The deadline halfway through the burst: its six games played, their reports all out.
    mid = result["mid"]
    assert mid["games"] == 6 and mid["reports"] == 12 and mid["problems"] == []
    assert 0 <= mid["deadline_to_last_report_s"] < 90
    assert "mid-burst deadline -> last report" in run.stdout
    assert "task runs that found nothing to do" in run.stdout
    # Each phase charges its items the service's CPU, set against its tasks' own (workers/costs).
    for phase, per in (("burst", "per_mail"), ("storm", "per_game")):
        assert result[phase][per]["task_ms"] > 0 and result[phase][per]["service_ms"] > 0
        assert result[phase][per]["ratio"] is not None
    assert "its tasks' own CPU" in run.stdout
    for name in ("summary.txt", "latency.png", "storm.png", "logs/web.log", "logs/worker2.log"):
        assert (out / name).is_file(), name
    assert "checks: all passed" in run.stdout
