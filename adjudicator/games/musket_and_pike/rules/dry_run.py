"""Dry runs: the actions, rout and retreat modules run with dice of no game (``DRY_SEED``), to
find the faults every roll shares before a mail is filed, and to write out sample answers for
random play-outs (the conformance test) without playing them.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules import actions
from adjudicator.games.musket_and_pike.rules.field import (
    contacts,
    enemies,
    field_for,
    nearest_enemy,
)
from adjudicator.games.musket_and_pike.rules.fire_checks import fire_problem
from adjudicator.games.musket_and_pike.rules.hexes import aspect, distance
from adjudicator.games.musket_and_pike.rules.movement import first_legal_moves
from adjudicator.games.musket_and_pike.rules.resolvers import unit_resolvers
from adjudicator.games.musket_and_pike.rules.retreat import retreat
from adjudicator.games.musket_and_pike.rules.state import Position

DRY_SEED = b"musket-and-pike dry run"
# Random play-outs (the conformance test) try a few actions per unit, not every one.
MOVES_PER_UNIT = 2


def check_actions(position: Position, owner: str, orders: list[JSON]) -> Refusal | None:
    """Why the actions module refuses these unit actions of the wing ``owner``, with dice of no
    game (None: it takes them); at the rout phase, why the rout module refuses the side
    ``owner``'s chosen paths, and at a retreat the chosen path. Only faults every roll shares
    show up here."""
    dry = Chance(DRY_SEED, "dry", 0)
    if position.step == "rout_paths":
        done = unit_resolvers().rout(position, dry, owner, tuple(orders))
        return done if isinstance(done, Refusal) else None
    if position.step == "retreat_path":
        done = unit_resolvers().retreat(position, dry, tuple(orders))
        return done if isinstance(done, Refusal) else None
    moved = actions.resolve_activation(position, owner, orders, dry)
    return moved if isinstance(moved, Refusal) else None


def written_routs(state: Position, side: str) -> list[JSON]:
    """The default rout moves written out as chosen paths: what a player who copies the
    default would mail (random play-outs use it to exercise the chosen-path route)."""
    done = unit_resolvers().rout(state, Chance(DRY_SEED, "dry", 0), side, ())
    assert not isinstance(done, Refusal), done
    paths: dict[str, JSON] = {}
    for event in done[1]:
        data = event.data or {}
        if data.get("type") == "rout":
            paths[str(data["unit"])] = [list(h) for h in data.get("path", [])]
    return [{"unit": u, "action": "rout", "path": paths.get(u, [])} for u in state.routers(side)]


def written_retreat(state: Position) -> list[JSON]:
    """The default retreat written out as a chosen path (as ``written_routs``)."""
    unit_id, hexes = state.retreats[0]
    events: list[JSON] = []
    retreat(state, field_for(state), unit_id, hexes, events)  # only its event is wanted
    path: JSON = next((e["path"] for e in events if e.get("type") == "retreat"), [])
    return [{"unit": unit_id, "action": "retreat", "path": path}]


def action_sets(position: Position, wing_id: str) -> list[list[JSON]]:
    """A sample of legal unit action sets for the wing (single actions, and one for every unit
    together), each checked by a dry run: enough for random play-outs to fight."""
    field = field_for(position)
    order = position.wing(wing_id).order
    chosen: list[list[JSON]] = []
    firsts: list[JSON] = []
    for unit in position.units:
        if unit.wing != wing_id or unit.hex is None:
            continue
        found: list[JSON] = []
        for candidate in _unit_candidates(position, field, unit, order):
            if check_actions(position, wing_id, [candidate]) is None:
                found.append(candidate)
        chosen += [[c] for c in found]
        if found:
            firsts.append(found[0])
    if len(firsts) > 1 and check_actions(position, wing_id, firsts) is None:
        chosen.append(firsts)
    return chosen


def _unit_candidates(position: Position, field: Any, unit: Any, order: str) -> list[JSON]:
    assert unit.hex is not None
    if unit.morale_state == "routed":
        return [{"unit": unit.id, "action": "rally"}]
    out: list[JSON] = []
    weapon = "artillery" if unit.kind == "ART" else "musket"
    for enemy in enemies(position, unit.side):
        assert enemy.hex is not None
        if (
            unit.id
            and distance(unit.hex, enemy.hex) == 1
            and aspect(unit.hex, unit.facing, enemy.hex) == "front"
        ):
            out.append({"unit": unit.id, "action": "charge", "target": enemy.id})
        if fire_problem(position, field, unit, enemy, weapon) is None:
            out.append({"unit": unit.id, "action": "fire", "target": enemy.id})
    if unit.formation != "normal":
        out.append({"unit": unit.id, "action": "reform"})
    if unit.morale_state == "shaken":
        out.append({"unit": unit.id, "action": "rally"})
    if not contacts(position, unit.side, unit.hex):
        nearest = first_legal_moves(
            position,
            field,
            unit,
            order,
            lambda end: (nearest_enemy(position, unit.side, end) or 0, end),
            MOVES_PER_UNIT,
        )
        for _, moves in nearest:
            path = [[c, r] for c, r in moves]
            out.append({"unit": unit.id, "action": "move", "path": path})
    return out
