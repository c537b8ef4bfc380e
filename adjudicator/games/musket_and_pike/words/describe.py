"""The position in words, from a view: the plain-text mail's map and the picture's alt text.

Hexes are written column.row, as the map labels them and as orders name them.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.contract import JSON
from adjudicator.core.said import N_, _, anew, words_of
from adjudicator.games.musket_and_pike.rules.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.rules.state import load
from adjudicator.games.musket_and_pike.rules.titles import battle_of, in_words, side_info, side_name
from adjudicator.games.musket_and_pike.words.report import state_words
from adjudicator.games.musket_and_pike.words.standing_words import instructions

ORDER_WORDS = {
    "charge": N_("Charge"),
    "make_ready": N_("Make Ready"),
    "receive_charge": N_("Receive Charge"),
    "rally": N_("Rally"),
}
PHASE_WORDS = {
    "setup": N_("set-up (secret wing orders)"),
    "initiative": N_("initiative phase"),
    "activation": N_("activation phase"),
    "rout": N_("rout phase"),
    "markers": N_("marker removal"),
    "over": N_("the battle is over"),
}


def _where(where: tuple[int, int] | None) -> str:
    return _("off the map") if where is None else f"{where[0]}.{where[1]}"


def side_names(shown: JSON) -> dict[str, str]:
    """A view's sides by id, each named in the reader's language where its scenario is known
    (a view stores the names as they were, in English)."""
    names: dict[str, str] = dict(shown["sides"])
    for side in names:
        found = side_info(str(shown.get("id", "")), side)
        if found is not None:
            names[side] = side_name(*found)
    return names


def _scenario_title(shown: JSON) -> str:
    """A view's battle title in the reader's language where its scenario is known."""
    found = battle_of(str(shown.get("id", "")))
    return in_words(found, shown["title"]) if found else str(shown["title"])


def describe(view: JSON) -> str:
    position = load(view["position"])
    names: dict[str, str] = view.get("names", {})
    sides = side_names(view["scenario"])
    lines = [
        _(
            "Musket & Pike: %(title)s. Turn %(turn)s of %(last)s, %(phase)s.",
            title=_scenario_title(view["scenario"]),
            turn=position.turn,
            last=position.last_turn,
            phase=words_of(PHASE_WORDS, position.phase),
        ),
    ]
    if position.phase == "over":
        reason = end_words(position.end_reason or "")
        lines.append(
            _(
                "Result: %(side)s wins (%(reason)s).",
                side=sides.get(position.winner or "", ""),
                reason=reason,
            )
            if position.winner
            else _("Result: no winner (%(reason)s).", reason=reason)
        )
    if position.initiative:
        lines.append(
            _(
                "Initiative this turn: %(side)s.",
                side=sides.get(position.initiative, position.initiative),
            )
        )
    for side, owed in view.get("owed", {}).items():
        lines.append(
            _(
                "Decision owed by %(side)s: %(prompt)s.",
                side=sides.get(side, side),
                prompt=_owed_prompt(owed),
            )
        )
    if position.phase == "setup":
        handed = [sides.get(s, s) for s in view.get("handed_in", [])]
        lines.append(
            _(
                "Wing orders handed in: %(sides)s (secret until both are in).",
                sides=", ".join(handed) or _("none yet"),
            )
        )
        if view.get("my_setup"):
            mine = ", ".join(f"{w} {words_of(ORDER_WORDS, o)}" for w, o in view["my_setup"])
            lines.append(_("Your orders handed in: %(orders)s.", orders=mine))
    if view.get("standing"):
        held = instructions(view["standing"])
        lines.append(_("Your standing instructions: %(held)s.", held=held))
    for side in position.sides:
        lines += _side(position, side, sides, names, view)
    return "\n".join(lines)


def _side(
    position: Any, side: str, sides: dict[str, str], names: dict[str, str], view: JSON
) -> list[str]:
    """A side's losses, its army commander, and each of its wings with their units."""
    lines: list[str] = []
    lines.append("")
    lines.append(
        _(
            "%(side)s: lost %(lost)s SP, withdraws at %(break_level)s.",
            side=sides.get(side, side),
            lost=position.lost(side),
            break_level=position.break_level(side),
        )
    )
    chief = position.army_commander(side)
    if chief is not None:
        where = _where(chief.hex)
        lines.append(
            _(
                "  Army commander %(id)s, rating %(rating)s, at %(hex)s (finished).",
                id=chief.id,
                rating=chief.rating,
                hex=where,
            )
            if chief.finished
            else _(
                "  Army commander %(id)s, rating %(rating)s, at %(hex)s.",
                id=chief.id,
                rating=chief.rating,
                hex=where,
            )
        )
    for wing in (w for w in position.wings if w.side == side):
        lines += _wing(position, wing.id, names, view)
    return lines


def _owed_prompt(owed: JSON) -> str:
    """The prompt a view carries for a decision owed, written anew for the reader where the view
    was made in another language (a view is made once and read by several)."""
    return str(anew(owed["prompt"]))


END_WORDS = {
    "last turn played": N_("last turn played"),
    "both armies withdraw": N_("both armies withdraw"),
}


def end_words(reason: str) -> str:
    """Why the battle ended (``Position.end_reason``) in words."""
    if reason.endswith(" withdraws") and reason not in END_WORDS:
        return _("%(side)s withdraws", side=reason.removesuffix(" withdraws"))
    return words_of(END_WORDS, reason)


def _wing(position: Any, wing_id: str, names: dict[str, str], view: JSON) -> list[str]:
    wing = position.wing(wing_id)
    order = _("secret") if position.phase == "setup" else words_of(ORDER_WORDS, wing.order)
    marks = []
    if position.current == wing.id:
        marks.append(_("ACTIVE"))
    if wing.activations:
        marks.append(_("activations %(number)s", number=wing.activations))
    if wing.finished:
        marks.append(_("finished"))
    if wing.bypassed:
        marks.append(_("Bypassed"))
    if wing.preempt_failed:
        marks.append(_("failed to pre-empt"))
    chief = position.commander(wing.id)
    commander = (
        _("no commander")
        if chief is None
        else _(
            "WC %(id)s rating %(rating)s at %(hex)s",
            id=chief.id,
            rating=chief.rating,
            hex=_where(chief.hex),
        )
    )
    found = battle_of(str(view["scenario"].get("id", "")))
    title = names.get(wing.id, wing.id)
    title = in_words(found, title) if found else title
    head = _(
        "  Wing %(id)s (%(title)s): order %(order)s; %(commander)s",
        id=wing.id,
        title=title,
        order=order,
        commander=commander,
    )
    out = [head + (f"; {', '.join(marks)}" if marks else "") + "."]
    for unit in (u for u in position.units if u.wing == wing.id):
        if unit.hex is None:
            out.append(
                _(
                    "    %(id)s %(kind)s: eliminated (%(sp)s SP lost).",
                    id=unit.id,
                    kind=unit.kind,
                    sp=unit.casualties,
                )
            )
            continue
        states = [
            state_words(s)
            for s in (unit.formation, unit.morale_state)
            if s not in ("normal", "good")
        ]
        if unit.salvo:
            states.append(_("salvo fired"))
        if unit.fired:
            states.append(_("guns fired"))
        extra = f", {', '.join(states)}" if states else ""
        line = _(
            "    %(id)s %(kind)s at %(hex)s facing %(direction)s, %(sp)s SP, morale %(morale)s",
            id=unit.id,
            kind=unit.kind,
            hex=_where(unit.hex),
            direction=DIRECTION_NAMES[unit.facing % 6],
            sp=unit.sp,
            morale=unit.morale,
        )
        out.append(f"{line}{extra}.")
    return out
