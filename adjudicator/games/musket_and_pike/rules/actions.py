"""One activation's actions (3.2 C) and close combat (3.2 D) for a wing, as a pure function.

``orders`` is a list of JSON objects, at most one per unit of the wing (a unit left out holds):

    {"unit": "R-HI-1", "action": "move", "path": [[3, 4], [3, 5]], "facing": 2}
    {"unit": "R-HI-1", "action": "fire", "target": "P-LI-2"}       # musket, or the guns for ART
    {"unit": "R-HI-1", "action": "salvo", "target": "P-LI-2"}      # HI only; sets its Salvo marker
    {"unit": "R-CAV-1", "action": "pistol", "path": [...], "target": "P-LI-2"}  # either or both
    {"unit": "R-HI-1", "action": "rally"}   /   {"unit": ..., "action": "reform"}
    {"unit": "R-CAV-1", "action": "charge", "target": "P-HI-1", "path": [...], "facing": 1}
    {"leader": "R-WC-A", "path": [[2, 3]]}  # the wing's commander (or its army commander) moves

Actions happen in the listed order, each checked against the position the earlier ones left;
then every charge declaration is fought, grouped by target in order of first declaration. Any
problem rejects the whole activation with a message naming the unit and why, so a player never
gets half an activation.

Events are JSON objects with a "type": "move", "leader_move", "roll" (purpose, die, modifiers,
total; a morale roll also has its target), "fire", "loss", "eliminated", "formation", "morale",
"rally", "reform", "declare", "close_combat", "retreat", "leader_lost", "rout".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.rules.combat import (
    close_combat,
    disorder,
    resolve_fire,
    roll,
)
from adjudicator.games.musket_and_pike.rules.data import Ruleset
from adjudicator.games.musket_and_pike.rules.field import (
    Event,
    Field,
    contacts,
    field_for,
    hex_json,
    leader,
    leader_bonus,
    unit,
)
from adjudicator.games.musket_and_pike.rules.fire_checks import fire_refusal
from adjudicator.games.musket_and_pike.rules.handover import CHOOSE_PATHS
from adjudicator.games.musket_and_pike.rules.hexes import Hex, aspect, distance, facing_towards
from adjudicator.games.musket_and_pike.rules.movement import check_leader_path, check_move
from adjudicator.games.musket_and_pike.rules.retreat import retreat, retreat_along, retreat_steps
from adjudicator.games.musket_and_pike.rules.scenario import Scenario
from adjudicator.games.musket_and_pike.rules.state import FORMATIONS, MORALE_STATES, Position, Unit
from adjudicator.games.musket_and_pike.rules.unit_orders import Action, parse_orders

# Rally and reform as a refusal names them.
IMPROVING = {"rally": N_("rally"), "reform": N_("reform")}


def _move(
    position: Position,
    field: Field,
    act: Action,
    order: str,
    events: list[Event],
    facing: int | None = None,
) -> Position | Refusal:
    mover = unit(position, act.actor)
    assert mover is not None and mover.hex is not None
    if act.path or act.action == "move":
        cost = check_move(position, field, mover, act.path, order)
        if isinstance(cost, Refusal):
            return cost
    start = mover.hex
    end = act.path[-1] if act.path else start
    chosen = act.facing if act.facing is not None else facing
    moved = replace(mover, hex=end, facing=mover.facing if chosen is None else chosen)
    position = position.with_unit(moved)
    if act.path or moved.facing != mover.facing:
        events.append(
            {
                "type": "move",
                "unit": mover.id,
                "path": [hex_json(h) for h in (start, *act.path)],
                "facing": moved.facing,
            }
        )
    if any(mover.kind in field.terrain(where).disorders for where in act.path):
        position = disorder(position, mover.id, events, cap="disordered")
    return position


def _improve(
    position: Position, field: Field, act: Action, order: str, chance: Chance, events: list[Event]
) -> Position | Refusal:
    """Rally (morale one step better) or reform (formation one step better) on one d10."""
    mover = unit(position, act.actor)
    assert mover is not None and mover.hex is not None
    limits = field.rules.orders[order]
    if contacts(position, mover.side, mover.hex):
        return Refusal(
            _(
                "%(unit)s: no %(action)s next to an enemy",
                unit=mover.id,
                action=_(IMPROVING[act.action]),
            ),
            "illegal",
        )
    modifiers = [
        ("order", limits.rally_bonus),
        ("leader", leader_bonus(position, mover.side, mover.hex)),
    ]
    if act.action == "rally":
        if mover.morale_state == "good":
            return Refusal(_("%(unit)s: morale is already good", unit=mover.id), "illegal")
        goal, modifiers = mover.morale, [("rally", field.rules.rally_mod), *modifiers]
        states, state = MORALE_STATES, mover.morale_state
    else:
        if mover.formation == "normal" or mover.morale_state == "routed":
            return Refusal(
                _(
                    "%(unit)s: reform needs a disordered or broken unit that is not routed",
                    unit=mover.id,
                ),
                "illegal",
            )
        goal, states, state = field.rules.reform_target, FORMATIONS, mover.formation
    base = goal
    goal += sum(value for _, value in modifiers)
    natural, _total = roll(chance, field, f"{act.action} {mover.id}", [], events)
    modified = [[n, v] for n, v in modifiers if v]
    events[-1].update({"modifiers": modified, "base": base, "target": goal})
    success = natural <= goal
    better = states[states.index(state) - 1] if success else state
    events.append({"type": act.action, "unit": mover.id, "passed": success, "to": better})
    if not success:
        return position
    if act.action == "rally":
        return position.with_unit(replace(mover, morale_state=better))
    return position.with_unit(replace(mover, formation=better))


def _declare(
    position: Position, field: Field, act: Action, order: str, events: list[Event]
) -> Position | Refusal:
    mover = unit(position, act.actor)
    target = unit(position, act.target or "")
    assert mover is not None
    if target is None or target.hex is None or target.side == mover.side:
        return Refusal(
            _(
                "%(unit)s: %(target)s is not an enemy unit on the map",
                unit=mover.id,
                target=act.target,
            ),
            "illegal",
        )
    facing = None
    if act.path:
        facing = facing_towards(act.path[-1], target.hex)
    elif mover.hex is not None:
        facing = facing_towards(mover.hex, target.hex)
    moved = _move(position, field, act, order, events, facing=facing)
    if isinstance(moved, Refusal):
        return moved
    mover = unit(moved, act.actor)
    assert mover is not None and mover.hex is not None
    if distance(mover.hex, target.hex) != 1:
        why = _("%(unit)s: %(target)s is not next to it", unit=mover.id, target=target.id)
        return Refusal(_charge_choices(moved, mover, why), "illegal")
    if aspect(mover.hex, mover.facing, target.hex) != "front":
        why = _("%(unit)s: %(target)s is not in its front", unit=mover.id, target=target.id)
        return Refusal(_charge_choices(moved, mover, why), "illegal")
    events.append({"type": "declare", "unit": mover.id, "target": target.id})
    return moved


def _charge_choices(position: Position, mover: Unit, why: str) -> str:
    """A refused charge's reason with the enemies the unit may charge from where it stands."""
    assert mover.hex is not None
    open_to = sorted(
        enemy
        for enemy in contacts(position, mover.side, mover.hex)
        if (found := unit(position, enemy)) is not None
        and found.hex is not None
        and aspect(mover.hex, mover.facing, found.hex) == "front"
    )
    choices = (
        _("it may charge %(targets)s", targets=", ".join(open_to))
        if open_to
        else _("no enemy is next to its front")
    )
    return _("%(problem)s; %(choices)s", problem=why, choices=choices)


def _act(
    position: Position,
    field: Field,
    act: Action,
    order: str,
    chance: Chance,
    events: list[Event],
    declared: dict[str, list[str]],
) -> Position | Refusal:
    limits = field.rules.orders[order]
    wording = order.replace("_", " ")
    if act.leader:
        chief = leader(position, act.actor)
        assert chief is not None
        problem = check_leader_path(position, field, chief, act.path)
        if problem is not None:
            return problem
        if act.path:
            events.append(
                {
                    "type": "leader_move",
                    "leader": chief.id,
                    "path": [hex_json(h) for h in (chief.hex, *act.path)],
                }
            )
            position = position.with_leader(replace(chief, hex=act.path[-1]))
        return position
    mover = unit(position, act.actor)
    assert mover is not None
    if mover.hex is None:
        return Refusal(_("%(unit)s is no longer on the map", unit=mover.id), "illegal")
    if mover.morale_state == "routed" and act.action != "rally":
        return Refusal(_("%(unit)s is routed: it may only rally", unit=mover.id), "illegal")
    if act.action in ("rally", "reform"):
        if not limits.rally:
            return Refusal(
                _(
                    "%(unit)s: no %(action)s under %(order)s",
                    unit=mover.id,
                    action=_(IMPROVING[act.action]),
                    order=wording,
                ),
                "illegal",
            )
        return _improve(position, field, act, order, chance, events)
    if act.action == "move":
        return _move(position, field, act, order, events)
    if act.action in ("fire", "salvo"):
        weapon = (
            "salvo" if act.action == "salvo" else "artillery" if mover.kind == "ART" else "musket"
        )
        target = unit(position, act.target or "")
        problem = fire_refusal(position, field, mover, target, weapon)
        if problem is not None:
            return problem
        if act.facing is not None:
            return Refusal(_("%(unit)s: a firing unit does not turn", unit=mover.id), "illegal")
        return resolve_fire(position, field, mover.id, str(act.target), weapon, chance, events)
    if act.action == "pistol":
        moved = _move(position, field, act, order, events)
        if isinstance(moved, Refusal) or act.target is None:
            return moved
        firer = unit(moved, mover.id)
        assert firer is not None
        problem = fire_refusal(moved, field, firer, unit(moved, act.target), "pistol")
        if problem is not None:
            return problem
        return resolve_fire(moved, field, mover.id, act.target, "pistol", chance, events)
    # charge: a close combat declaration, after an optional move into contact
    return _charge(position, field, act, order, events, declared)


def _charge(
    position: Position,
    field: Field,
    act: Action,
    order: str,
    events: list[Event],
    declared: dict[str, list[str]],
) -> Position | Refusal:
    mover = unit(position, act.actor)
    assert mover is not None
    if not field.rules.orders[order].close_combat:
        wording = order.replace("_", " ")
        return Refusal(
            _("%(unit)s: no close combat under %(order)s", unit=mover.id, order=wording),
            "illegal",
        )
    if mover.kind not in field.rules.close_combat.kinds:
        return Refusal(
            _(
                "%(unit)s: %(kind)s units do not fight in close combat",
                unit=mover.id,
                kind=mover.kind,
            ),
            "illegal",
        )
    if mover.formation == "broken":
        return Refusal(_("%(unit)s is broken and cannot charge", unit=mover.id), "illegal")
    declared_position = _declare(position, field, act, order, events)
    if not isinstance(declared_position, Refusal):
        declared.setdefault(str(act.target), []).append(mover.id)
    return declared_position


def resolve_activation(
    position: Position,
    wing_id: str,
    orders: Sequence[Mapping[str, Any]],
    chance: Chance,
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
) -> tuple[Position, list[Event]] | Refusal:
    """The wing's actions and close combats; or why the orders cannot be carried out."""
    parsed = parse_orders(position, wing_id, orders)
    if parsed and isinstance(parsed[0], str):
        return Refusal("; ".join(str(problem) for problem in parsed), "malformed")
    actions = [act for act in parsed if isinstance(act, Action)]
    field = field_for(position, rules, battle)
    order = position.wing(wing_id).order
    events: list[Event] = []
    declared: dict[str, list[str]] = {}
    for act in actions:
        done = _act(position, field, act, order, chance, events, declared)
        if isinstance(done, Refusal):
            return done
        position = done
    combats = tuple((target, tuple(attackers)) for target, attackers in declared.items())
    return fight(replace(position, combats=combats), field, chance, events), events


def asks_path(position: Position, field: Field, unit_id: str, hexes: int) -> bool:
    """Whether the retreat is the unit's player's to choose: RETREAT ASK ME, and somewhere to
    go (a unit that cannot step at all just loses SP, with nothing to ask)."""
    mover = unit(position, unit_id)
    return (
        hexes > 0
        and mover is not None
        and mover.hex is not None
        and position.standing(mover.side, "retreat") == CHOOSE_PATHS
        and bool(retreat_steps(position, field, mover, mover.hex, ()))
    )


def fight(position: Position, field: Field, chance: Chance, events: list[Event]) -> Position:
    """Make the owed retreats and fight the declared close combats (``position.retreats``, then
    ``position.combats``) in order, until all are done or a retreat's path is to be asked for:
    the position is then returned with that retreat first in ``retreats``."""
    while True:
        while position.retreats:
            (unit_id, hexes), rest = position.retreats[0], position.retreats[1:]
            if asks_path(position, field, unit_id, hexes):
                return position
            position = replace(retreat(position, field, unit_id, hexes, events), retreats=rest)
        if not position.combats:
            return position
        (target, attackers), rest_combats = position.combats[0], position.combats[1:]
        position = replace(position, combats=rest_combats)
        position, owed = close_combat(position, field, attackers, target, chance, events)
        position = replace(position, retreats=owed)


def resolve_retreat(
    position: Position,
    path: Sequence[Hex] | None,
    chance: Chance,
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
) -> tuple[Position, list[Event]] | Refusal:
    """The retreat asked for (the first of ``position.retreats``) along the chosen path, or by
    default with None; then the activation's close combat goes on (``fight``). A refused path is
    a Refusal and nothing moves."""
    if not position.retreats:
        return Refusal(_("no retreat is owed"), "not-owed")
    field = field_for(position, rules, battle)
    (unit_id, hexes), rest = position.retreats[0], position.retreats[1:]
    events: list[Event] = []
    if path is None:
        moved: Position | Refusal = retreat(position, field, unit_id, hexes, events)
    else:
        moved = retreat_along(position, field, unit_id, hexes, path, events)
    if isinstance(moved, Refusal):
        return moved
    return fight(replace(moved, retreats=rest), field, chance, events), events
