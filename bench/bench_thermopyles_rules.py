"""Thermopyles rules speed and strategy strength, on one core.

Plays complete games through the game contract: random legal play (a choice among
``legal_orders`` each turn) for a fixed time or count, then the simple competent strategy from
``adjudicator.games.thermopyles.strategy`` over many seeded deals. Prints games per second for
both and the strategy's win rate with its 95% interval.

    .venv/bin/python bench/bench_thermopyles_rules.py [--seconds 5] [--games N]
        [--strategy-games 2000]

Each figure also as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter

from calibration import Yardstick

from adjudicator.core.chance import Chance
from adjudicator.games.thermopyles import GAME, strategy

SEAT = "spartans"


def random_game(number: int, choose: random.Random) -> int:
    """One game of uniformly random legal orders; returns the number of actions."""
    seed = number.to_bytes(8, "big")
    state = GAME.new_game({}, Chance(seed, "bench-random", 0))
    while GAME.pending(state):
        orders = choose.choice(GAME.legal_orders(state, SEAT))
        state = GAME.resolve(
            state, {SEAT: orders}, Chance(seed, "bench-random", state.turn + 1)
        ).state
    return state.turn


def strategy_game(number: int) -> tuple[str, str | None, int]:
    seed = number.to_bytes(8, "big")
    state = GAME.new_game({}, Chance(seed, "bench-strategy", 0))
    while not state.over:
        orders = {SEAT: strategy.choose(state).to_json()}
        state = GAME.resolve(state, orders, Chance(seed, "bench-strategy", state.turn + 1)).state
    return state.status, state.end_reason, state.turn


def bench_random(seconds: float, games: int | None, yard: Yardstick) -> None:
    choose = random.Random(0)
    played = actions = 0
    start = time.perf_counter()
    while (games is None and time.perf_counter() - start < seconds) or (
        games is not None and played < games
    ):
        actions += random_game(played, choose)
        played += 1
    elapsed = time.perf_counter() - start
    print(f"random legal play: {played} games in {elapsed:.2f} s")
    print(f"  {played / elapsed:,.0f} games/s, {actions / elapsed:,.0f} actions/s, "
          f"{actions / played:.1f} actions/game")  # fmt: skip
    print(yard.against("one random game", elapsed / played))


def bench_strategy(games: int, yard: Yardstick) -> None:
    start = time.perf_counter()
    results = [strategy_game(1_000_000 + number) for number in range(games)]
    elapsed = time.perf_counter() - start
    wins = sum(1 for status, _, _ in results if status == "won")
    rate = wins / games
    margin = 1.96 * math.sqrt(rate * (1 - rate) / games)
    reasons = Counter(f"{status}:{reason}" for status, reason, _ in results)
    turns = sum(turn for _, _, turn in results) / games
    print(f"strategy play: {games} games in {elapsed:.2f} s ({games / elapsed:,.0f} games/s)")
    print(f"  win rate {rate:.3f} (95% interval {rate - margin:.3f}-{rate + margin:.3f}), "
          f"{turns:.1f} actions/game")  # fmt: skip
    print(yard.against("one strategy game", elapsed / games))
    print("  endings: " + ", ".join(f"{key} {count}" for key, count in reasons.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="random play time budget")
    parser.add_argument("--games", type=int, default=None, help="random games (overrides time)")
    parser.add_argument("--strategy-games", type=int, default=2000)
    options = parser.parse_args()
    yard = Yardstick()
    bench_random(options.seconds, options.games, yard)
    bench_strategy(options.strategy_games, yard)
    yard.again()
    print(yard.describe())


if __name__ == "__main__":
    main()
