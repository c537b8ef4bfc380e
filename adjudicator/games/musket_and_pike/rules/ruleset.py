"""The Musket & Pike ruleset's values: every house number (command, movement, terrain, orders,
fire, close combat, morale, rally, rout, victory) as frozen dataclasses, as data.py reads them
from ``ruleset.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.core.said import N_

CONTACT_RULES = ("always", "never", "near")
# Who wins when the last turn ends with both armies in the field [house]: nobody, or the side
# that has spent the smaller share of its break level.
LAST_TURN_RULES = ("draw", "fewer_losses")
# Each rule as players read it, in the help, the opening mail and the final report.
LAST_TURN_WORDS = {
    "draw": N_("the battle is drawn"),
    "fewer_losses": N_(
        "the side that lost the smaller share of its break level wins (equal shares: a draw)"
    ),
}


@dataclass(frozen=True)
class Terrain:
    name: str
    letter: str
    cost: Mapping[str, int]  # kind -> movement points; a missing kind may not enter
    cover: int
    defence: int
    blocks_sight: bool
    disorders: frozenset[str]

    def passable(self, kind: str) -> bool:
        return kind in self.cost


@dataclass(frozen=True)
class OrderLimits:
    order: str
    max_hexes: int  # 0: the allowance is the only limit
    into_contact: str  # one of CONTACT_RULES
    near_distance: int
    must_close: bool
    close_combat: bool
    rally: bool  # rally and reform allowed
    rally_bonus: int


@dataclass(frozen=True)
class FireRow:
    min: int
    hits: int
    check: int | None  # a morale check with this modifier, or none


@dataclass(frozen=True)
class Weapon:
    name: str
    kinds: frozenset[str]
    range_mods: tuple[int, ...]  # index n - 1 for range n
    use_strength: bool
    table: tuple[FireRow, ...]

    @property
    def range(self) -> int:
        return len(self.range_mods)


@dataclass(frozen=True)
class FireModifiers:
    firer_disordered: int
    firer_shaken: int
    target_flank: int
    target_kind: Mapping[str, int]
    strength: tuple[tuple[int, int], ...]  # (min_sp, mod), ascending
    units_block_sight: bool


@dataclass(frozen=True)
class CombatRow:
    min: int
    a_sp: int
    d_sp: int
    a_disorder: bool
    d_disorder: bool
    a_check: int | None
    d_check: int | None
    a_retreat: int
    d_retreat: int


@dataclass(frozen=True)
class CloseCombatRules:
    kinds: frozenset[str]
    extra_attacker: int
    attacker_disordered: int
    attacker_shaken: int
    defender_disordered: int
    defender_shaken: int
    flank: int
    rear: int
    odds: tuple[tuple[float, int], ...]  # (attacker/defender SP ratio at least, mod)
    odds_against: tuple[tuple[float, int], ...]  # (defender/attacker SP ratio at least, mod)
    table: tuple[CombatRow, ...]
    kind_vs: Mapping[tuple[str, str], int]


@dataclass(frozen=True)
class MoraleRules:
    shaken: int
    disordered: int
    broken: int
    rout_margin: int


@dataclass(frozen=True)
class Ruleset:
    die: int
    # Command numbers (read by initiative.py, sequence.py and turn.py).
    preempt_max: int
    preempt_ac_help: int
    continuation_max: tuple[int, int]
    leader_loss: frozenset[int]
    order_change: Mapping[tuple[str, str], int]  # (current, wanted) -> highest succeeding roll
    leader_replacement: tuple[tuple[int, int], ...]  # (max roll, rating), ascending
    # Movement and terrain.
    allowance: Mapping[str, int]
    leader_allowance: int
    leader_cost: int
    road_bonus: Mapping[str, int]
    contact_stops: bool
    terrain: Mapping[str, Terrain]  # by name
    letters: Mapping[str, str]  # map letter -> terrain name
    orders: Mapping[str, OrderLimits]
    # Combat.
    weapons: Mapping[str, Weapon]
    fire: FireModifiers
    close_combat: CloseCombatRules
    morale: MoraleRules
    rally_mod: int
    reform_target: int
    rout_hexes: Mapping[str, int]
    rout_blocked_sp: int
    # Victory.
    last_turn: str  # one of LAST_TURN_RULES

    def replacement_rating(self, roll: int) -> int:
        """The new leader's rating for a leader replacement roll."""
        for top, rating in self.leader_replacement:
            if roll <= top:
                return rating
        return self.leader_replacement[-1][1]

    def terrain_of(self, letter: str) -> Terrain:
        return self.terrain[self.letters[letter]]
