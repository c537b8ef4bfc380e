"""The rout phase (3.3): every routed unit runs from the enemy; off the map it is gone.

Each step goes to the neighbour farthest from the nearest enemy, ties going towards the side's
own map edge, then to the lowest side number; a side whose standing instruction is RETREAT
TOWARD MY EDGE runs homeward instead wherever that brings the enemy no nearer. A step off the
map is allowed and eliminates the unit. Terrain costs do not slow a rout, but impassable ground
and other units stop it. Routers go in the order of the position's units, so earlier routers may
block later ones.

A side whose standing instruction is RETREAT ASK chooses its routers' paths by mail (the
sequence's "rout_paths" decision); a chosen path is checked here: one hex at a time into an open
neighbour, never nearer the nearest enemy, never back into a hex it has left, the full rout
distance unless it leaves the map or no way farther from the enemy is open. A router not given
a path runs as the default above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import retreat_refusals
from adjudicator.games.musket_and_pike.rules.combat import eliminate, lose
from adjudicator.games.musket_and_pike.rules.data import Ruleset
from adjudicator.games.musket_and_pike.rules.field import (
    Event,
    Field,
    field_for,
    hex_json,
    nearest_enemy,
    occupant,
    unit,
)
from adjudicator.games.musket_and_pike.rules.hexes import Hex, neighbours
from adjudicator.games.musket_and_pike.rules.scenario import Scenario
from adjudicator.games.musket_and_pike.rules.state import Position, Unit
from adjudicator.games.musket_and_pike.rules.titles import side_title


def _away(position: Position, field: Field, router: Unit, where: Hex) -> tuple[int, int]:
    """How good a hex is to run to: far from the enemy first, then near home."""
    gap = nearest_enemy(position, router.side, where)
    if gap is None:  # no enemy left on the map: only home matters
        gap = 0
    home = field.home_row(router.side)
    return (gap, -abs(where[1] - home))


def _open(position: Position, field: Field, router: Unit, where: Hex) -> bool:
    """A map hex a router may enter: ground it can cross, and nobody in it."""
    return (
        field.on_map(where)
        and field.terrain(where).passable(router.kind)
        and occupant(position, where) is None
    )


def _gap(position: Position, router: Unit, where: Hex) -> int:
    return nearest_enemy(position, router.side, where) or 0


def _toward_edge(position: Position, field: Field, router: Unit, here: Hex) -> Hex | None:
    """RETREAT TOWARD MY EDGE: a step nearer home that brings the enemy no nearer, if any."""
    home = field.home_row(router.side)
    gap_here = _gap(position, router, here)
    better = [
        where
        for where in neighbours(here)
        if _open(position, field, router, where)
        and _gap(position, router, where) >= gap_here
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
        if not field.on_map(where) or _open(position, field, router, where)
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
    for _step in range(hexes):
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


def rout_along(
    position: Position, field: Field, unit_id: str, path: Sequence[Hex], events: list[Event]
) -> Position | Refusal:
    """One router's rout move along the path its player chose, or why the path is refused."""
    router = unit(position, unit_id)
    if router is None or router.hex is None:
        return retreat_refusals.off_the_map(unit_id)
    hexes = field.rules.rout_hexes.get(router.kind, 0)
    if hexes == 0:  # a unit that cannot rout is abandoned whatever the path
        return rout_unit(position, field, unit_id, events)
    if (refused := retreat_refusals.too_long(unit_id, hexes, path, rout=True)) is not None:
        return refused
    here, seen = router.hex, {router.hex}
    for index, step in enumerate(path):
        if (refused := retreat_refusals.not_next(unit_id, step, here)) is not None:
            return refused
        if not field.on_map(step):
            if index != len(path) - 1:
                return Refusal(
                    _(
                        "%(unit)s: a path ends where it leaves the map (%(hex)s)",
                        unit=unit_id,
                        hex=retreat_refusals.hex_name(step),
                    ),
                    "illegal",
                )
            shown = [hex_json(h) for h in path]
            events.append({"type": "rout", "unit": unit_id, "path": shown, "off_map": True})
            position = position.with_unit(replace(router, hex=here))
            return eliminate(position, unit_id, "routed off the map", events)
        if step in seen or not _open(position, field, router, step):
            cause = retreat_refusals.cause(position, field, router, step, list(seen))
            hexes_open = _open_words(position, field, router, here, seen)
            return retreat_refusals.blocked(unit_id, step, cause, hexes_open, rout=True)
        if _gap(position, router, step) < _gap(position, router, here):
            why = _(
                "%(unit)s: %(hex)s is nearer the enemy; a rout never runs toward it; %(open)s",
                unit=unit_id,
                hex=retreat_refusals.hex_name(step),
                open=_open_words(position, field, router, here, seen),
            )
            return Refusal(why, "illegal")
        here = step
        seen.add(step)
    if len(path) < hexes and _way_on(position, field, router, here, seen):
        return retreat_refusals.stopped_short(unit_id, hexes, here, None)
    events.append({"type": "rout", "unit": unit_id, "path": [hex_json(h) for h in path]})
    if not path:
        return lose(position, unit_id, field.rules.rout_blocked_sp, events)
    return position.with_unit(replace(router, hex=here))


def _way_on(position: Position, field: Field, router: Unit, here: Hex, seen: set[Hex]) -> bool:
    """Whether a rout must go on from ``here``: some way out (off the map, or an open hex not
    run through) is farther from the enemy. The default rout stops exactly where none is, so a
    player may always write out the default path."""
    gap = _gap(position, router, here)
    return any(
        (not field.on_map(where) or (where not in seen and _open(position, field, router, where)))
        and _gap(position, router, where) > gap
        for where in neighbours(here)
    )


def _open_words(position: Position, field: Field, router: Unit, here: Hex, seen: set[Hex]) -> str:
    """The map hexes a rout may run into next from ``here``, in words."""
    gap = _gap(position, router, here)
    return retreat_refusals.open_words(
        [
            where
            for where in neighbours(here)
            if where not in seen
            and _open(position, field, router, where)
            and _gap(position, router, where) >= gap
        ],
        rout=True,
    )


def rout_side(
    position: Position,
    chance: Chance,
    side: str,
    chosen: Mapping[str, Sequence[Hex]],
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
) -> tuple[Position, list[Event]] | Refusal:
    """One side's rout moves: the chosen paths, the default for every other router. No die is
    needed (``chance`` is taken so every phase has the same shape and a future table could
    roll). A refused path refuses the whole answer, and nothing moves."""
    del chance
    field = field_for(position, rules, battle)
    running = position.routers(side)
    stray = [unit_id for unit_id in chosen if unit_id not in running]
    if stray:
        return Refusal(
            _(
                "%(unit)s is not a routed unit of %(side)s; routing: %(units)s",
                unit=stray[0],
                side=side_title(position.scenario, side),
                units=", ".join(running) or _("none"),
            ),
            "illegal",
        )
    events: list[Event] = []
    for unit_id in running:
        if unit_id in chosen:
            moved = rout_along(position, field, unit_id, chosen[unit_id], events)
            if isinstance(moved, Refusal):
                return moved
            position = moved
        else:
            position = rout_unit(position, field, unit_id, events)
    return position, events


def resolve_rout(
    position: Position,
    chance: Chance,
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
) -> tuple[Position, list[Event]]:
    """All routed units make their default rout move, side by side in the scenario's order."""
    events: list[Event] = []
    for side in position.sides:
        done = rout_side(position, chance, side, {}, rules=rules, battle=battle)
        assert not isinstance(done, Refusal), done  # default paths are never refused
        position, happened = done
        events += happened
    return position, events
