"""A simple competent Thermopyles player, for the benchmark, the win-rate test and hints.

It looks one action ahead. Every fight (card, support count) is scored by its expected result,
worked out exactly over the dice: +1 per Persian beaten, a little more for the Graveyard and the
bonus symbol, minus a price per Spartan soldier spent and per support card used. Retreating has a
fixed score by space: worth it from the start space (a card for a step that costs no free die),
mildly bad elsewhere, and never onto the losing space while a fight is possible. The best score
wins; when the hand is over the limit the lowest card is discarded (the rules' own default).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from adjudicator.games.thermopyles.actions import Action
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.state import Position


@dataclass(frozen=True)
class Weights:
    """The player's taste; tuned by hand on seeds other than the tests' (see the bench)."""

    beaten: float = 1.0
    graveyard: float = 0.2
    bonus: float = 0.1
    per_soldier: float = 0.15  # a 20 is worth keeping for a double kill; a 10 is cheap to lose
    per_support: float = 0.5
    retreat_from_start: float = 1.0
    retreat_elsewhere: float = -0.5


@functools.cache
def dice_sums(count: int) -> tuple[tuple[int, float], ...]:
    """Every total of ``count`` d6 with its probability."""
    sums = {0: 1.0}
    for _ in range(count):
        following: dict[int, float] = {}
        for total, chance in sums.items():
            for face in range(1, 7):
                following[total + face] = following.get(total + face, 0.0) + chance / 6
        sums = following
    return tuple(sorted(sums.items()))


def fight_score(position: Position, value: int, support: int, weights: Weights) -> float:
    """The expected worth of FIGHT value SUPPORT support, over every roll of the dice."""
    data = card_data()
    near, far = position.near_card(data), position.far_card(data)
    assert near is not None
    dice = support + (1 if position.marker in data.free_die_spaces else 0)
    expected = 0.0
    for total, chance in dice_sums(dice):
        strength = value + total
        if strength < near.white:
            continue
        worth = weights.beaten + weights.graveyard * (strength >= near.red)
        worth += weights.bonus * near.bonus
        if far is not None and strength >= far.white:
            worth += weights.beaten + weights.graveyard * (strength >= far.red)
            worth += weights.bonus * far.bonus
        expected += chance * worth
    return expected - weights.per_soldier * value - weights.per_support * support


def choose(position: Position, weights: Weights = Weights()) -> Action:
    """The action this player takes now (the game must not be over)."""
    data = card_data()
    if position.marker == data.start_space:
        best_score, best = weights.retreat_from_start, Action("retreat")
    elif position.marker + 1 >= data.track_length:
        best_score, best = float("-inf"), Action("retreat")  # only when no fight is possible
    else:
        best_score, best = weights.retreat_elsewhere, Action("retreat")
    for value in sorted(set(position.hand)):
        for support in range(position.supports + 1):
            score = fight_score(position, value, support, weights)
            if score > best_score:
                best_score, best = score, Action("fight", value=value, support=support)
    return best
