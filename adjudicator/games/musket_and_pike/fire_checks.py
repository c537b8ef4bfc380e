"""Whether a unit may fire a weapon at a target now: its kind, its state, the range, its front
and the line of sight; the refusal says why not, in the reader's language."""

from __future__ import annotations

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.field import Field, occupant
from adjudicator.games.musket_and_pike.hexes import Hex, aspect, distance, line_of_sight
from adjudicator.games.musket_and_pike.state import Position, Unit


def _blocks(position: Position, field: Field, where: Hex) -> bool:
    if not field.on_map(where):
        return True
    if field.terrain(where).blocks_sight:
        return True
    return field.rules.fire.units_block_sight and occupant(position, where) is not None


def fire_problem(
    position: Position, field: Field, firer: Unit, target: Unit | None, weapon_name: str
) -> Refusal | None:
    """Why ``firer`` may not fire ``weapon_name`` at ``target`` (None when it may)."""
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
            _("%(unit)s: the target is not an enemy unit on the map", unit=firer.id), "illegal"
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
            "illegal",
        )
    if aspect(firer.hex, firer.facing, target.hex) != "front":
        return Refusal(
            _("%(unit)s: %(target)s is not in its front", unit=firer.id, target=target.id),
            "illegal",
        )
    if not line_of_sight(firer.hex, target.hex, lambda where: _blocks(position, field, where)):
        return Refusal(
            _("%(unit)s: no line of sight to %(target)s", unit=firer.id, target=target.id),
            "illegal",
        )
    return None
