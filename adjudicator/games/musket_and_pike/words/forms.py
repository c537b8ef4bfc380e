"""The order forms a decision's mail lists: what a player may write back now, short enough for a
mail (the set-up's and the activation's as patterns, the others as the answers themselves)."""

from __future__ import annotations

from adjudicator.core.contract import Decision
from adjudicator.core.said import _, ngettext
from adjudicator.games.musket_and_pike.rules.state import Position


def order_forms(state: Position, seat: str, decision: Decision) -> tuple[str, ...]:
    """The order forms open now, short enough for a mail: the set-up's and the activation's are
    patterns, the others the answers themselves."""
    if state.step == "setup_orders":
        wings = " ".join(f"{w.id}=<order>" for w in state.wings if w.side == seat)
        return (f"ORDERS {wings}", "<order>: CHARGE | MAKE READY | RECEIVE CHARGE | RALLY")
    if state.step == "actions" and state.current is not None:
        units = [u.id for u in state.units if u.wing == state.current and u.hex is not None]
        return (
            _(
                "<unit> MOVE <hex> <hex> ... [FACE <dir>]   units: %(units)s",
                units=", ".join(units),
            ),
            "<unit> FIRE | SALVO | CHARGE <enemy unit>",
            "<unit> PISTOL [<hex> ...] <enemy unit>",
            "<unit> RALLY | REFORM | HOLD",
            "NO ACTIONS",
        )
    if state.step == "rout_paths":
        running = ", ".join(state.routers(seat))
        return (
            _("<unit> ROUT <hex> <hex> ...   routed: %(units)s", units=running),
            _("DEFAULT ROUTS   (every router runs away from the nearest enemy)"),
        )
    if state.step == "retreat_path" and state.retreats:
        unit_id, hexes = state.retreats[0]
        return (
            ngettext(
                "%(unit)s RETREAT <hex> ...   (%(num)s hex, each farther from the enemy)",
                "%(unit)s RETREAT <hex> ...   (%(num)s hexes, each farther from the enemy)",
                hexes,
                unit=unit_id,
            ),
            _("DEFAULT RETREAT   (it falls back away from the nearest enemy)"),
        )
    return decision.legal
