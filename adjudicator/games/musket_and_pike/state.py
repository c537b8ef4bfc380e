"""The Musket & Pike position as frozen values, and its stored JSON form (``dump``/``load``).

Sides, wings, units and leaders are named by the scenario data, so they are plain strings here; the
data loader validates them. ``load`` is strict: stored positions are always complete, and a position
that does not read back is a bug to report, not something to repair silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

Side = Literal["royalist", "parliament"]  # the bundled scenarios' sides; positions use plain str
Hex = tuple[int, int]  # (column, row), offset coordinates defined in hexes.py
JSON = Any

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


class StateError(ValueError):
    """A stored position that does not read back: missing or wrongly typed fields."""


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
        return {
            "purpose": self.purpose,
            "natural": self.natural,
            "modifiers": [[why, amount] for why, amount in self.modifiers],
            "total": self.total,
            "target": self.target,
            "success": self.success,
        }


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
        return {
            "kind": self.kind,
            "side": self.side,
            "wing": self.wing,
            "text": self.text,
            "rolls": [roll.to_json() for roll in self.rolls],
            "data": None if self.data is None else dict(self.data),
        }


# --- JSON -------------------------------------------------------------------------------------


def _hex_json(where: Hex | None) -> list[int] | None:
    return None if where is None else [where[0], where[1]]


def unit_json(unit: Unit) -> dict[str, JSON]:
    return {
        "id": unit.id,
        "side": unit.side,
        "kind": unit.kind,
        "wing": unit.wing,
        "hex": _hex_json(unit.hex),
        "facing": unit.facing,
        "sp": unit.sp,
        "morale": unit.morale,
        "formation": unit.formation,
        "morale_state": unit.morale_state,
        "casualties": unit.casualties,
        "fired": unit.fired,
        "salvo": unit.salvo,
    }


def leader_json(leader: Leader) -> dict[str, JSON]:
    return {
        "id": leader.id,
        "side": leader.side,
        "role": leader.role,
        "wing": leader.wing,
        "rating": leader.rating,
        "hex": _hex_json(leader.hex),
        "finished": leader.finished,
        "lost_this_turn": leader.lost_this_turn,
    }


def wing_json(wing: Wing) -> dict[str, JSON]:
    return {
        "id": wing.id,
        "side": wing.side,
        "order": wing.order,
        "finished": wing.finished,
        "bypassed": wing.bypassed,
        "activations": wing.activations,
        "preempt_failed": wing.preempt_failed,
    }


def dump(position: Position) -> dict[str, JSON]:
    """The complete position as JSON; ``load(dump(p)) == p`` for every position."""
    return {
        "schema": SCHEMA,
        "scenario": position.scenario,
        "turn": position.turn,
        "last_turn": position.last_turn,
        "phase": position.phase,
        "sides": list(position.sides),
        "step": position.step,
        "active": position.active,
        "current": position.current,
        "interrupted": position.interrupted,
        "initiative": position.initiative,
        "senior": position.senior,
        "passes": position.passes,
        "helping_ac": position.helping_ac,
        "units": [unit_json(u) for u in position.units],
        "leaders": [leader_json(x) for x in position.leaders],
        "wings": [wing_json(w) for w in position.wings],
        "lost_sp": [[side, n] for side, n in position.lost_sp],
        "break_levels": [[side, n] for side, n in position.break_levels],
        "secret_orders": [
            [side, [[wing, order] for wing, order in orders]]
            for side, orders in position.secret_orders
        ],
        "winner": position.winner,
        "end_reason": position.end_reason,
        "combats": [[target, list(attackers)] for target, attackers in position.combats],
        "retreats": [[unit, hexes] for unit, hexes in position.retreats],
        "extra": [[key, value] for key, value in position.extra],
    }


def _get(data: Mapping[str, JSON], key: str, kind: type | tuple[type, ...]) -> JSON:
    if key not in data:
        raise StateError(f"missing field {key!r}")
    value = data[key]
    # bool is an int in Python; a stored count must not be a boolean and vice versa.
    if isinstance(value, bool) and kind is int:
        raise StateError(f"field {key!r} must be an integer")
    if not isinstance(value, kind):
        raise StateError(f"field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _opt_str(data: Mapping[str, JSON], key: str) -> str | None:
    value = _get(data, key, (str, type(None)))
    return None if value is None else str(value)


def _hex(data: Mapping[str, JSON], key: str) -> Hex | None:
    value = _get(data, key, (list, type(None)))
    if value is None:
        return None
    if len(value) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise StateError(f"field {key!r} must be [column, row]")
    return (int(value[0]), int(value[1]))


def _mapping(value: JSON, what: str) -> Mapping[str, JSON]:
    if not isinstance(value, dict):
        raise StateError(f"{what} must be an object")
    return value


def load_unit(data: JSON) -> Unit:
    d = _mapping(data, "a unit")
    return Unit(
        id=_get(d, "id", str),
        side=_get(d, "side", str),
        kind=_get(d, "kind", str),
        wing=_get(d, "wing", str),
        hex=_hex(d, "hex"),
        facing=_get(d, "facing", int),
        sp=_get(d, "sp", int),
        morale=_get(d, "morale", int),
        formation=_get(d, "formation", str),
        morale_state=_get(d, "morale_state", str),
        casualties=_get(d, "casualties", int),
        fired=_get(d, "fired", bool),
        salvo=_get(d, "salvo", bool),
    )


def load_leader(data: JSON) -> Leader:
    d = _mapping(data, "a leader")
    return Leader(
        id=_get(d, "id", str),
        side=_get(d, "side", str),
        role=_get(d, "role", str),
        wing=_opt_str(d, "wing"),
        rating=_get(d, "rating", int),
        hex=_hex(d, "hex"),
        finished=_get(d, "finished", bool),
        lost_this_turn=_get(d, "lost_this_turn", bool),
    )


def load_wing(data: JSON) -> Wing:
    d = _mapping(data, "a wing")
    return Wing(
        id=_get(d, "id", str),
        side=_get(d, "side", str),
        order=_get(d, "order", str),
        finished=_get(d, "finished", bool),
        bypassed=_get(d, "bypassed", bool),
        activations=_get(d, "activations", int),
        preempt_failed=_get(d, "preempt_failed", bool),
    )


def _pairs(value: JSON, what: str) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, list):
        raise StateError(f"{what} must be a list")
    out: list[tuple[str, int]] = []
    for item in value:
        ok = isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
        if not ok or not isinstance(item[1], int) or isinstance(item[1], bool):
            raise StateError(f"{what} entries must be [name, integer]")
        out.append((item[0], item[1]))
    return tuple(out)


def _str_pairs(value: JSON, what: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise StateError(f"{what} must be a list")
    out: list[tuple[str, str]] = []
    for item in value:
        ok = isinstance(item, list) and len(item) == 2
        if not ok or not all(isinstance(x, str) for x in item):
            raise StateError(f"{what} entries must be [text, text]")
        out.append((item[0], item[1]))
    return tuple(out)


def _combats(value: list[JSON]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out: list[tuple[str, tuple[str, ...]]] = []
    for item in value:
        ok = isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
        if not ok or not isinstance(item[1], list) or not all(isinstance(a, str) for a in item[1]):
            raise StateError("combats entries must be [defender, [attacker, ...]]")
        out.append((item[0], tuple(item[1])))
    return tuple(out)


def load(data: JSON) -> Position:
    """The position stored by ``dump``; raises StateError when the JSON is not one."""
    d = _mapping(data, "a position")
    schema = d.get("schema")
    if schema not in (1, SCHEMA):
        raise StateError(f"unknown schema {schema!r}")
    secret_raw = _get(d, "secret_orders", list)
    secret: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for item in secret_raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise StateError("secret_orders entries must be [side, [[wing, order], ...]]")
        secret.append((item[0], _str_pairs(item[1], "secret orders")))
    sides = _get(d, "sides", list)
    if not all(isinstance(s, str) for s in sides):
        raise StateError("sides must be names")
    return Position(
        scenario=_get(d, "scenario", str),
        turn=_get(d, "turn", int),
        last_turn=_get(d, "last_turn", int),
        phase=_get(d, "phase", str),
        units=tuple(load_unit(u) for u in _get(d, "units", list)),
        leaders=tuple(load_leader(x) for x in _get(d, "leaders", list)),
        wings=tuple(load_wing(w) for w in _get(d, "wings", list)),
        lost_sp=_pairs(_get(d, "lost_sp", list), "lost_sp"),
        break_levels=_pairs(_get(d, "break_levels", list), "break_levels"),
        sides=tuple(sides),
        step=_get(d, "step", str),
        active=_opt_str(d, "active"),
        current=_opt_str(d, "current"),
        interrupted=_opt_str(d, "interrupted"),
        initiative=_opt_str(d, "initiative"),
        senior=_opt_str(d, "senior"),
        passes=_get(d, "passes", int),
        helping_ac=_opt_str(d, "helping_ac"),
        secret_orders=tuple(secret),
        winner=_opt_str(d, "winner"),
        end_reason=_opt_str(d, "end_reason"),
        combats=() if schema == 1 else _combats(_get(d, "combats", list)),
        retreats=() if schema == 1 else _pairs(_get(d, "retreats", list), "retreats"),
        extra=_str_pairs(_get(d, "extra", list), "extra"),
    )
