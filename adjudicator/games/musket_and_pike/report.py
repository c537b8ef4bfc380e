"""One resolved step in words, for the step's mail and the archive: what happened in order, every
die with its purpose and modifiers, and what changed on the map.

Everything here reads public facts only. A resolution's facts are shown to both players and on the
archive, so ``changes`` never looks at what stays secret (the set-up orders before the reveal
live in ``secret_orders``, which it does not compare; the wing orders change only at the reveal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.words import counted
from adjudicator.games.musket_and_pike.describe import ORDER_WORDS, PHASE_WORDS
from adjudicator.games.musket_and_pike.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.state import Event, Leader, Position, Unit, Wing
from adjudicator.games.musket_and_pike.titles import side_title

JSON = Any

STEP_WORDS = {
    "setup_orders": "the secret wing orders",
    "first_wing": "the first wing to activate",
    "activate": "activate or pass",
    "preempt": "a pre-emption chance",
    "order_change": "the order change",
    "actions": "the activation's unit actions",
    "continuation": "another activation, or stop",
    "retreat_path": "a retreat's path after close combat",
    "rout_paths": "the routed units' paths",
    "none": "nothing owed",
}


def where(place: Sequence[int] | None) -> str:
    return "off the map" if place is None else f"{place[0]}.{place[1]}"


def _hexes(path: Sequence[Sequence[int]]) -> str:
    return " ".join(where(h) for h in path)


# --- what happened ------------------------------------------------------------------------------


def event_words(event: Event) -> str:
    """One event in a few words: its own text, or (for the unit-level records of the actions
    and rout modules) a sentence made from the record."""
    if event.text:
        return event.text
    data = dict(event.data or {})
    kind, unit = data.get("type"), data.get("unit", data.get("leader", ""))
    if kind in ("move", "leader_move", "retreat", "rout"):
        steps = data.get("path", [])[1:] if str(kind).endswith("move") else data.get("path", [])
        verb = {"move": "moves", "leader_move": "moves", "retreat": "retreats", "rout": "routs"}
        return f"{unit} {verb[str(kind)]} {'to ' + _hexes(steps) if steps else 'nowhere'}"
    if kind == "roll":
        return die_words(roll_json(data))
    if kind == "fire":
        hits = data.get("hits")
        hit = counted(int(hits or 0), "hit")
        return f"{unit} fires ({data.get('weapon')}) at {data.get('target')}: {hit}"
    if kind == "loss":
        return f"{unit} loses {data.get('sp')} SP ({data.get('left')} left)"
    if kind == "eliminated":
        return f"{unit} is eliminated"
    if kind in ("formation", "morale") and data.get("to"):
        return f"{unit} becomes {data.get('to')}"
    if kind == "morale":
        return f"{unit} passes its morale check"
    if kind in ("rally", "reform"):
        return f"{unit} {kind} {'succeeds' if data.get('passed') else 'fails'}"
    if kind == "declare":
        return f"{unit} charges {data.get('target')}"
    if kind == "close_combat":
        if data.get("cancelled"):
            return f"close combat against {data.get('target')} does not happen"
        return f"close combat: {', '.join(data.get('attackers', []))} against {data.get('target')}"
    if kind == "leader_lost":
        return f"{unit} is lost"
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
    purpose, natural = die.get("purpose"), int(die.get("natural") or 0)
    total = int(die.get("total") or 0)
    target = None if die.get("target") is None else int(die["target"])
    modifiers = [(str(name), int(value)) for name, value in die.get("modifiers") or []]
    named = ", ".join(f"{name} {value:+d}" for name, value in modifiers)
    base = die.get("base")
    if base is not None and target is not None:
        moved = f" ({purpose_base(purpose)} {base}, {named})" if named else ""
        verdict = "passes" if natural <= target else "fails"
        return f"d10 for {purpose}: {natural}, needs {target} or less{moved}: {verdict}"
    if target is not None and modifiers and total == natural:
        # A check stored before checks carried their base: the modifiers are in the target.
        verdict = "passes" if natural <= target else "fails"
        return f"d10 for {purpose}: {natural}, needs {target} or less ({named}): {verdict}"
    sums = "".join(f" {value:+d} ({name})" for name, value in modifiers)
    line = f"d10 for {purpose}: {natural}" + (f"{sums} = {total}" if modifiers else "")
    if target is not None:
        verdict = "success" if total <= target else "failure"
        line += f", needs {target} or less: {verdict}"
    return line


def purpose_base(purpose: JSON) -> str:
    """What a check's unmodified target is: the unit's morale, or the reform number."""
    return "reform target" if str(purpose).startswith("reform") else "morale"


# --- what changed -------------------------------------------------------------------------------


def changes(before: Position, after: Position) -> list[str]:
    """What is different on the map and in the sequence of play, one line per thing changed."""
    lines: list[str] = []
    if (before.turn, before.phase) != (after.turn, after.phase):
        lines.append(
            f"turn {before.turn}, {PHASE_WORDS.get(before.phase, before.phase)} → "
            f"turn {after.turn}, {PHASE_WORDS.get(after.phase, after.phase)}"
        )
    if after.initiative and after.initiative != before.initiative:
        lines.append(f"initiative: {side_title(after.scenario, after.initiative)}")
    old_units = {u.id: u for u in before.units}
    lines += [
        f"{unit.id}: {'; '.join(said)}"
        for unit in after.units
        if unit.id in old_units and (said := _unit_changes(old_units[unit.id], unit))
    ]
    old_leaders = {x.id: x for x in before.leaders}
    lines += [
        f"{leader.id}: {'; '.join(said)}"
        for leader in after.leaders
        if leader.id in old_leaders and (said := _leader_changes(old_leaders[leader.id], leader))
    ]
    old_wings = {w.id: w for w in before.wings}
    lines += [
        f"wing {wing.id}: {'; '.join(said)}"
        for wing in after.wings
        if wing.id in old_wings and (said := _wing_changes(old_wings[wing.id], wing))
    ]
    for side in after.sides:
        if after.lost(side) != before.lost(side):
            lines.append(
                f"{side_title(after.scenario, side)} losses: "
                f"{before.lost(side)} → {after.lost(side)} SP "
                f"(withdraws at {after.break_level(side)})"
            )
    if after.phase == "over" and before.phase != "over":
        won = side_title(after.scenario, after.winner) if after.winner else "no winner"
        lines.append(f"the battle is over: {won} ({after.end_reason})")
    return lines


def _unit_changes(old: Unit, new: Unit) -> list[str]:
    said: list[str] = []
    if new.hex is None and old.hex is not None:
        said.append(f"eliminated at {where(old.hex)}" if new.sp <= 0 else "leaves the map")
    elif new.hex != old.hex:
        said.append(f"{where(old.hex)} → {where(new.hex)}")
    if new.hex is not None and new.facing != old.facing:
        said.append(f"faces {DIRECTION_NAMES[new.facing]}")
    if new.sp != old.sp:
        said.append(f"{old.sp} → {new.sp} SP")
    if new.formation != old.formation:
        said.append(new.formation)
    if new.morale_state != old.morale_state:
        said.append(f"morale {new.morale_state}")
    if new.salvo != old.salvo:
        said.append("Salvo marker placed" if new.salvo else "Salvo marker removed")
    if new.fired != old.fired:
        said.append("guns fired" if new.fired else "guns ready again")
    return said


def _leader_changes(old: Leader, new: Leader) -> list[str]:
    said: list[str] = []
    if new.hex != old.hex:
        said.append(f"{where(old.hex)} → {where(new.hex)}")
    if new.rating != old.rating:
        said.append(f"rating {old.rating} → {new.rating}")
    if new.finished != old.finished:
        said.append("finished" if new.finished else "ready again")
    if new.lost_this_turn and not old.lost_this_turn:
        said.append("lost")
    return said


def _wing_changes(old: Wing, new: Wing) -> list[str]:
    said: list[str] = []
    if new.order != old.order:
        said.append(f"order {ORDER_WORDS.get(old.order)} → {ORDER_WORDS.get(new.order)}")
    if new.activations != old.activations and new.activations:
        said.append(f"activation {new.activations}")
    if new.preempt_failed and not old.preempt_failed:
        said.append("failed to pre-empt: no second try this turn")
    if new.bypassed != old.bypassed:
        said.append("Bypassed" if new.bypassed else "no longer Bypassed")
    if new.finished != old.finished:
        said.append("finished" if new.finished else "ready again")
    return said


# --- the report -----------------------------------------------------------------------------------


def step_report(facts: Mapping[str, JSON]) -> str:
    """The step's report: the step answered, then what happened in order with each die where it
    fell, then what changed. Stored facts written before the report existed give what they have."""
    events: list[Mapping[str, JSON]] = list(facts.get("events") or [])
    if not events and not facts.get("changes"):
        return ""
    step = str(facts.get("step", "none"))
    head = f"STEP: {STEP_WORDS.get(step, step)}"
    if facts.get("turn"):
        head += f" (turn {facts['turn']} of {facts.get('last_turn', '?')})"
    lines = [head]
    for event in events:
        for roll in event.get("rolls") or []:
            lines.append(f"  {die_words(roll)}")
        data = event.get("data") or {}
        words = die_words(roll_json(data)) if data.get("type") == "roll" else event.get("words")
        if words:
            lines.append(f"  {words}" if data.get("type") == "roll" else f"  - {words}")
    if facts.get("changes"):
        lines += ["", "WHAT CHANGED"] + [f"  {line}" for line in facts["changes"]]
    return "\n".join(lines)
