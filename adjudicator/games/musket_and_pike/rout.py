"""The rout phase (3.3): every routed unit runs from the enemy; off the map it is gone.

Each step goes to the neighbour farthest from the nearest enemy, ties going towards the side's
own map edge, then to the lowest side number; a side whose standing instruction is RETREAT
TOWARD MY EDGE runs homeward instead wherever that brings the enemy no nearer. A step off the
map is allowed and eliminates the unit. Terrain costs do not slow a rout, but impassable ground
and other units stop it. Routers go in the order of the position's units, so earlier routers may
block later ones.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.combat import eliminate, lose
from adjudicator.games.musket_and_pike.data import Ruleset
from adjudicator.games.musket_and_pike.field import (
    Event,
    Field,
    field_for,
    hex_json,
    nearest_enemy,
    occupant,
    unit,
)
from adjudicator.games.musket_and_pike.hexes import Hex, neighbours
from adjudicator.games.musket_and_pike.scenario import Scenario
from adjudicator.games.musket_and_pike.state import Position, Unit


def _away(position: Position, field: Field, router: Unit, where: Hex) -> tuple[int, int]:
    """How good a hex is to run to: far from the enemy first, then near home."""
    gap = nearest_enemy(position, router.side, where)
    if gap is None:  # no enemy left on the map: only home matters
        gap = 0
    home = field.home_row(router.side)
    return (gap, -abs(where[1] - home))


def _toward_edge(position: Position, field: Field, router: Unit, here: Hex) -> Hex | None:
    """RETREAT TOWARD MY EDGE: a step nearer home that brings the enemy no nearer, if any."""
    home = field.home_row(router.side)
    gap_here = nearest_enemy(position, router.side, here) or 0
    better = [
        where
        for where in neighbours(here)
        if field.on_map(where)
        and field.terrain(where).passable(router.kind)
        and occupant(position, where) is None
        and (nearest_enemy(position, router.side, where) or 0) >= gap_here
        and abs(where[1] - home) < abs(here[1] - home)
    ]
    if not better:
        return None
    return max(
        better,
        key=lambda w: (-abs(w[1] - home), nearest_enemy(position, router.side, w) or 0),
    )


def _next_step(position: Position, field: Field, router: Unit, here: Hex) -> Hex | None:
    if position.standing(router.side, "retreat") == "edge":
        homeward = _toward_edge(position, field, router, here)
        if homeward is not None:
            return homeward
    # Away from the enemy: the rule, and the fallback when no step homeward is safe.
    current = _away(position, field, router, here)
    options = [
        where
        for where in neighbours(here)
        if not field.on_map(where)
        or (field.terrain(where).passable(router.kind) and occupant(position, where) is None)
    ]
    better = [where for where in options if _away(position, field, router, where) > current]
    if not better:
        return None
    return max(better, key=lambda where: _away(position, field, router, where))


def rout_unit(position: Position, field: Field, unit_id: str, events: list[Event]) -> Position:
    """One routed unit's rout move."""
    router = unit(position, unit_id)
    if router is None or router.hex is None:
        return position
    hexes = field.rules.rout_hexes.get(router.kind, 0)
    if hexes == 0:
        events.append({"type": "rout", "unit": unit_id, "path": [], "abandoned": True})
        return eliminate(position, unit_id, "abandoned", events)
    path: list[Hex] = []
    here = router.hex
    for _ in range(hexes):
        step = _next_step(position, field, router, here)
        if step is None:
            break
        path.append(step)
        if not field.on_map(step):
            events.append(
                {
                    "type": "rout",
                    "unit": unit_id,
                    "path": [hex_json(h) for h in path],
                    "off_map": True,
                }
            )
            # The unit leaves from the last map hex it reached.
            position = position.with_unit(replace(router, hex=here))
            return eliminate(position, unit_id, "routed off the map", events)
        here = step
    events.append({"type": "rout", "unit": unit_id, "path": [hex_json(h) for h in path]})
    if not path:
        return lose(position, unit_id, field.rules.rout_blocked_sp, events)
    return position.with_unit(replace(router, hex=here))


def resolve_rout(
    position: Position,
    chance: Chance,
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
) -> tuple[Position, list[Event]]:
    """All routed units make their rout move. No die is needed (``chance`` is taken so every
    phase has the same shape and a future table could roll)."""
    del chance
    field = field_for(position, rules, battle)
    events: list[Event] = []
    for router in position.units:
        if router.hex is not None and router.morale_state == "routed":
            position = rout_unit(position, field, router.id, events)
    return position, events
