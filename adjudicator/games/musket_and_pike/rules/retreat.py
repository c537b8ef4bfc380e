"""Falling back after close combat (3.2 D): the default retreat, each step to a free neighbour
farther from the nearest enemy, and a retreat along the path the unit's player chose (STANDING
RETREAT ASK ME), or why that path is refused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules import retreat_refusals
from adjudicator.games.musket_and_pike.rules.combat import lose
from adjudicator.games.musket_and_pike.rules.field import (
    Event,
    Field,
    hex_json,
    nearest_enemy,
    occupant,
    unit,
)
from adjudicator.games.musket_and_pike.rules.hexes import Hex, neighbours
from adjudicator.games.musket_and_pike.rules.state import Position, Unit


def _gap(position: Position, side: str, where: Hex) -> int:
    return nearest_enemy(position, side, where) or 0


def retreat_steps(
    position: Position, field: Field, mover: Unit, here: Hex, path: Sequence[Hex]
) -> list[Hex]:
    """Where a retreating unit at ``here`` may step next: a free map neighbour it can enter,
    not yet on its path, farther from the nearest enemy than ``here``."""
    here_gap = _gap(position, mover.side, here)
    return [
        where
        for where in neighbours(here)
        if field.on_map(where)
        and field.terrain(where).passable(mover.kind)
        and occupant(position, where) is None
        and where != mover.hex
        and where not in path
        and _gap(position, mover.side, where) > here_gap
    ]


def retreat(
    position: Position, field: Field, unit_id: str, hexes: int, events: list[Event]
) -> Position:
    """Fall back ``hexes`` hexes, each step to a free neighbour farther from the nearest enemy:
    the farthest (ties: lowest side number), or, when the side's standing instruction says
    RETREAT TOWARD MY EDGE, the one nearest its own map edge. A unit that cannot step at all
    loses SP instead."""
    mover = unit(position, unit_id)
    if mover is None or mover.hex is None or hexes <= 0:
        return position
    path: list[Hex] = []
    here = mover.hex
    toward_edge = position.standing(mover.side, "retreat") == "edge"
    home = field.home_row(mover.side)
    for _step in range(hexes):
        options = retreat_steps(position, field, mover, here, path)
        if not options:
            break
        if toward_edge:
            here = max(
                options,
                key=lambda where: (-abs(where[1] - home), _gap(position, mover.side, where)),
            )
        else:
            here = max(options, key=lambda where: _gap(position, mover.side, where))
        path.append(here)
    return _fall_back(position, field, mover, path, events)


def retreat_along(
    position: Position,
    field: Field,
    unit_id: str,
    hexes: int,
    path: Sequence[Hex],
    events: list[Event],
) -> Position | Refusal:
    """A retreat along the path the unit's player chose (STANDING RETREAT ASK ME), or why it is
    refused: each step one of ``retreat_steps``, and the full ``hexes`` unless no step is left,
    the default's own stopping rule, so the default path written out is always accepted."""
    mover = unit(position, unit_id)
    if mover is None or mover.hex is None:
        return retreat_refusals.off_the_map(unit_id)
    if (refused := retreat_refusals.too_long(unit_id, hexes, path)) is not None:
        return refused
    here = mover.hex
    for index, step in enumerate(path):
        if (refused := retreat_refusals.not_next(unit_id, step, here)) is not None:
            return refused
        options = retreat_steps(position, field, mover, here, path[:index])
        if step not in options:
            cause = retreat_refusals.cause(position, field, mover, step, path[:index])
            return retreat_refusals.blocked(
                unit_id, step, cause, retreat_refusals.open_words(options)
            )
        here = step
    if len(path) < hexes and (options := retreat_steps(position, field, mover, here, path)):
        hexes_open = retreat_refusals.open_words(options)
        return retreat_refusals.stopped_short(unit_id, hexes, here, hexes_open)
    return _fall_back(position, field, mover, list(path), events)


def _fall_back(
    position: Position, field: Field, mover: Unit, path: list[Hex], events: list[Event]
) -> Position:
    if not path:
        events.append({"type": "retreat", "unit": mover.id, "path": [], "blocked": True})
        return lose(position, mover.id, field.rules.rout_blocked_sp, events)
    events.append({"type": "retreat", "unit": mover.id, "path": [hex_json(h) for h in path]})
    return position.with_unit(replace(mover, hex=path[-1]))
