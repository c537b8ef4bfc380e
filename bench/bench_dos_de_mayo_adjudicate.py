"""2 de Mayo adjudication speed against the ``diplomacy`` package's, in the same run, one core.

Ours: a full turn is both sides' order mails parsed (the forgiving parser, receipts and all)
plus ``resolve`` (re-check, cards, swaps, movement, combat, end, next Preparation), on mid-game
positions reached by random legal play, with busy order sets (most groups ordered, cards played).
Baseline: the ``diplomacy`` package processing a standard-map movement phase with every unit
given a legal move from ``get_all_possible_orders()`` (a fresh Game per iteration; we time
set_orders + process, and report the rate with Game() creation too). Prints turns per second for
both and the ratio (aim: ours at least 5x).

    .venv/bin/python bench/bench_dos_de_mayo_adjudicate.py [--seconds 3] [--positions 200]

Each figure also as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from calibration import Yardstick

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.dos_de_mayo import GAME, adjudicate
from adjudicator.games.dos_de_mayo.orders import order_set_from_json
from adjudicator.games.dos_de_mayo.receipts import parse_orders
from adjudicator.games.dos_de_mayo.state import Position

Sample = tuple[Position, str, str, bytes]


def _busiest(state: Position, seat: str) -> str:
    """The legal order set with the most lines, as the player would write it (canonical text)."""
    sets = [order_set_from_json(orders) for orders in GAME.legal_orders(state, seat)]
    lines = max((s.lines() for s in sets if not isinstance(s, Refusal)), key=len)
    return "\n".join(lines)


def mid_game_positions(count: int) -> list[Sample]:
    """Positions of turns 3-8 reached by random legal play, each with busy orders for both."""
    samples: list[Sample] = []
    number = 0
    while len(samples) < count:
        seed = number.to_bytes(8, "big")
        choose = random.Random(number)
        state = GAME.new_game({}, Chance(seed, "bench", 0))
        stop = choose.randint(3, 8)
        while GAME.pending(state) and state.turn < stop:
            orders = {s: choose.choice(list(GAME.legal_orders(state, s))) for s in GAME.seats}
            state = GAME.resolve(state, orders, Chance(seed, "bench", state.turn)).state
        if not state.over:
            samples.append((state, _busiest(state, "france"), _busiest(state, "spain"), seed))
        number += 1
    return samples


def one_turn(sample: Sample) -> Any:
    state, france, spain, seed = sample
    orders = {
        "france": parse_orders(state, "france", france).orders,
        "spain": parse_orders(state, "spain", spain).orders,
    }
    return adjudicate.resolve(state, orders, Chance(seed, "bench", state.turn))


def bench_ours(samples: list[Sample], seconds: float) -> float:
    for sample in samples:  # warm-up, and every sample must adjudicate
        one_turn(sample)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for sample in samples:
            one_turn(sample)
        done += len(samples)
    return done / (time.perf_counter() - start)


def diplomacy_orders(game: Any, choose: random.Random) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power in game.powers:
        chosen = []
        for location in game.get_orderable_locations(power):
            options = sorted(possible[location])
            moves = [order for order in options if " - " in order] or options
            chosen.append(choose.choice(moves))
        orders[power] = chosen
    return orders


def bench_diplomacy(seconds: float) -> tuple[float, float]:
    """Movement phases per second: (set_orders + process only, with Game() creation too)."""
    from diplomacy import Game

    choose = random.Random(0)
    timed = total = 0.0
    done = 0
    while total < seconds:
        begin = time.perf_counter()
        game = Game()
        orders = diplomacy_orders(game, choose)
        middle = time.perf_counter()
        for power, power_orders in orders.items():
            game.set_orders(power, power_orders)
        game.process()
        end = time.perf_counter()
        timed += end - middle
        total += end - begin
        done += 1
    return done / timed, done / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per measurement")
    parser.add_argument("--positions", type=int, default=200, help="mid-game positions")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median kept)")
    options = parser.parse_args()
    yard = Yardstick()
    samples = mid_game_positions(options.positions)
    lines = sum(len(f.splitlines()) + len(s.splitlines()) for _, f, s, _ in samples)
    print(f"2 de Mayo: {len(samples)} mid-game positions, {lines / len(samples):.1f} order lines")
    ours: list[float] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(options.rounds):  # alternate, so machine noise hits both alike
        ours.append(bench_ours(samples, options.seconds))
        theirs.append(bench_diplomacy(options.seconds))
    rate = statistics.median(ours)
    process = statistics.median(t[0] for t in theirs)
    whole = statistics.median(t[1] for t in theirs)
    print(f"ours (parse both mails + resolve):         {rate:10,.0f} turns/s  "
          f"({1e6 / rate:7.1f} us/turn)")  # fmt: skip
    print(f"diplomacy (set_orders + process):          {process:10,.0f} turns/s  "
          f"({1e6 / process:7.1f} us/turn)")  # fmt: skip
    print(f"diplomacy (Game() + orders + process):     {whole:10,.0f} turns/s")
    print(f"ratio ours / diplomacy process: {rate / process:5.1f}x  "
          f"(with Game(): {rate / whole:5.1f}x; aim >= 5x)")  # fmt: skip
    yard.again()
    print(yard.describe())
    print(yard.against("ours, one turn", 1 / rate))
    print(yard.against("diplomacy, one turn (process)", 1 / process))


if __name__ == "__main__":
    main()
