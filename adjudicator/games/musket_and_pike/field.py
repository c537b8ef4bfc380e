"""The battlefield as the rules see it: a position on a scenario's map under a ruleset.

Small lookups shared by movement, combat and rout (who stands where, who is in contact, which
leader helps) so each of those modules reads the position the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from adjudicator.games.musket_and_pike.data import Ruleset, Terrain, ruleset
from adjudicator.games.musket_and_pike.hexes import Hex, distance, neighbours
from adjudicator.games.musket_and_pike.scenario import Scenario, scenario
from adjudicator.games.musket_and_pike.state import Leader, Position, Unit

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


def on_board(position: Position) -> list[Unit]:
    return [u for u in position.units if u.hex is not None]


def occupant(position: Position, where: Hex) -> Unit | None:
    return next((u for u in position.units if u.hex == where), None)


def enemies(position: Position, side: str) -> list[Unit]:
    return [u for u in on_board(position) if u.side != side]


def contacts(position: Position, side: str, where: Hex) -> frozenset[str]:
    """The enemy units next to ``where``: a unit there would be in contact with them."""
    around = set(neighbours(where))
    return frozenset(u.id for u in enemies(position, side) if u.hex in around)


def nearest_enemy(position: Position, side: str, where: Hex) -> int | None:
    """Hexes to the nearest enemy unit on the map; None when there is none."""
    gaps = [distance(where, u.hex) for u in enemies(position, side) if u.hex is not None]
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
