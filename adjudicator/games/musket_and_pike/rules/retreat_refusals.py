"""Why a retreat or rout path the player chose is refused: the cause (the map's edge, the ground,
the unit in the way, the path itself, the enemy) and the hexes that are open, in words."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules.field import Field, occupant
from adjudicator.games.musket_and_pike.rules.hexes import Hex, neighbours
from adjudicator.games.musket_and_pike.rules.state import Position, Unit


def hex_name(where: Hex) -> str:
    return f"{where[0]}.{where[1]}"


def off_the_map(unit_id: str) -> Refusal:
    """A path given for a unit that is not on the map (gone since the question was asked)."""
    return Refusal(_("%(unit)s is not on the map", unit=unit_id), "illegal")


def too_long(unit_id: str, hexes: int, path: Sequence[Hex], rout: bool = False) -> Refusal | None:
    """A path of more steps than the ``hexes`` the unit falls back (or, ``rout``, routs) as a
    refusal; None if it has no more."""
    if len(path) <= hexes:
        return None
    values = {"unit": unit_id, "hexes": hexes, "given": len(path)}
    if rout:
        return Refusal(_("%(unit)s routs %(hexes)s hexes, not %(given)s", **values), "illegal")
    return Refusal(_("%(unit)s falls back %(hexes)s hexes, not %(given)s", **values), "illegal")


def not_next(unit_id: str, step: Hex, here: Hex) -> Refusal | None:
    """A path's ``step`` that is not next to ``here``, the hex before it, as a refusal; None if
    it is. A retreat and a rout walk their paths the same way."""
    if step in neighbours(here):
        return None
    why = _(
        "%(unit)s: %(hex)s is not next to %(other)s",
        unit=unit_id,
        hex=hex_name(step),
        other=hex_name(here),
    )
    return Refusal(why, "illegal")


def blocked(unit_id: str, step: Hex, cause: str, open_hexes: str, rout: bool = False) -> Refusal:
    """A path's ``step`` the unit may not fall back (or, ``rout``, rout) into: the ``cause`` and
    the hexes open instead (``open_words``)."""
    values = {"unit": unit_id, "hex": hex_name(step), "cause": cause, "open": open_hexes}
    if rout:
        why = _("%(unit)s: it cannot rout into %(hex)s: %(cause)s; %(open)s", **values)
    else:
        why = _("%(unit)s: it cannot fall back into %(hex)s: %(cause)s; %(open)s", **values)
    return Refusal(why, "illegal")


def stopped_short(unit_id: str, hexes: int, here: Hex, open_hexes: str | None) -> Refusal:
    """A path that stops at ``here`` though a hex farther from the enemy is open: a retreat's
    refusal names the hexes open (``open_hexes``, from ``open_words``), a rout's (None) says
    ``here`` has one."""
    values = {"unit": unit_id, "hexes": hexes, "hex": hex_name(here)}
    if open_hexes is not None:
        why = _(
            "%(unit)s falls back %(hexes)s hexes while a hex farther from the enemy is open:"
            " from %(hex)s %(open)s",
            open=open_hexes,
            **values,
        )
    else:
        why = _(
            "%(unit)s routs %(hexes)s hexes while a hex farther from the enemy is open:"
            " %(hex)s has one",
            **values,
        )
    return Refusal(why, "illegal")


def cause(position: Position, field: Field, mover: Unit, step: Hex, path: Sequence[Hex]) -> str:
    """Why ``mover`` may not fall back into ``step``, one of ``retreat_steps``' conditions: the
    first that fails, the distance from the enemy being the one left."""
    if step == mover.hex or step in path:
        return _("the path has been there already")
    if not field.on_map(step):
        return _("it is off the map")
    ground = field.terrain(step)
    if not ground.passable(mover.kind):
        return _("%(kind)s may not enter %(terrain)s", kind=mover.kind, terrain=ground.name)
    standing = occupant(position, step)
    if standing is not None:
        return _("%(unit)s stands there", unit=standing.id)
    return _("it is no farther from the enemy")


def open_words(options: Sequence[Hex], rout: bool = False) -> str:
    """The hexes a retreat (or a ``rout``) may step into next, or that none is."""
    if not options:
        return _("no hex is open to it")
    hexes = ", ".join(hex_name(h) for h in options)
    if rout:
        return _("it may rout into %(hexes)s", hexes=hexes)
    return _("it may fall back into %(hexes)s", hexes=hexes)
