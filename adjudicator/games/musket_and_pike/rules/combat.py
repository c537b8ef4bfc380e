"""Fire, close combat and morale: table lookups on one d10 with listed modifiers.

Every die is drawn from ``Chance`` with a label naming its purpose, and recorded again as a
"roll" event carrying the modifiers and the total, so a player can check each result against the
tables in ``ruleset.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.rules.data import CombatRow, FireRow, Weapon
from adjudicator.games.musket_and_pike.rules.field import (
    Event,
    Field,
    add_loss,
    hex_json,
    leader_bonus,
    unit,
)
from adjudicator.games.musket_and_pike.rules.hexes import Hex, aspect, distance
from adjudicator.games.musket_and_pike.rules.state import FORMATIONS, MORALE_STATES, Position, Unit

Modifiers = list[tuple[str, int]]


def roll(
    chance: Chance, field: Field, purpose: str, modifiers: Modifiers, events: list[Event]
) -> tuple[int, int]:
    """One d10 for ``purpose``; returns (natural, modified) and records both with the modifiers."""
    natural = chance.roll(purpose, field.rules.die)
    total = natural + sum(value for _, value in modifiers)
    events.append(
        {
            "type": "roll",
            "purpose": purpose,
            "die": natural,
            "modifiers": [[name, value] for name, value in modifiers if value],
            "total": total,
        }
    )
    return natural, total


def _worse(states: Sequence[str], state: str, steps: int = 1) -> str:
    return states[min(states.index(state) + steps, len(states) - 1)]


def lose(position: Position, unit_id: str, hits: int, events: list[Event]) -> Position:
    """Take ``hits`` SP from a unit; at 0 SP it is eliminated. The side's lost SP grow."""
    target = unit(position, unit_id)
    if target is None or target.hex is None or hits <= 0:
        return position
    taken = min(hits, target.sp)
    changed = replace(target, sp=target.sp - taken, casualties=target.casualties + taken)
    events.append({"type": "loss", "unit": unit_id, "sp": taken, "left": changed.sp})
    if changed.sp == 0:
        changed = replace(changed, hex=None)
        events.append({"type": "eliminated", "unit": unit_id, "at": hex_json(target.hex)})
    return add_loss(position.with_unit(changed), target.side, taken)


def eliminate(position: Position, unit_id: str, why: str, events: list[Event]) -> Position:
    """Remove a unit with all its SP (abandoned guns, routers off the map)."""
    target = unit(position, unit_id)
    if target is None or target.hex is None:
        return position
    events.append({"type": "eliminated", "unit": unit_id, "at": hex_json(target.hex), "why": why})
    changed = replace(target, hex=None, sp=0, casualties=target.casualties + target.sp)
    return add_loss(position.with_unit(changed), target.side, target.sp)


def disorder(
    position: Position, unit_id: str, events: list[Event], cap: str = "broken"
) -> Position:
    """One step worse formation (normal -> disordered -> broken), never past ``cap``."""
    target = unit(position, unit_id)
    if target is None or target.hex is None:
        return position
    worse = _worse(FORMATIONS, target.formation)
    if FORMATIONS.index(worse) > FORMATIONS.index(cap) or worse == target.formation:
        return position
    events.append({"type": "formation", "unit": unit_id, "from": target.formation, "to": worse})
    return position.with_unit(replace(target, formation=worse))


def morale_check(
    position: Position,
    field: Field,
    unit_id: str,
    mod: int,
    chance: Chance,
    purpose: str,
    events: list[Event],
) -> Position:
    """Pass on d10 <= morale + modifiers; a failure worsens the morale state one step, or routs
    at once when it fails by the ruleset's margin. A routed unit's formation is broken."""
    target = unit(position, unit_id)
    if target is None or target.hex is None:
        return position
    rules = field.rules.morale
    modifiers: Modifiers = [
        ("table", mod),
        ("shaken", rules.shaken if target.morale_state == "shaken" else 0),
        ("disordered", rules.disordered if target.formation == "disordered" else 0),
        ("broken", rules.broken if target.formation == "broken" else 0),
        ("leader", leader_bonus(position, target.side, target.hex)),
    ]
    goal = target.morale + sum(value for _, value in modifiers)
    natural = chance.roll(purpose, field.rules.die)
    events.append(
        {
            "type": "roll",
            "purpose": purpose,
            "die": natural,
            "modifiers": [[name, value] for name, value in modifiers if value],
            "base": target.morale,
            "target": goal,
            "total": natural,
        }
    )
    if natural <= goal:
        events.append({"type": "morale", "unit": unit_id, "passed": True})
        return position
    steps = 2 if natural - goal >= rules.rout_margin else 1
    state = _worse(MORALE_STATES, target.morale_state, steps)
    changed = replace(target, morale_state=state)
    if state == "routed":
        changed = replace(changed, formation="broken")
    events.append(
        {
            "type": "morale",
            "unit": unit_id,
            "passed": False,
            "from": target.morale_state,
            "to": state,
        }
    )
    return position.with_unit(changed)


# --- fire ---------------------------------------------------------------------------------------


def fire_row(weapon: Weapon, total: int) -> FireRow | None:
    """The last row whose ``min`` the modified roll reaches; None: no effect."""
    found = None
    for row in weapon.table:
        if total >= row.min:
            found = row
    return found


def fire_modifiers(
    position: Position, field: Field, firer: Unit, target: Unit, weapon: Weapon
) -> Modifiers:
    assert firer.hex is not None and target.hex is not None
    mods = field.rules.fire
    strength = 0
    if weapon.use_strength:
        for low, value in mods.strength:
            if firer.sp >= low:
                strength = value
    side_on = aspect(target.hex, target.facing, firer.hex) != "front"
    return [
        ("range", weapon.range_mods[distance(firer.hex, target.hex) - 1]),
        ("strength", strength),
        ("firer disordered", mods.firer_disordered if firer.formation == "disordered" else 0),
        ("firer shaken", mods.firer_shaken if firer.morale_state == "shaken" else 0),
        ("flank", mods.target_flank if side_on else 0),
        ("target kind", mods.target_kind.get(target.kind, 0)),
        ("cover", -field.terrain(target.hex).cover),
    ]


def resolve_fire(
    position: Position,
    field: Field,
    firer_id: str,
    target_id: str,
    weapon_name: str,
    chance: Chance,
    events: list[Event],
) -> Position:
    """One fire already checked by ``fire_problem``: roll, look up, apply hits and the check."""
    firer, target = unit(position, firer_id), unit(position, target_id)
    assert firer is not None and target is not None
    weapon = field.rules.weapons[weapon_name]
    modifiers = fire_modifiers(position, field, firer, target, weapon)
    _natural, total = roll(
        chance, field, f"fire {weapon_name} {firer_id}>{target_id}", modifiers, events
    )
    row = fire_row(weapon, total)
    events.append(
        {
            "type": "fire",
            "weapon": weapon_name,
            "unit": firer_id,
            "target": target_id,
            "from": hex_json(firer.hex),
            "to": hex_json(target.hex),
            "hits": row.hits if row else 0,
            "check": row.check if row else None,
        }
    )
    if weapon_name == "salvo":
        position = position.with_unit(replace(firer, salvo=True))
    if firer.kind == "ART":
        position = position.with_unit(replace(firer, fired=True))
    if row is None:
        return position
    position = lose(position, target_id, row.hits, events)
    if row.check is not None:
        position = morale_check(
            position, field, target_id, row.check, chance, f"morale {target_id}", events
        )
    return position


# --- close combat -------------------------------------------------------------------------------


def combat_row(field: Field, total: int) -> CombatRow:
    found = field.rules.close_combat.table[0]
    for row in field.rules.close_combat.table:
        if total >= row.min:
            found = row
    return found


def close_combat_modifiers(
    position: Position, field: Field, attackers: Sequence[Unit], defender: Unit
) -> Modifiers:
    assert defender.hex is not None
    rules = field.rules.close_combat
    lead = attackers[0]
    sides = [aspect(defender.hex, defender.facing, a.hex) for a in attackers if a.hex is not None]
    angle = rules.rear if "rear" in sides else rules.flank if "flank" in sides else 0
    attack_sp, defend_sp = sum(a.sp for a in attackers), max(defender.sp, 1)
    odds = 0
    for ratio, value in rules.odds:
        if attack_sp >= ratio * defend_sp:
            odds = value
    for ratio, value in rules.odds_against:
        if defend_sp >= ratio * max(attack_sp, 1):
            odds = value
    return [
        ("kinds", rules.kind_vs.get((lead.kind, defender.kind), 0)),
        ("extra attackers", rules.extra_attacker * (len(attackers) - 1)),
        ("attacker disordered", rules.attacker_disordered if lead.formation != "normal" else 0),
        ("attacker shaken", rules.attacker_shaken if lead.morale_state == "shaken" else 0),
        ("defender disordered", rules.defender_disordered if defender.formation != "normal" else 0),
        ("defender shaken", rules.defender_shaken if defender.morale_state == "shaken" else 0),
        ("flank or rear", angle),
        ("odds", odds),
        ("defender's ground", -field.terrain(defender.hex).defence),
    ]


def _leader_losses(position: Position, hexes: Sequence[Hex], events: list[Event]) -> Position:
    for leader in position.leaders:
        if leader.hex is not None and leader.hex in hexes:
            events.append({"type": "leader_lost", "leader": leader.id, "at": hex_json(leader.hex)})
            position = position.with_leader(replace(leader, hex=None, lost_this_turn=True))
    return position


def close_combat(
    position: Position,
    field: Field,
    attacker_ids: Sequence[str],
    defender_id: str,
    chance: Chance,
    events: list[Event],
) -> tuple[Position, tuple[tuple[str, int], ...]]:
    """Attackers (the first leads) against one defender: one roll on the close combat table.
    Returns the position and the retreats the result calls for, (unit, hexes), the defender's
    first: the caller makes them (``retreat``) or asks for their paths.

    Attackers no longer able to fight (gone, routed, broken, not adjacent) drop out; with none left
    the combat does not happen. A natural face listed in ``leader_loss`` loses every leader in the
    hex of a unit in the combat: each attacker still fighting and the defender."""
    defender = unit(position, defender_id)
    if defender is None or defender.hex is None:
        return position, ()
    attackers = [
        a
        for a in (unit(position, ident) for ident in attacker_ids)
        if a is not None
        and a.hex is not None
        and a.morale_state != "routed"
        and a.formation != "broken"
        and distance(a.hex, defender.hex) == 1
    ]
    if not attackers:
        events.append({"type": "close_combat", "target": defender_id, "cancelled": True})
        return position, ()
    lead = attackers[0]
    assert lead.hex is not None
    modifiers = close_combat_modifiers(position, field, attackers, defender)
    natural, total = roll(chance, field, f"close combat {defender_id}", modifiers, events)
    row = combat_row(field, total)
    events.append(
        {
            "type": "close_combat",
            "attackers": [a.id for a in attackers],
            "target": defender_id,
            "from": hex_json(lead.hex),
            "to": hex_json(defender.hex),
            "result": {
                "a_sp": row.a_sp,
                "d_sp": row.d_sp,
                "a_disorder": row.a_disorder,
                "d_disorder": row.d_disorder,
                "a_check": row.a_check,
                "d_check": row.d_check,
                "a_retreat": row.a_retreat,
                "d_retreat": row.d_retreat,
            },
        }
    )
    if natural in field.rules.leader_loss:
        # Every unit in the combat puts the leaders with it at risk, not the lead's alone.
        fighting = [a.hex for a in attackers if a.hex is not None] + [defender.hex]
        position = _leader_losses(position, fighting, events)
    position = lose(position, lead.id, row.a_sp, events)
    position = lose(position, defender_id, row.d_sp, events)
    if row.a_disorder:
        position = disorder(position, lead.id, events)
    if row.d_disorder:
        position = disorder(position, defender_id, events)
    if row.a_check is not None:
        position = morale_check(
            position, field, lead.id, row.a_check, chance, f"morale {lead.id}", events
        )
    if row.d_check is not None:
        position = morale_check(
            position, field, defender_id, row.d_check, chance, f"morale {defender_id}", events
        )
    owed = ((defender_id, row.d_retreat), (lead.id, row.a_retreat))
    return position, tuple((who, hexes) for who, hexes in owed if hexes > 0)
