"""The battlefield as the rules see it: a position on a scenario's map under a ruleset.

Small lookups shared by movement, combat and rout (who stands where, who is in contact, which
leader helps) so each of those modules reads the position the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from adjudicator.games.musket_and_pike.rules.data import Ruleset, Terrain, ruleset
from adjudicator.games.musket_and_pike.rules.hexes import Cube, Hex, neighbours, to_cube
from adjudicator.games.musket_and_pike.rules.scenario import Scenario, scenario
from adjudicator.games.musket_and_pike.rules.state import Leader, Position, Unit

Event = dict[str, Any]  # one JSON-ready record of what happened (see actions.py for the kinds)


@dataclass(frozen=True)
class Field:
    rules: Ruleset
    scenario: Scenario

    def terrain(self, where: Hex) -> Terrain:
        return self.rules.terrain_of(self.scenario.letter(where))

    def on_map(self, where: Hex) -> bool:
        return self.scenario.on_map(where)

    def home_row(self, side: str) -> int:
        """The map edge row behind a side's set-up area: where its routers run to."""
        first, last = self.scenario.side(side).deploy_rows
        return 0 if first < self.scenario.height - 1 - last else self.scenario.height - 1


def field_for(
    position: Position, rules: Ruleset | None = None, battle: Scenario | None = None
) -> Field:
    """The field of a position: its own scenario and the packaged ruleset unless given."""
    return Field(rules or ruleset(), battle or scenario(position.scenario))


def unit(position: Position, unit_id: str) -> Unit | None:
    return next((u for u in position.units if u.id == unit_id), None)


def leader(position: Position, leader_id: str) -> Leader | None:
    return next((x for x in position.leaders if x.id == leader_id), None)


@dataclass(frozen=True)
class _Index:
    """Who stands where in one position, worked out once: the move search asks "who is in this
    hex" and "how far is the enemy" hundreds of thousands of times in a position that does not
    change while it asks."""

    occupants: dict[Hex, Unit]
    sides: dict[str, tuple[Unit, ...]]  # the units on the map, by side
    cubes: dict[str, tuple[Cube, ...]]  # where each side's units stand, in cube coordinates


def _built(position: Position) -> _Index:
    occupants: dict[Hex, Unit] = {}
    sides: dict[str, list[Unit]] = {}
    for u in position.units:
        if u.hex is not None:
            # The first unit listed wins a shared hex, as a scan of the units would find it.
            occupants.setdefault(u.hex, u)
            sides.setdefault(u.side, []).append(u)
    return _Index(
        occupants,
        {side: tuple(units) for side, units in sides.items()},
        {side: tuple(to_cube(u.hex) for u in units if u.hex) for side, units in sides.items()},
    )


# The index of the last position asked about. Positions are immutable, so the same object always
# has the same index; a new position (every change makes one) gets a new index.
_LAST: tuple[Position, _Index] | None = None


def _index(position: Position) -> _Index:
    global _LAST
    last = _LAST
    if last is not None and last[0] is position:
        return last[1]
    index = _built(position)
    _LAST = (position, index)
    return index


def on_board(position: Position) -> list[Unit]:
    return [u for u in position.units if u.hex is not None]


def occupant(position: Position, where: Hex) -> Unit | None:
    return _index(position).occupants.get(where)


def enemies(position: Position, side: str) -> list[Unit]:
    index = _index(position)
    return [u for other, units in index.sides.items() if other != side for u in units]


def contacts(position: Position, side: str, where: Hex) -> frozenset[str]:
    """The enemy units next to ``where``: a unit there would be in contact with them."""
    occupants = _index(position).occupants
    return frozenset(
        found.id
        for there in neighbours(where)
        if (found := occupants.get(there)) is not None and found.side != side
    )


def nearest_enemy(position: Position, side: str, where: Hex) -> int | None:
    """Hexes to the nearest enemy unit on the map; None when there is none."""
    x, y, z = to_cube(where)
    gaps = [
        max(abs(x - ex), abs(y - ey), abs(z - ez))
        for other, cubes in _index(position).cubes.items()
        if other != side
        for ex, ey, ez in cubes
    ]
    return min(gaps) if gaps else None


def leader_bonus(position: Position, side: str, where: Hex) -> int:
    """What the best leader in the hex adds to morale, rally and reform rolls (minus his rating:
    ratings are 0, -1, -2 with -2 best, and these rolls succeed low against a target)."""
    ratings = [x.rating for x in position.leaders if x.side == side and x.hex == where]
    return -min(ratings) if ratings else 0


def put(position: Position, changed: Unit) -> Position:
    return position.with_unit(changed)


def add_loss(position: Position, side: str, points: int) -> Position:
    lost = tuple((s, n + points if s == side else n) for s, n in position.lost_sp)
    return replace(position, lost_sp=lost)


def hex_json(where: Hex | None) -> list[int] | None:
    return None if where is None else [where[0], where[1]]
