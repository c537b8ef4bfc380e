"""Musket & Pike rules speed on one core: complete random legal play-outs of each scenario.

Each play-out starts from the scenario's opening and answers every owed decision with a random
choice among ``legal_orders`` (set-up orders, first wing, activate or pass, pre-emption, order
change, the activation's unit actions, continuation) through the game contract until the battle
ends. Prints play-outs per second and decisions resolved per second for each scenario, and where
the time goes between finding the legal answers (move search) and resolving them.

    .venv/bin/python bench/bench_musket_and_pike.py [--seconds 10]

Each figure also as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from calibration import Yardstick

from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.game import MusketAndPike

GAME = MusketAndPike()


def play_out(scenario: str, number: int) -> tuple[int, float, float]:
    """One random play-out: (decisions, seconds finding legal answers, seconds resolving)."""
    seed = number.to_bytes(8, "big") * 4
    stream = f"bench-{scenario}"
    state = GAME.new_game({"scenario": scenario}, Chance(seed, stream, 0))
    choose = random.Random(number)
    decisions = 0
    finding = resolving = 0.0
    while pending := GAME.pending(state):
        started = time.perf_counter()
        orders = {seat: choose.choice(list(GAME.legal_orders(state, seat))) for seat in pending}
        found = time.perf_counter()
        state = GAME.resolve(state, orders, Chance(seed, stream, decisions + 1)).state
        resolving += time.perf_counter() - found
        finding += found - started
        decisions += 1
    return decisions, finding, resolving


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0, help="per scenario")
    args = parser.parse_args()
    yard = Yardstick()
    for scenario in ("skirmish", "braddock-down"):
        games = decisions = 0
        finding = resolving = 0.0
        lengths = []
        started = time.perf_counter()
        while time.perf_counter() - started < args.seconds or games < 3:
            made, find, resolve = play_out(scenario, games)
            games += 1
            decisions += made
            finding += find
            resolving += resolve
            lengths.append(made)
        elapsed = time.perf_counter() - started
        print(f"{scenario}: {games} play-outs in {elapsed:.1f} s on one core")
        print(f"  {games / elapsed:8.2f} play-outs/s, {decisions / elapsed:8.0f} decisions/s")
        print(f"  decisions per play-out: median {statistics.median(lengths):.0f}")
        share = finding / (finding + resolving)
        print(f"  time finding legal answers {share:.0%}, resolving {1 - share:.0%}")
        yard.again()
        print(yard.against("one decision (find + resolve)", elapsed / decisions))
        print(yard.against("one play-out", elapsed / games))
    print(yard.describe())


if __name__ == "__main__":
    main()
