"""The position in words, from a view: the plain-text mail's map and the picture's alt text.

Hexes are written column.row, as the map labels them and as orders name them.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.musket_and_pike.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.state import load

JSON = Any
ORDER_WORDS = {
    "charge": "Charge",
    "make_ready": "Make Ready",
    "receive_charge": "Receive Charge",
    "rally": "Rally",
}
PHASE_WORDS = {
    "setup": "set-up (secret wing orders)",
    "initiative": "initiative phase",
    "activation": "activation phase",
    "rout": "rout phase",
    "markers": "marker removal",
    "over": "the battle is over",
}


def _where(where: tuple[int, int] | None) -> str:
    return "off the map" if where is None else f"{where[0]}.{where[1]}"


def describe(view: JSON) -> str:
    position = load(view["position"])
    names: dict[str, str] = view.get("names", {})
    sides: dict[str, str] = view["scenario"]["sides"]
    lines = [
        f"Musket & Pike: {view['scenario']['title']}. Turn {position.turn} of "
        f"{position.last_turn}, {PHASE_WORDS.get(position.phase, position.phase)}.",
    ]
    if position.phase == "over":
        winner = sides.get(position.winner or "", "nobody")
        lines.append(
            f"Result: {winner} wins ({position.end_reason})."
            if position.winner
            else f"Result: no winner ({position.end_reason})."
        )
    if position.initiative:
        lines.append(
            f"Initiative this turn: {sides.get(position.initiative, position.initiative)}."
        )
    for side, owed in view.get("owed", {}).items():
        lines.append(f"Decision owed by {sides.get(side, side)}: {owed['prompt']}.")
    if position.phase == "setup":
        handed = [sides.get(s, s) for s in view.get("handed_in", [])]
        lines.append(
            f"Wing orders handed in: {', '.join(handed) or 'none yet'} (secret until both are in)."
        )
        if view.get("my_setup"):
            mine = ", ".join(f"{w} {ORDER_WORDS.get(o, o)}" for w, o in view["my_setup"])
            lines.append(f"Your orders handed in: {mine}.")
    if view.get("standing"):
        held = ", ".join(f"{kind} {value}" for kind, value in view["standing"].items())
        lines.append(f"Your standing instructions: {held}.")
    for side in position.sides:
        lines.append("")
        lines.append(
            f"{sides.get(side, side)}: lost {position.lost(side)} SP, "
            f"withdraws at {position.break_level(side)}."
        )
        chief = position.army_commander(side)
        if chief is not None:
            state = " (finished)" if chief.finished else ""
            lines.append(
                f"  Army commander {chief.id}, rating {chief.rating}, "
                f"at {_where(chief.hex)}{state}."
            )
        for wing in (w for w in position.wings if w.side == side):
            lines += _wing(position, wing.id, names, view)
    return "\n".join(lines)


def _wing(position: Any, wing_id: str, names: dict[str, str], view: JSON) -> list[str]:
    wing = position.wing(wing_id)
    order = "secret" if position.phase == "setup" else ORDER_WORDS.get(wing.order, wing.order)
    marks = []
    if position.current == wing.id:
        marks.append("ACTIVE")
    if wing.activations:
        marks.append(f"activations {wing.activations}")
    if wing.finished:
        marks.append("finished")
    if wing.bypassed:
        marks.append("Bypassed")
    if wing.preempt_failed:
        marks.append("failed to pre-empt")
    chief = position.commander(wing.id)
    commander = (
        "no commander"
        if chief is None
        else (f"WC {chief.id} rating {chief.rating} at {_where(chief.hex)}")
    )
    title = names.get(wing.id, wing.id)
    head = f"  Wing {wing.id} ({title}): order {order}; {commander}"
    out = [head + (f"; {', '.join(marks)}" if marks else "") + "."]
    for unit in (u for u in position.units if u.wing == wing.id):
        if unit.hex is None:
            out.append(f"    {unit.id} {unit.kind}: eliminated ({unit.casualties} SP lost).")
            continue
        states = [s for s in (unit.formation, unit.morale_state) if s not in ("normal", "good")]
        if unit.salvo:
            states.append("salvo fired")
        if unit.fired:
            states.append("guns fired")
        extra = f", {', '.join(states)}" if states else ""
        out.append(
            f"    {unit.id} {unit.kind} at {_where(unit.hex)} facing "
            f"{DIRECTION_NAMES[unit.facing % 6]}, {unit.sp} SP, morale {unit.morale}{extra}."
        )
    return out
