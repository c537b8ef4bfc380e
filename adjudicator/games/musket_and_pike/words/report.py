"""One resolved step in words, for the step's mail and the archive: what happened in order, every
die with its purpose and modifiers, and what changed on the map (written when the step is
resolved, by ``changes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core.contract import JSON
from adjudicator.core.said import N_, _, anew, ngettext, words_of
from adjudicator.games.musket_and_pike.rules.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.rules.state import Event
from adjudicator.games.musket_and_pike.words import sections

STEP_WORDS = {
    "setup_orders": N_("the secret wing orders"),
    "first_wing": N_("the first wing to activate"),
    "activate": N_("activate or pass"),
    "preempt": N_("a pre-emption chance"),
    "order_change": N_("the order change"),
    "actions": N_("the activation's unit actions"),
    "continuation": N_("another activation, or stop"),
    "retreat_path": N_("a retreat's path after close combat"),
    "rout_paths": N_("the routed units' paths"),
    "none": N_("nothing owed"),
}
# A unit's formation and morale state, and the names of a die's modifiers, as players read them.
STATE_WORDS = {
    "normal": N_("normal"),
    "disordered": N_("disordered"),
    "broken": N_("broken"),
    "good": N_("good"),
    "shaken": N_("shaken"),
    "routed": N_("routed"),
}
MODIFIER_WORDS = {
    "table": N_("table"),
    "shaken": N_("shaken"),
    "disordered": N_("disordered"),
    "broken": N_("broken"),
    "leader": N_("leader"),
    "range": N_("range"),
    "strength": N_("strength"),
    "firer disordered": N_("firer disordered"),
    "firer shaken": N_("firer shaken"),
    "flank": N_("flank"),
    "target kind": N_("target kind"),
    "cover": N_("cover"),
    "kinds": N_("kinds"),
    "extra attackers": N_("extra attackers"),
    "attacker disordered": N_("attacker disordered"),
    "attacker shaken": N_("attacker shaken"),
    "defender disordered": N_("defender disordered"),
    "defender shaken": N_("defender shaken"),
    "flank or rear": N_("flank or rear"),
    "odds": N_("odds"),
    "order": N_("order"),
    "rally": N_("rally"),
    "wing commander rating": N_("wing commander rating"),
    "army commander helps": N_("army commander helps"),
}
WEAPON_WORDS = {
    "musket": N_("musket"),
    "salvo": N_("salvo"),
    "pistol": N_("pistol"),
    "artillery": N_("artillery"),
}
# A die's purpose (its Chance label) by its first words; the rest of the label is the ids.
PURPOSE_WORDS = {
    "pre-emption": N_("pre-emption"),
    "order change": N_("order change"),
    "continuation": N_("continuation"),
    "leader replacement": N_("leader replacement %(ids)s"),
    "initiative all rally": N_("initiative all rally %(ids)s"),
    "initiative tie-break": N_("initiative tie-break %(ids)s"),
    "close combat": N_("close combat %(ids)s"),
    "morale": N_("morale %(ids)s"),
    "rally": N_("rally %(ids)s"),
    "reform": N_("reform %(ids)s"),
}


def step_words(step: str) -> str:
    return words_of(STEP_WORDS, step)


def state_words(state: JSON) -> str:
    return words_of(STATE_WORDS, state)


def purpose_words(purpose: JSON) -> str:
    """What a die was for (its label: "fire musket R-1>P-2", "morale P-3") in words."""
    text = str(purpose)
    if text.startswith("fire "):
        weapon, _space, ids = text.removeprefix("fire ").partition(" ")
        return _("fire %(weapon)s %(ids)s", weapon=words_of(WEAPON_WORDS, weapon), ids=ids)
    for head, words in PURPOSE_WORDS.items():
        if text == head:
            return _(words)
        if text.startswith(head + " ") and "%(ids)s" in words:
            return _(words, ids=text[len(head) + 1 :])
    return text


def where(place: Sequence[int] | None) -> str:
    return _("off the map") if place is None else f"{place[0]}.{place[1]}"


def _hexes(path: Sequence[Sequence[int]]) -> str:
    return " ".join(where(h) for h in path)


# --- what happened ------------------------------------------------------------------------------


def event_words(event: Event) -> str:
    """One event in a few words: its own text, or (for the unit-level records of the actions
    and rout modules) a sentence made from the record."""
    if event.text:
        return event.text
    return record_words(dict(event.data or {}))


# A move, retreat or rout record, by its type: nowhere (no hexes), and to the hexes entered.
_MOVES = (N_("%(unit)s moves nowhere"), N_("%(unit)s moves to %(hexes)s"))
PATH_WORDS = {
    "move": _MOVES,
    "leader_move": _MOVES,
    "retreat": (N_("%(unit)s retreats nowhere"), N_("%(unit)s retreats to %(hexes)s")),
    "rout": (N_("%(unit)s routs nowhere"), N_("%(unit)s routs to %(hexes)s")),
}


def record_words(data: Mapping[str, JSON]) -> str:
    """A unit-level record of the actions and rout modules as a sentence."""
    kind, unit = data.get("type"), data.get("unit", data.get("leader", ""))
    if str(kind) in PATH_WORDS:
        steps = data.get("path", [])[1:] if str(kind).endswith("move") else data.get("path", [])
        if not steps and kind == "move" and data.get("facing") is not None:
            # A unit that only turned (a charge from where it stands faces its target).
            facing = DIRECTION_NAMES[int(data["facing"])]
            return _("%(unit)s turns to face %(direction)s", unit=unit, direction=facing)
        nowhere, going = PATH_WORDS[str(kind)]
        if not steps:
            return _(nowhere, unit=unit)
        return _(going, unit=unit, hexes=_hexes(steps))
    if kind == "roll":
        return die_words(roll_json(data))
    if kind == "fire":
        return ngettext(
            "%(unit)s fires (%(weapon)s) at %(target)s: %(num)s hit",
            "%(unit)s fires (%(weapon)s) at %(target)s: %(num)s hits",
            int(data.get("hits") or 0),
            unit=unit,
            weapon=words_of(WEAPON_WORDS, data.get("weapon")),
            target=data.get("target"),
        )
    if kind == "loss":
        return _(
            "%(unit)s loses %(sp)s SP (%(left)s left)",
            unit=unit,
            sp=data.get("sp"),
            left=data.get("left"),
        )
    if kind == "eliminated":
        return _("%(unit)s is eliminated", unit=unit)
    if kind in ("formation", "morale") and data.get("to"):
        return _("%(unit)s becomes %(state)s", unit=unit, state=state_words(data.get("to")))
    if kind == "morale":
        return _("%(unit)s passes its morale check", unit=unit)
    if kind in ("rally", "reform"):
        done = {
            ("rally", True): N_("%(unit)s rally succeeds"),
            ("rally", False): N_("%(unit)s rally fails"),
            ("reform", True): N_("%(unit)s reform succeeds"),
            ("reform", False): N_("%(unit)s reform fails"),
        }
        return _(done[(str(kind), bool(data.get("passed")))], unit=unit)
    if kind == "declare":
        return _("%(unit)s charges %(target)s", unit=unit, target=data.get("target"))
    if kind == "close_combat":
        if data.get("cancelled"):
            return _("close combat against %(target)s does not happen", target=data.get("target"))
        return _(
            "close combat: %(attackers)s against %(target)s",
            attackers=", ".join(data.get("attackers", [])),
            target=data.get("target"),
        )
    if kind == "leader_lost":
        return _("%(unit)s is lost", unit=unit)
    return str(kind)


def roll_json(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """A unit-level "roll" record in the shape of ``Roll.to_json`` (plus ``base`` for checks)."""
    return {
        "purpose": data.get("purpose"),
        "natural": data.get("die"),
        "modifiers": data.get("modifiers", []),
        "total": data.get("total"),
        "target": data.get("target"),
        "success": None,
        "base": data.get("base"),
    }


def dice(events: Sequence[Event]) -> list[dict[str, JSON]]:
    """Every die of the resolution with its purpose, modifiers and total, in order."""
    out: list[dict[str, JSON]] = []
    for event in events:
        out += [roll.to_json() for roll in event.rolls]
        data = event.data or {}
        if data.get("type") == "roll":
            out.append(roll_json(data))
    return out


def die_words(die: Mapping[str, JSON]) -> str:
    """A die as a player checks it against the tables.

    Three kinds: a command roll (natural + modifiers against a target, success at or under it),
    a check (morale, rally, reform: the natural die against a target the modifiers moved; the
    record carries the unmodified ``base``), and a table roll (natural + modifiers, read on a
    table; no target)."""
    purpose, natural = purpose_words(die.get("purpose")), int(die.get("natural") or 0)
    total = int(die.get("total") or 0)
    target = None if die.get("target") is None else int(die["target"])
    modifiers = [
        (words_of(MODIFIER_WORDS, name), int(value)) for name, value in die.get("modifiers") or []
    ]
    named = ", ".join(f"{name} {value:+d}" for name, value in modifiers)
    base = die.get("base")
    if base is not None and target is not None:
        passed = natural <= target
        if named:
            return _(
                "d10 for %(purpose)s: %(natural)s, needs %(target)s or less "
                "(%(base_name)s %(base)s, %(named)s): %(verdict)s",
                purpose=purpose,
                natural=natural,
                target=target,
                base_name=purpose_base(die.get("purpose")),
                base=base,
                named=named,
                verdict=_("passes") if passed else _("fails"),
            )
        return _(
            "d10 for %(purpose)s: %(natural)s, needs %(target)s or less: %(verdict)s",
            purpose=purpose,
            natural=natural,
            target=target,
            verdict=_("passes") if passed else _("fails"),
        )
    if target is not None and modifiers and total == natural:
        # A check stored before checks carried their base: the modifiers are in the target.
        return _(
            "d10 for %(purpose)s: %(natural)s, needs %(target)s or less (%(named)s): %(verdict)s",
            purpose=purpose,
            natural=natural,
            target=target,
            named=named,
            verdict=_("passes") if natural <= target else _("fails"),
        )
    sums = "".join(f" {value:+d} ({name})" for name, value in modifiers)
    rolled = f"{natural}" + (f"{sums} = {total}" if modifiers else "")
    if target is not None:
        return _(
            "d10 for %(purpose)s: %(rolled)s, needs %(target)s or less: %(verdict)s",
            purpose=purpose,
            rolled=rolled,
            target=target,
            verdict=_("success") if total <= target else _("failure"),
        )
    return _("d10 for %(purpose)s: %(rolled)s", purpose=purpose, rolled=rolled)


def purpose_base(purpose: JSON) -> str:
    """What a check's unmodified target is: the unit's morale, or the reform number."""
    return _("reform target") if str(purpose).startswith("reform") else _("morale")


# --- what changed -------------------------------------------------------------------------------


def step_report(facts: Mapping[str, JSON]) -> str:
    """The step's report: what happened in order, in parts each under the heading of its kind
    (an order change, the unit actions, their close combat, ...) with each die where it fell,
    then what changed. Stored facts written before the report existed give what they have.
    A unit-level record is written from its data, in the reader's language; the other words
    were written when the step was resolved, and are written anew where they can be."""
    events: list[Mapping[str, JSON]] = list(facts.get("events") or [])
    if not events and not facts.get("changes"):
        return ""
    step = str(facts.get("step", "none"))
    lines: list[str] = []
    for part, happened in sections.parts(events, step):
        said = _event_lines(happened)
        if not said and part == "rout":
            said = ["  - " + _("no unit is routed")]
        if said:  # a heading with nothing under it is left out
            lines.append(_heading(facts, part, len(lines)))
            lines += said
    if facts.get("changes"):
        lines += ["", _("WHAT CHANGED")] + [f"  {anew(line)}" for line in facts["changes"]]
    return "\n".join(lines).lstrip("\n")


def _heading(facts: Mapping[str, JSON], part: str, index: int) -> str:
    """A part's heading; the first one says the turn."""
    if index or not facts.get("turn"):
        return sections.heading(part)
    return _(
        "%(part)s (turn %(turn)s of %(last)s)",
        part=sections.heading(part),
        turn=facts["turn"],
        last=facts.get("last_turn", "?"),
    )


def _event_lines(events: Sequence[Mapping[str, JSON]]) -> list[str]:
    lines: list[str] = []
    for event in events:
        for roll in event.get("rolls") or []:
            lines.append(f"  {die_words(roll)}")
        data = event.get("data") or {}
        if data.get("type") == "roll":
            lines.append(f"  {die_words(roll_json(data))}")
            continue
        if str(event.get("kind")) in sections.HEADING_ONLY:
            continue
        words = record_words(data) if data.get("type") else anew(event.get("words"))
        if words:
            lines.append(f"  - {words}")
    return lines
