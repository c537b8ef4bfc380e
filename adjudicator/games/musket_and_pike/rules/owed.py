"""What the sequence of play owes now: which side owes which decision, its legal answers, the
default an expired deadline takes, and the words a mail asks it with.

The machine itself (sequence.py) applies an answer; this module only looks at a position.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from adjudicator.core.contract import Decision
from adjudicator.core.said import N_, _, ngettext
from adjudicator.games.musket_and_pike.rules import decisions
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.decisions import (
    NO_ACTIONS,
    Actions,
    Activate,
    Answer,
    ChangeOrder,
    Continue,
    FirstWing,
    Preempt,
    RetreatPath,
    RoutPaths,
    SetupOrders,
)
from adjudicator.games.musket_and_pike.rules.initiative import eligible, first_wings
from adjudicator.games.musket_and_pike.rules.state import ORDERS, Position, Wing


def setup(position: Position) -> Position:
    """The position waiting for both sides' secret wing orders (the wings' orders are defaults)."""
    return replace(position, phase="setup", step="setup_orders", secret_orders=(), active=None)


def pending(position: Position, rules: CommandRules | None = None) -> dict[str, Decision]:
    """The decision owed now, by side: one side, or both for the secret setup orders.

    With ``rules`` the order changes offered are those the ruleset's table has; without, every
    change is listed and one the table lacks is refused when answered."""
    owed = {}
    for side in owing(position):
        answers = legal_answers(position, side, rules)
        texts = tuple(_answer_text(a) for a in answers)
        default = _answer_text(_default(position, side))
        owed[side] = Decision(side, _prompt(position), texts, default, _brief(position))
    return owed


def owing(position: Position) -> tuple[str, ...]:
    step = position.step
    if step == "setup_orders":
        done = {side for side, _ in position.secret_orders}
        return tuple(side for side in position.sides if side not in done)
    if step == "preempt" and position.active is not None:
        return (position.other(position.active),)
    if step in _ONE_SIDE_STEPS:
        return (position.active,) if position.active is not None else ()
    return ()


_ONE_SIDE_STEPS = (
    "first_wing",
    "activate",
    "order_change",
    "actions",
    "continuation",
    "retreat_path",
    "rout_paths",
)


def legal_answers(
    position: Position, side: str, rules: CommandRules | None = None
) -> tuple[Answer, ...]:
    """Every legal answer ``side`` may give now (the unit actions: only the empty set here)."""
    if side not in owing(position):
        return ()
    step = position.step
    if step == "setup_orders":
        wings = [w.id for w in position.wings if w.side == side]
        combos = itertools.product(ORDERS, repeat=len(wings))
        return tuple(SetupOrders(tuple(zip(wings, combo, strict=True))) for combo in combos)
    if step == "first_wing":
        return tuple(FirstWing(w) for w in first_choices(position))
    if step == "activate":
        return (*(Activate(w.id) for w in eligible(position, side)), Activate(None))
    if step == "preempt":
        out: list[Answer] = []
        helper = ac_available(position, side)
        for wing in preempt_candidates(position, side):
            out.append(Preempt(wing.id))
            if helper:
                out.append(Preempt(wing.id, ac=True))
        return (*out, Preempt(None))
    if step == "order_change":
        current = current_wing(position).order
        wanted = [
            o
            for o in ORDERS
            if o != current and (rules is None or (current, o) in rules.order_change)
        ]
        return (ChangeOrder(None), *(ChangeOrder(o) for o in wanted))
    if step == "actions":
        return (Actions(NO_ACTIONS),)
    if step == "continuation":
        return (Continue(True), Continue(False))
    if step == "rout_paths":
        return (RoutPaths(()),)
    if step == "retreat_path":
        return (RetreatPath(()),)
    return ()


def _default(position: Position, side: str) -> Answer:
    """What an expired deadline answers: the spec's defaults for each decision."""
    step = position.step
    if step == "setup_orders":
        return SetupOrders(tuple((w.id, w.order) for w in position.wings if w.side == side))
    if step == "first_wing":
        return FirstWing(first_choices(position)[0])
    return _FIXED_DEFAULTS.get(step, Continue(False))


# The defaults that do not depend on the position (any other step's, a continuation's, stops).
_FIXED_DEFAULTS: dict[str, Answer] = {
    "activate": Activate(None),
    "preempt": Preempt(None),
    "order_change": ChangeOrder(None),
    "actions": Actions(NO_ACTIONS),
    "rout_paths": RoutPaths(()),
    "retreat_path": RetreatPath(()),
}


def _prompt(position: Position) -> str:
    wing = position.current or ""
    if position.step == "rout_paths" and position.active is not None:
        running = ", ".join(position.routers(position.active))
        return _(
            "rout phase: the path of each routed unit (%(units)s), or the default routs",
            units=running,
        )
    if position.step == "retreat_path" and position.retreats:
        unit_id, hexes = position.retreats[0]
        return ngettext(
            "close combat: %(unit)s falls back %(num)s hex: its path, or the default",
            "close combat: %(unit)s falls back %(num)s hexes: its path, or the default",
            hexes,
            unit=unit_id,
        )
    prompt = PROMPTS.get(position.step)
    if prompt is None:
        return ""
    return _(prompt, wing=wing) if "%(wing)s" in prompt else _(prompt)


# Each step's prompt, written to the side that owes it; %(wing)s is the current wing.
PROMPTS = {
    "setup_orders": N_("secret orders for each of your wings (revealed when both sides are in)"),
    "first_wing": N_("you have the initiative: which wing activates first"),
    "activate": N_("activate a wing that has not finished, or pass"),
    "preempt": N_("%(wing)s is activated: try to pre-empt with one of your wings, or not"),
    "order_change": N_("%(wing)s: try to change its order, or keep it"),
    "actions": N_("%(wing)s: unit actions and close combat"),
    "continuation": N_("%(wing)s: try for another activation, or stop"),
}

# Each step's decision as the subject of a mail to both sides names it: "royalist to choose the
# first wing". %(wing)s is the current wing, %(unit)s the unit falling back.
BRIEFS = {
    "setup_orders": N_("give each wing its secret order"),
    "first_wing": N_("choose the first wing"),
    "activate": N_("activate a wing or pass"),
    "preempt": N_("pre-empt %(wing)s or not"),
    "order_change": N_("change %(wing)s's order or keep it"),
    "actions": N_("give %(wing)s's unit actions"),
    "continuation": N_("try for another activation of %(wing)s or stop"),
    "rout_paths": N_("choose the rout paths"),
    "retreat_path": N_("choose %(unit)s's retreat path"),
}


def _brief(position: Position) -> str:
    unit = position.retreats[0][0] if position.retreats else ""
    brief = BRIEFS.get(position.step)
    if brief is None:
        return ""
    values = {"wing": position.current or "", "unit": unit}
    return _(brief, **{key: value for key, value in values.items() if f"%({key})s" in brief})


def _answer_text(answer: Answer) -> str:
    return decisions.text(answer)


def current_wing(position: Position) -> Wing:
    assert position.current is not None, "an activation step without a current wing"
    return position.wing(position.current)


def first_choices(position: Position) -> tuple[str, ...]:
    """The wings the initiative winner may activate first (initiative.first_wings)."""
    if position.initiative is None:
        return ()
    return first_wings(position, position.initiative, position.senior)


def preempt_candidates(position: Position, side: str) -> tuple[Wing, ...]:
    # One interruption at a time: while a Bypassed wing waits, nobody may pre-empt again, so a
    # single Bypassed wing always knows when it resumes.
    if position.interrupted is not None:
        return ()
    return tuple(w for w in eligible(position, side) if not w.preempt_failed and not w.bypassed)


def ac_available(position: Position, side: str) -> bool:
    ac = position.army_commander(side)
    return ac is not None and ac.hex is not None and not ac.finished
