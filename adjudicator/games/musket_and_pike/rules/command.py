"""The numbers the sequence of play reads, and the command roll that uses them.

The thresholds are house numbers and live in the ruleset data (``ruleset.Ruleset``); this module
names only the fields the machine reads, as a Protocol, so the machine can be tested with small
tables and does not depend on how the data file is laid out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.rules.state import Roll

DIE = 10  # one d10 (the spec's only die); natural results 1..10
MAX_ACTIVATIONS = 3  # a wing's first activation plus at most two continuations (3.2 E/F)


class CommandRules(Protocol):
    """The ruleset fields the sequence of play reads (read-only, so frozen dataclasses fit)."""

    @property
    def preempt_max(self) -> int:
        """A pre-emption succeeds on a modified roll <= this."""

    @property
    def preempt_ac_help(self) -> int:
        """The modifier when the army commander helps a pre-emption (negative helps)."""

    @property
    def continuation_max(self) -> tuple[int, int]:
        """Success thresholds for the 2nd and the 3rd activation."""

    @property
    def order_change(self) -> Mapping[tuple[str, str], int]:
        """Success threshold by (current order, wanted order); a missing pair cannot be tried."""

    @property
    def leader_replacement(self) -> Sequence[tuple[int, int | None]]:
        """Bands (highest natural roll, rating of the replacement or None: none this turn),
        in rising order of roll."""

    @property
    def last_turn(self) -> str:
        """Who wins when the last turn ends with both armies in the field: "draw" or
        "fewer_losses" (the smaller share of its break level lost)."""


# The spec's suggested order change thresholds: by current order, each wanted order's.
_SPEC_ORDER_CHANGE = {
    "charge": {"make_ready": 3, "receive_charge": 2, "rally": 1},
    "make_ready": {"charge": 6, "receive_charge": 7, "rally": 5},
    "receive_charge": {"charge": 4, "make_ready": 6, "rally": 6},
    "rally": {"charge": 2, "make_ready": 5, "receive_charge": 6},
}
ORDER_CHANGE_DEFAULT: dict[tuple[str, str], int] = {
    (current, wanted): threshold
    for current, row in _SPEC_ORDER_CHANGE.items()
    for wanted, threshold in row.items()
}


@dataclass(frozen=True)
class CommandTable:
    """A stand-alone CommandRules with the spec's suggested defaults, for tests and tools."""

    preempt_max: int = 4
    preempt_ac_help: int = -1
    continuation_max: tuple[int, int] = (5, 3)
    order_change: Mapping[tuple[str, str], int] = field(
        default_factory=lambda: dict(ORDER_CHANGE_DEFAULT)
    )
    leader_replacement: Sequence[tuple[int, int | None]] = ((2, None), (6, 0), (9, -1), (10, -2))
    last_turn: str = "fewer_losses"


def command_roll(
    chance: Chance, purpose: str, modifiers: Sequence[tuple[str, int]], target: int
) -> Roll:
    """A d10 command roll: low is good, success on natural + modifiers <= target."""
    natural = chance.roll(purpose, DIE)
    total = natural + sum(amount for _, amount in modifiers)
    return Roll(purpose, natural, tuple(modifiers), total, target, total <= target)


def opposed_roll(chance: Chance, purpose: str) -> Roll:
    """A plain d10 for an opposed roll (higher wins); no modifiers, no target."""
    natural = chance.roll(purpose, DIE)
    return Roll(purpose, natural, (), natural)


def replacement_rating(rules: CommandRules, natural: int) -> int | None:
    """The replacement leader's rating for a natural roll; None: no replacement this turn."""
    for highest, rating in rules.leader_replacement:
        if natural <= highest:
            return rating
    return None
