"""The Musket & Pike position as frozen values, and its stored JSON form (``dump``/``load``).

Sides, wings, units and leaders are named by the scenario data, so they are plain strings here; the
data loader validates them. ``load`` is strict: stored positions are always complete, and a position
that does not read back is a bug to report, not something to repair silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from adjudicator.core.codec import Codec, Form
from adjudicator.core.contract import JSON

Side = Literal["royalist", "parliament"]  # the bundled scenarios' sides; positions use plain str
Hex = tuple[int, int]  # (column, row), offset coordinates defined in hexes.py

# 2: close combats still to fight and retreats still to make (``combats``, ``retreats``), for
# the retreat path asked by mail in the middle of an activation. A schema 1 position has none.
SCHEMA = 2
KINDS = ("HI", "LI", "CAV", "ART")
FORMATIONS = ("normal", "disordered", "broken")
MORALE_STATES = ("good", "shaken", "routed")
ROLES = ("AC", "WC")
# Seniority order for the initiative (4.1): the first is the most senior; Rally never counts.
ORDERS = ("charge", "make_ready", "receive_charge", "rally")
PHASES = ("setup", "initiative", "activation", "rout", "markers", "over")
# The step the activation machine waits at (see sequence.py); "none" when nothing is owed.
STEPS = (
    "setup_orders",
    "first_wing",
    "activate",
    "preempt",
    "order_change",
    "actions",
    "continuation",
    "retreat_path",
    "rout_paths",
    "none",
)


# Where standing instructions live in ``Position.extra``: ``standing.<side>.<kind>``.
STANDING_PREFIX = "standing."


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    kind: str  # "HI" | "LI" | "CAV" | "ART"
    wing: str
    hex: Hex | None  # None: eliminated or off map
    facing: int  # 0..5
    sp: int
    morale: int
    formation: str  # "normal" | "disordered" | "broken"
    morale_state: str  # "good" | "shaken" | "routed"
    casualties: int
    fired: bool  # artillery has fired this turn
    salvo: bool  # carries a Salvo marker


@dataclass(frozen=True)
class Leader:
    id: str
    side: str
    role: str  # "AC" | "WC"
    wing: str | None  # None for the army commander
    rating: int  # 0, -1, -2 (-2 best)
    hex: Hex | None  # None: off the map (killed or pursuing)
    finished: bool  # shows its "F" side
    lost_this_turn: bool  # killed or captured this turn: the replacement table applies


@dataclass(frozen=True)
class Wing:
    id: str
    side: str
    order: str  # "charge" | "make_ready" | "receive_charge" | "rally"
    finished: bool
    bypassed: bool  # interrupted by a pre-emption; activates after the pre-empting wing
    activations: int  # activations begun this turn (the continuation cap counts these)
    preempt_failed: bool  # tried to pre-empt this turn and failed: may not try again


@dataclass(frozen=True)
class Position:
    scenario: str
    turn: int
    last_turn: int  # the scenario's last turn
    phase: str  # one of PHASES
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...]
    wings: tuple[Wing, ...]
    lost_sp: tuple[tuple[str, int], ...]  # per side, in ``sides`` order
    break_levels: tuple[tuple[str, int], ...]  # per side, in ``sides`` order
    sides: tuple[str, ...] = ()  # the two sides, scenario order (first listed breaks die ties)
    step: str = "none"  # what the machine waits for, one of STEPS
    active: str | None = None  # the side that activates (or passes) now
    current: str | None = None  # the wing being activated (or proposed for activation)
    interrupted: str | None = None  # the Bypassed wing waiting for the pre-empting wing to end
    initiative: str | None = None  # the side that won this turn's initiative
    senior: str | None = None  # this turn's senior order (None: all Rally)
    passes: int = 0  # consecutive passes in the activation phase
    helping_ac: str | None = None  # the AC finished by helping a pre-emption, until it ends
    # Setup orders handed in but not yet revealed: (side, ((wing, order), ...)), secret.
    secret_orders: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    winner: str | None = None
    end_reason: str | None = None
    # The activation's close combats not yet fought, (defender, attackers) in declaration order,
    # and the retreats the last one left to make, (unit, hexes) in order: the first is the one
    # the "retreat_path" step asks for. Both are empty outside a paused close combat.
    combats: tuple[tuple[str, tuple[str, ...]], ...] = ()
    retreats: tuple[tuple[str, int], ...] = ()
    extra: tuple[tuple[str, str], ...] = ()  # free flags for other modules (key, value)

    def wing(self, wing_id: str) -> Wing:
        for wing in self.wings:
            if wing.id == wing_id:
                return wing
        raise KeyError(wing_id)

    def commander(self, wing_id: str) -> Leader | None:
        """The wing's commander, or None when the scenario gives it none."""
        for leader in self.leaders:
            if leader.role == "WC" and leader.wing == wing_id:
                return leader
        return None

    def army_commander(self, side: str) -> Leader | None:
        for leader in self.leaders:
            if leader.role == "AC" and leader.side == side:
                return leader
        return None

    def other(self, side: str) -> str:
        first, second = self.sides
        return second if side == first else first

    def lost(self, side: str) -> int:
        return dict(self.lost_sp).get(side, 0)

    def standing(self, side: str, kind: str) -> str | None:
        """A side's standing instruction of one kind (standing.py writes them), if given."""
        return dict(self.extra).get(f"{STANDING_PREFIX}{side}.{kind}")

    def routers(self, side: str) -> tuple[str, ...]:
        """The side's units that make a rout move at the rout phase, in the position's order."""
        return tuple(
            u.id
            for u in self.units
            if u.side == side and u.hex is not None and u.morale_state == "routed"
        )

    def break_level(self, side: str) -> int:
        return dict(self.break_levels).get(side, 0)

    def with_wing(self, wing: Wing) -> Position:
        return replace(self, wings=tuple(wing if w.id == wing.id else w for w in self.wings))

    def with_leader(self, leader: Leader) -> Position:
        return replace(
            self, leaders=tuple(leader if x.id == leader.id else x for x in self.leaders)
        )

    def with_unit(self, unit: Unit) -> Position:
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))


@dataclass(frozen=True)
class Roll:
    """One d10 with its modifiers, as the players are told it: natural + modifiers = total.

    ``target`` is the success threshold (success on total <= target) for command rolls, and None
    for opposed rolls (initiative tie-breaks), where ``success`` is None too.
    """

    purpose: str
    natural: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    target: int | None = None
    success: bool | None = None

    def to_json(self) -> dict[str, JSON]:
        return CODEC.dump(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Event:
    """One thing that happened, for the report mail and the archive (dice are also in Chance)."""

    kind: str  # a closed set per module, e.g. "initiative", "preempt", "pass", "rout-phase"
    side: str | None = None
    wing: str | None = None
    text: str = ""
    rolls: tuple[Roll, ...] = ()
    # A unit-level record as the actions and rout modules write it (JSON, with its own "type").
    data: Mapping[str, JSON] | None = None

    def to_json(self) -> dict[str, JSON]:
        return CODEC.dump(self)  # type: ignore[no-any-return]


# --- JSON -------------------------------------------------------------------------------------

# The stored form is the fields as they are, in the order positions have always been written.
CODEC = Codec(
    forms={
        Position: Form(
            order=(
                "scenario",
                "turn",
                "last_turn",
                "phase",
                "sides",
                "step",
                "active",
                "current",
                "interrupted",
                "initiative",
                "senior",
                "passes",
                "helping_ac",
                "units",
                "leaders",
                "wings",
                "lost_sp",
                "break_levels",
                "secret_orders",
                "winner",
                "end_reason",
                "combats",
                "retreats",
                "extra",
            )
        )
    }
)


def _from_schema_1(data: dict[str, JSON]) -> dict[str, JSON]:
    # Before close combats could wait for a retreat path: none were waiting.
    return {**data, "schema": SCHEMA, "combats": [], "retreats": []}


def dump(position: Position) -> dict[str, JSON]:
    """The complete position as JSON; ``load(dump(p)) == p`` for every position."""
    return CODEC.dump_stored(position, SCHEMA)


def load(data: JSON) -> Position:
    """The position stored by ``dump``; raises ShapeError (a ValueError) naming the first wrong
    part when the JSON is not one."""
    return CODEC.load_stored(Position, data, SCHEMA, "Musket & Pike state", {1: _from_schema_1})
