"""A fixed workload to read every benchmark's figures against: the machine's speed, measured in
the same run.

A benchmark's milliseconds say as much about the machine and its load as about the code: the
same map takes twice as long while the tests run beside it. So each per-item benchmark also
times this workload, of a fixed size that never changes with the project (some pure Python:
a dictionary filled and sorted, strings built; and zlib compressing fixed bytes), before and
after its item, and prints the item's cost as a multiple of it. Those ratios compare across runs
and machines where the milliseconds do not, and they never move because another item got
cheaper (a figure divided by the map's cost improves when the map gets slower).

    from calibration import Yardstick
    yard = Yardstick()            # the workload timed now (of the order of one map)
    ...the item, in seconds...
    yard.again()                  # and after the items
    print(yard.against("one map", seconds))   # "one map   7.90 ms =   0.81 calibration"
"""

from __future__ import annotations

import statistics
import time
import zlib
from collections.abc import Callable

# The bytes zlib compresses: fixed, partly repetitive like a picture's rows or a mail.
_BYTES = b" ".join(
    b"%d:%s" % (i * 7919 % 10007, b"madrid-sol-alcala"[i % 9 :]) for i in range(30_000)
)
ROUNDS = 20_000  # the pure-Python part's steps


def workload() -> int:
    """The fixed workload once; returns a number so none of it is optimised away."""
    counts: dict[str, int] = {}
    for index in range(ROUNDS):
        key = f"area-{index % 211}"
        counts[key] = counts.get(key, 0) + index
    ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]))
    words = "".join(name[-1] for name, _ in ordered)
    return len(words) + len(zlib.compress(_BYTES, 6))


def measure(repeat: int = 15, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Seconds of ``repeat`` runs of the workload by ``clock``, after one run to warm up."""
    workload()
    samples = []
    for _ in range(repeat):
        start = clock()
        workload()
        samples.append(clock() - start)
    return samples


class Yardstick:
    """The workload timed when made and again whenever ``again`` is called (a benchmark calls it
    after its items, so a load that came or went during the run counts on both sides); its
    ``seconds`` are the median of every run. ``clock`` is the benchmark's own (wall time, or
    ``time.process_time`` for a benchmark of CPU time)."""

    def __init__(self, repeat: int = 15, clock: Callable[[], float] = time.perf_counter) -> None:
        self.repeat = repeat
        self.clock = clock
        self.samples = measure(repeat, clock)

    def again(self) -> None:
        self.samples += measure(self.repeat, self.clock)

    @property
    def seconds(self) -> float:
        return statistics.median(self.samples)

    def ratio(self, seconds: float) -> float:
        """``seconds`` of an item as a multiple of the workload's."""
        return seconds / self.seconds

    def against(self, name: str, seconds: float, width: int = 42) -> str:
        """A line for an item: its milliseconds and its ratio to the workload (three figures:
        an item of microseconds is a small fraction of it)."""
        ratio = f"{self.ratio(seconds):.3g}"
        return f"  {name:<{width}} {seconds * 1000:9.3f} ms = {ratio:>6} calibration"

    def describe(self) -> str:
        """The workload's own line, printed with the ratios it divides."""
        return (
            f"calibration workload (bench/calibration.py: pure Python and zlib, fixed size): "
            f"{self.seconds * 1000:.2f} ms, median of {len(self.samples)} runs"
        )
