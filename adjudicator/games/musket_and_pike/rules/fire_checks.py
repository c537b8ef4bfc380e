"""Whether a unit may fire a weapon at a target now: its kind, its state, the range, its front
and the line of sight; the refusal says why not, in the reader's language."""

from __future__ import annotations

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules.field import Field, enemies, occupant
from adjudicator.games.musket_and_pike.rules.hexes import Hex, aspect, distance, line
from adjudicator.games.musket_and_pike.rules.state import Position, Unit


def _blocks(position: Position, field: Field, where: Hex) -> bool:
    if not field.on_map(where):
        return True
    if field.terrain(where).blocks_sight:
        return True
    return field.rules.fire.units_block_sight and occupant(position, where) is not None


def _hex(where: Hex) -> str:
    return f"{where[0]}.{where[1]}"


def blocker(position: Position, field: Field, a: Hex, b: Hex) -> str | None:
    """What first blocks the sight from ``a`` to ``b`` (a unit or ground, with its hex), or None."""
    for where in line(a, b)[1:-1]:
        if not _blocks(position, field, where):
            continue
        standing = occupant(position, where) if field.on_map(where) else None
        if standing is not None and not field.terrain(where).blocks_sight:
            return _("%(unit)s at %(hex)s", unit=standing.id, hex=_hex(where))
        if not field.on_map(where):
            return _("the map's edge at %(hex)s", hex=_hex(where))
        return _("%(terrain)s at %(hex)s", terrain=field.terrain(where).name, hex=_hex(where))
    return None


def fire_refusal(
    position: Position, field: Field, firer: Unit, target: Unit | None, weapon_name: str
) -> Refusal | None:
    """``fire_problem``; a refusal for the target's sake also names the targets open to it."""
    problem = fire_problem(position, field, firer, target, weapon_name)
    if problem is None or problem.code != "for-target":
        return problem
    open_to = [
        enemy.id
        for enemy in enemies(position, firer.side)
        if fire_problem(position, field, firer, enemy, weapon_name) is None
    ]
    choices = (
        _("it may fire at %(targets)s", targets=", ".join(open_to))
        if open_to
        else _("no enemy is in its range, front and sight now")
    )
    return Refusal(
        _("%(problem)s; %(choices)s", problem=problem.reason, choices=choices), "illegal"
    )


def fire_problem(
    position: Position, field: Field, firer: Unit, target: Unit | None, weapon_name: str
) -> Refusal | None:
    """Why ``firer`` may not fire ``weapon_name`` at ``target`` (None when it may); the code
    "for-target" marks a reason that another target may not have."""
    weapon = field.rules.weapons[weapon_name]
    if firer.kind not in weapon.kinds:
        return Refusal(
            _(
                "%(unit)s: a %(kind)s unit has no %(weapon)s fire",
                unit=firer.id,
                kind=firer.kind,
                weapon=weapon_name,
            ),
            "illegal",
        )
    if firer.hex is None:
        return Refusal(_("%(unit)s is not on the map", unit=firer.id), "illegal")
    if firer.morale_state == "routed" or firer.formation == "broken":
        return Refusal(
            _("%(unit)s is routed", unit=firer.id)
            if firer.morale_state == "routed"
            else _("%(unit)s is broken", unit=firer.id),
            "illegal",
        )
    if weapon_name == "salvo" and (firer.salvo or firer.formation != "normal"):
        return Refusal(
            _("%(unit)s: a salvo needs good order and no Salvo marker", unit=firer.id), "illegal"
        )
    if firer.kind == "ART" and firer.fired:
        return Refusal(_("%(unit)s: the guns have fired this turn", unit=firer.id), "illegal")
    if target is None or target.hex is None or target.side == firer.side:
        return Refusal(
            _("%(unit)s: the target is not an enemy unit on the map", unit=firer.id), "for-target"
        )
    gap = distance(firer.hex, target.hex)
    if gap > weapon.range:
        return Refusal(
            _(
                "%(unit)s: %(target)s is %(gap)s hexes away, beyond range %(range)s",
                unit=firer.id,
                target=target.id,
                gap=gap,
                range=weapon.range,
            ),
            "for-target",
        )
    if aspect(firer.hex, firer.facing, target.hex) != "front":
        return Refusal(
            _("%(unit)s: %(target)s is not in its front", unit=firer.id, target=target.id),
            "for-target",
        )
    blocked = blocker(position, field, firer.hex, target.hex)
    if blocked is not None:
        return Refusal(
            _(
                "%(unit)s: no line of sight to %(target)s, blocked by %(blocker)s",
                unit=firer.id,
                target=target.id,
                blocker=blocked,
            ),
            "for-target",
        )
    return None
