"""The sequence of play (3.1-3.4) as a pure decision machine.

A position always waits at one step (``Position.step``); ``pending`` says which single decision is
owed and by whom, ``answer`` applies one answer and then runs every step that needs no decision
(dice, automatic passes, the rout phase, marker removal, the next turn's initiative) until a
decision is owed again or the game is over. Only the secret setup orders are owed by both sides at
once; they are revealed together when both are in.

Activation steps, as 3.2 gives them:
  A  pre-emption attempt by the inactive side (step "preempt"),
  B  order change (step "order_change"),
  C+D unit actions and close combat (step "actions", resolved by the actions module); a side that
     chooses its retreat paths is asked for each one in the middle of D (step "retreat_path"),
  E  continuation (step "continuation"),
  F  a Bypassed wing activates (back to B); else the other side activates or passes (back to A);
     when no wing can be activated any more, or both sides pass in a row, the rout phase.

Where 3.2 leaves a case open (section 4.4 is not in the source), the machine takes the plainest
reading and says so at the spot: one interruption at a time, and after a wing's activations the
opponent of that wing's side is the next to activate.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.contract import Decision
from adjudicator.core.refusal import Refusal
from adjudicator.core.words import counted
from adjudicator.games.musket_and_pike import decisions
from adjudicator.games.musket_and_pike.command import (
    MAX_ACTIVATIONS,
    CommandRules,
    command_roll,
    replacement_rating,
)
from adjudicator.games.musket_and_pike.decisions import (
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
from adjudicator.games.musket_and_pike.initiative import (
    can_activate,
    determine,
    eligible,
    first_wings,
)
from adjudicator.games.musket_and_pike.state import ORDERS, Event, Hex, Leader, Position, Wing

JSON = Any
Events = tuple[Event, ...]
Advance = tuple[Position, Events]
# C and D: the actions module checks and resolves one activation's unit actions and close combat
# (the orders are the list of JSON objects the player gave; see resolvers.py for the wiring).
ActivationResolver = Callable[[Position, str, tuple[JSON, ...], Chance], Advance | Refusal]
# 3.3: one side's routed units make their rout moves, along the paths given (unit JSON objects
# with a "path", for a side that chooses them) or by default; a refused path is a Refusal.
RoutResolver = Callable[[Position, Chance, str, tuple[JSON, ...]], Advance | Refusal]
# D, paused for a retreat path: the first of ``position.retreats`` falls back along the path
# given (a unit JSON object with a "path") or by default (nothing given), and the rest of the
# activation's close combat is fought, maybe pausing again; a refused path is a Refusal.
RetreatResolver = Callable[[Position, Chance, tuple[JSON, ...]], Advance | Refusal]
# The standing RETREAT value with which a side chooses its routers' and retreats' paths by mail.
CHOOSE_PATHS = "choose"


def no_unit_actions(
    position: Position, wing_id: str, orders: tuple[JSON, ...], chance: Chance
) -> Advance | Refusal:
    """The default when no actions module is wired in (the sequence tested alone): an
    activation without unit actions."""
    if orders:
        return Refusal("unit actions are not wired in here: answer no actions", "not-wired")
    return position, ()


def no_rout_moves(
    position: Position, chance: Chance, side: str, paths: tuple[JSON, ...]
) -> Advance | Refusal:
    """The default when no rout module is wired in: nothing moves."""
    if paths:
        return Refusal("rout moves are not wired in here: answer default routs", "not-wired")
    return position, ()


def no_retreats(position: Position, chance: Chance, paths: tuple[JSON, ...]) -> Advance | Refusal:
    """The default when no actions module is wired in: no close combat, so no retreat."""
    return Refusal("retreats are not wired in here", "not-wired")


@dataclass(frozen=True)
class Resolvers:
    """The unit-level steps the machine hands over to the actions and rout modules."""

    activation: ActivationResolver = no_unit_actions
    rout: RoutResolver = no_rout_moves
    retreat: RetreatResolver = no_retreats


@dataclass(frozen=True)
class _Ctx:
    """What every step of one ``answer`` call needs besides the position."""

    chance: Chance
    rules: CommandRules
    resolvers: Resolvers


# --- what is owed --------------------------------------------------------------------------------


def setup(position: Position) -> Position:
    """The position waiting for both sides' secret wing orders (the wings' orders are defaults)."""
    return replace(position, phase="setup", step="setup_orders", secret_orders=(), active=None)


def pending(position: Position, rules: CommandRules | None = None) -> dict[str, Decision]:
    """The decision owed now, by side: one side, or both for the secret setup orders.

    With ``rules`` the order changes offered are those the ruleset's table has; without, every
    change is listed and one the table lacks is refused when answered."""
    owed = {}
    for side in _owing(position):
        answers = legal_answers(position, side, rules)
        texts = tuple(_answer_text(a) for a in answers)
        default = _answer_text(_default(position, side))
        owed[side] = Decision(side, _prompt(position), texts, default, _brief(position))
    return owed


def _owing(position: Position) -> tuple[str, ...]:
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
    if side not in _owing(position):
        return ()
    step = position.step
    if step == "setup_orders":
        wings = [w.id for w in position.wings if w.side == side]
        combos = itertools.product(ORDERS, repeat=len(wings))
        return tuple(SetupOrders(tuple(zip(wings, combo, strict=True))) for combo in combos)
    if step == "first_wing":
        return tuple(FirstWing(w) for w in _first_choices(position))
    if step == "activate":
        return (*(Activate(w.id) for w in eligible(position, side)), Activate(None))
    if step == "preempt":
        out: list[Answer] = []
        helper = _ac_available(position, side)
        for wing in _preempt_candidates(position, side):
            out.append(Preempt(wing.id))
            if helper:
                out.append(Preempt(wing.id, ac=True))
        return (*out, Preempt(None))
    if step == "order_change":
        current = _current(position).order
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
        return FirstWing(_first_choices(position)[0])
    if step == "activate":
        return Activate(None)
    if step == "preempt":
        return Preempt(None)
    if step == "order_change":
        return ChangeOrder(None)
    if step == "actions":
        return Actions(NO_ACTIONS)
    if step == "rout_paths":
        return RoutPaths(())
    if step == "retreat_path":
        return RetreatPath(())
    return Continue(False)


def _prompt(position: Position) -> str:
    wing = position.current
    if position.step == "rout_paths" and position.active is not None:
        running = ", ".join(position.routers(position.active))
        return f"rout phase: the path of each routed unit ({running}), or the default routs"
    if position.step == "retreat_path" and position.retreats:
        unit_id, hexes = position.retreats[0]
        back = counted(hexes, "hex", "hexes")
        return f"close combat: {unit_id} falls back {back}: its path, or the default"
    return {
        "setup_orders": "secret orders for each of your wings (revealed when both sides are in)",
        "first_wing": "you have the initiative: which wing activates first",
        "activate": "activate a wing that has not finished, or pass",
        "preempt": f"{wing} is activated: try to pre-empt with one of your wings, or not",
        "order_change": f"{wing}: try to change its order, or keep it",
        "actions": f"{wing}: unit actions and close combat",
        "continuation": f"{wing}: try for another activation, or stop",
    }.get(position.step, "")


# Each step's decision as the subject of a mail to both sides names it: "royalist to choose the
# first wing". {wing} is the current wing, {unit} the unit falling back.
BRIEFS = {
    "setup_orders": "give each wing its secret order",
    "first_wing": "choose the first wing",
    "activate": "activate a wing or pass",
    "preempt": "pre-empt {wing} or not",
    "order_change": "change {wing}'s order or keep it",
    "actions": "give {wing}'s unit actions",
    "continuation": "try for another activation of {wing} or stop",
    "rout_paths": "choose the rout paths",
    "retreat_path": "choose {unit}'s retreat path",
}


def _brief(position: Position) -> str:
    unit = position.retreats[0][0] if position.retreats else ""
    return BRIEFS.get(position.step, "").format(wing=position.current or "", unit=unit)


def _answer_text(answer: Answer) -> str:
    return decisions.text(answer)


def _current(position: Position) -> Wing:
    assert position.current is not None, "an activation step without a current wing"
    return position.wing(position.current)


def _first_choices(position: Position) -> tuple[str, ...]:
    """The wings the initiative winner may activate first (initiative.first_wings)."""
    if position.initiative is None:
        return ()
    return first_wings(position, position.initiative, position.senior)


def _preempt_candidates(position: Position, side: str) -> tuple[Wing, ...]:
    # One interruption at a time: while a Bypassed wing waits, nobody may pre-empt again, so a
    # single Bypassed wing always knows when it resumes.
    if position.interrupted is not None:
        return ()
    return tuple(w for w in eligible(position, side) if not w.preempt_failed and not w.bypassed)


def _ac_available(position: Position, side: str) -> bool:
    ac = position.army_commander(side)
    return ac is not None and ac.hex is not None and not ac.finished


# --- answering -----------------------------------------------------------------------------------


def answer(
    position: Position,
    side: str,
    reply: JSON,
    chance: Chance,
    rules: CommandRules,
    resolvers: Resolvers | None = None,
) -> Advance | Refusal:
    """Apply ``side``'s answer to the decision it owes and run on to the next decision.

    Returns the new position and what happened, or a Refusal saying why the answer is refused
    (the position is then unchanged).
    """
    if side not in _owing(position):
        return Refusal(f"{side} owes no decision now", "not-owed")
    parsed = decisions.read(position.step, reply)
    if isinstance(parsed, Refusal):
        return parsed
    ctx = _Ctx(chance, rules, resolvers or Resolvers())
    match parsed:
        case SetupOrders():
            return _answer_setup(position, side, parsed, ctx)
        case FirstWing(wing):
            if wing not in _first_choices(position):
                choices = _list(_first_choices(position))
                return Refusal(f"{wing} may not activate first; choose one of {choices}", "illegal")
            return _to_activation(position, wing, (), ctx)
        case Activate():
            return _answer_activate(position, side, parsed, ctx)
        case Preempt():
            return _answer_preempt(position, side, parsed, ctx)
        case ChangeOrder():
            return _answer_change(position, parsed, ctx)
        case Actions(orders):
            acting = _current(position).id
            done = ctx.resolvers.activation(position, acting, orders, ctx.chance)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            return _after_fighting(moved, events, ctx)
        case Continue(go):
            return _answer_continue(position, go, ctx)
        case RetreatPath(paths):
            done = ctx.resolvers.retreat(position, ctx.chance, paths)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            return _after_fighting(moved, events, ctx)
        case RoutPaths(paths):
            done = ctx.resolvers.rout(position, ctx.chance, side, paths)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            after = position.sides.index(side) + 1
            return _rout_from(replace(moved, step="none", active=None), after, events, ctx)
    return Refusal("unknown answer", "malformed")


def _list(items: tuple[str, ...]) -> str:
    return ", ".join(items) or "none"


def _answer_setup(
    position: Position, side: str, given: SetupOrders, ctx: _Ctx
) -> Advance | Refusal:
    mine = [w.id for w in position.wings if w.side == side]
    named = [wing for wing, _ in given.orders]
    if sorted(named) != sorted(mine):
        return Refusal(
            f"give exactly one order to each of your wings: {_list(tuple(mine))}", "illegal"
        )
    secret = (*position.secret_orders, (side, given.orders))
    waiting = replace(position, secret_orders=secret)
    event = Event("orders-in", side=side, text=f"{side} has handed in its wing orders")
    if len(secret) < len(position.sides):
        return waiting, (event,)
    # Both are in: reveal together and start the first turn.
    orders = {wing: order for _, pairs in secret for wing, order in pairs}
    revealed = replace(
        waiting,
        wings=tuple(replace(w, order=orders[w.id]) for w in waiting.wings),
        secret_orders=(),
    )
    shown = ", ".join(f"{w.id} {w.order}" for w in revealed.wings)
    reveal = Event("orders-revealed", text=f"wing orders revealed: {shown}")
    return _start_turn(revealed, (event, reveal), ctx)


def _answer_activate(
    position: Position, side: str, given: Activate, ctx: _Ctx
) -> Advance | Refusal:
    if given.wing is None:
        return _pass(position, side, (), ctx)
    if given.wing not in {w.id for w in eligible(position, side)}:
        names = tuple(w.id for w in eligible(position, side))
        return Refusal(
            f"{given.wing} cannot be activated; choose one of {_list(names)}, or pass", "illegal"
        )
    return _to_activation(position, given.wing, (), ctx)


def _answer_preempt(position: Position, side: str, given: Preempt, ctx: _Ctx) -> Advance | Refusal:
    interrupted = _current(position)
    if given.wing is None:
        return _begin(position, interrupted.id, (), ctx)
    candidates = {w.id for w in _preempt_candidates(position, side)}
    if given.wing not in candidates:
        return Refusal(
            f"{given.wing} may not pre-empt; choose one of {_list(tuple(sorted(candidates)))}",
            "illegal",
        )
    if given.ac and not _ac_available(position, side):
        return Refusal("your army commander cannot help (off the map or finished)", "illegal")
    wing = position.wing(given.wing)
    commander = position.commander(wing.id)
    assert commander is not None  # eligible wings have a commander on the map
    modifiers = [("wing commander rating", commander.rating)]
    if given.ac:
        ac = position.army_commander(side)
        assert ac is not None
        modifiers.append(("army commander helps", ctx.rules.preempt_ac_help))
        # The helping AC is finished for that activation; _after_actions turns it back.
        position = replace(position.with_leader(replace(ac, finished=True)), helping_ac=ac.id)
    roll = command_roll(ctx.chance, "pre-emption", modifiers, ctx.rules.preempt_max)
    if roll.success:
        position = position.with_wing(replace(interrupted, bypassed=True))
        position = replace(position, interrupted=interrupted.id)
        text = f"{wing.id} pre-empts {interrupted.id}, which is Bypassed"
        event = Event("preempt", side=side, wing=wing.id, text=text, rolls=(roll,))
        return _begin(position, wing.id, (event,), ctx)
    position = position.with_wing(replace(wing, preempt_failed=True))
    text = f"{wing.id} fails to pre-empt and may not try again this turn"
    event = Event("preempt", side=side, wing=wing.id, text=text, rolls=(roll,))
    return _begin(position, interrupted.id, (event,), ctx)


def _answer_change(position: Position, given: ChangeOrder, ctx: _Ctx) -> Advance | Refusal:
    wing = _current(position)
    after = replace(position, step="actions")
    if given.order is None or given.order == wing.order:
        return after, ()
    target = ctx.rules.order_change.get((wing.order, given.order))
    if target is None:
        return Refusal(f"{wing.id} cannot change from {wing.order} to {given.order}", "illegal")
    commander = position.commander(wing.id)
    assert commander is not None
    modifiers = [("wing commander rating", commander.rating)]
    roll = command_roll(ctx.chance, "order change", modifiers, target)
    if roll.success:
        after = after.with_wing(replace(wing, order=given.order))
        text = f"{wing.id} changes its order from {wing.order} to {given.order}"
    else:
        text = f"{wing.id} fails to change its order to {given.order} and keeps {wing.order}"
    event = Event("order-change", side=wing.side, wing=wing.id, text=text, rolls=(roll,))
    return after, (event,)


def _answer_continue(position: Position, go: bool, ctx: _Ctx) -> Advance:
    wing = _current(position)
    if not go:
        event = Event("continuation", wing.side, wing.id, f"{wing.id} stops")
        return _finish(position, wing.id, (event,), ctx)
    commander = position.commander(wing.id)
    assert commander is not None  # the step is only offered with the commander on the map
    target = ctx.rules.continuation_max[wing.activations - 1]
    modifiers = [("wing commander rating", commander.rating)]
    roll = command_roll(ctx.chance, "continuation", modifiers, target)
    number = wing.activations + 1
    if roll.success:
        text = f"{wing.id} gains activation {number}"
        event = Event("continuation", wing.side, wing.id, text, (roll,))
        return _to_activation(position, wing.id, (event,), ctx)  # back to A
    text = f"{wing.id} fails to gain activation {number}"
    event = Event("continuation", wing.side, wing.id, text, (roll,))
    return _finish(position, wing.id, (event,), ctx)


# --- the automatic steps -------------------------------------------------------------------------


def start_turn(
    position: Position, chance: Chance, rules: CommandRules, resolvers: Resolvers | None = None
) -> Advance:
    """Run a turn from its start (3.1) to the first decision: for a scenario that starts with its
    wing orders given, or for tools and tests that set up a position mid-game."""
    return _start_turn(position, (), _Ctx(chance, rules, resolvers or Resolvers()))


def _start_turn(position: Position, events: Events, ctx: _Ctx) -> Advance:
    """3.1: the initiative, then the first wing (chosen, or the only one there is)."""
    base = replace(
        position,
        phase="initiative",
        step="none",
        active=None,
        current=None,
        interrupted=None,
        initiative=None,
        senior=None,
        passes=0,
        helping_ac=None,
    )
    result = determine(base, ctx.chance)
    events = (*events, *result.events)
    if result.side is None:
        return _rout(base, events, ctx)
    chosen = replace(
        base, phase="activation", initiative=result.side, senior=result.senior, active=result.side
    )
    if len(result.choices) == 1:
        return _to_activation(chosen, result.choices[0], events, ctx)
    return replace(chosen, step="first_wing"), events


def _to_activation(position: Position, wing_id: str, events: Events, ctx: _Ctx) -> Advance:
    """A wing is activated: step A when the other side has a wing that may pre-empt, else B."""
    wing = position.wing(wing_id)
    position = replace(position, phase="activation", active=wing.side, current=wing_id, passes=0)
    if _preempt_candidates(position, position.other(wing.side)):
        return replace(position, step="preempt"), events
    return _begin(position, wing_id, events, ctx)


def _begin(position: Position, wing_id: str, events: Events, ctx: _Ctx) -> Advance:
    """Step B: the activation begins (and is counted); its side owes the order-change answer."""
    wing = position.wing(wing_id)
    begun = replace(wing, activations=wing.activations + 1, bypassed=False)
    position = replace(
        position.with_wing(begun), active=wing.side, current=wing_id, step="order_change"
    )
    text = f"{wing_id} begins activation {begun.activations}"
    return position, (*events, Event("activation", wing.side, wing_id, text))


def _after_fighting(position: Position, events: Events, ctx: _Ctx) -> Advance:
    """D, once the resolver hands back: a retreat whose path its side chooses is owed by that
    side (the defender's, maybe, in the attacker's activation); else on to E."""
    if position.retreats:
        unit_id, hexes = position.retreats[0]
        side = next(u.side for u in position.units if u.id == unit_id)
        text = f"{side} chooses the path of {unit_id}'s retreat ({counted(hexes, 'hex', 'hexes')})"
        ask = Event("retreat-path", side=side, wing=position.current, text=text)
        return replace(position, step="retreat_path", active=side), (*events, ask)
    return _after_actions(replace(position, active=_current(position).side), events, ctx)


def _after_actions(position: Position, events: Events, ctx: _Ctx) -> Advance:
    """After C and D: release a helping AC, then E (continuation) unless the wing must finish."""
    if position.helping_ac is not None:
        ac = next(x for x in position.leaders if x.id == position.helping_ac)
        position = replace(position.with_leader(replace(ac, finished=False)), helping_ac=None)
    wing = _current(position)
    commander = position.commander(wing.id)
    if wing.activations >= MAX_ACTIVATIONS:
        event = Event("continuation", wing.side, wing.id, f"{wing.id} has had three activations")
        return _finish(position, wing.id, (*events, event), ctx)
    if commander is None or commander.hex is None:
        text = f"{wing.id} cannot continue: its commander is off the map"
        return _finish(
            position, wing.id, (*events, Event("continuation", wing.side, wing.id, text)), ctx
        )
    return replace(position, step="continuation"), events


def _finish(position: Position, wing_id: str, events: Events, ctx: _Ctx) -> Advance:
    """The wing has finished (its commander shows F); then step F."""
    wing = position.wing(wing_id)
    position = position.with_wing(replace(wing, finished=True))
    commander = position.commander(wing_id)
    if commander is not None:
        position = position.with_leader(replace(commander, finished=True))
    position = replace(position, current=None)
    events = (*events, Event("finished", wing.side, wing_id, f"{wing_id} has finished"))
    return _step_f(position, wing.side, events, ctx)


def _step_f(position: Position, last_side: str, events: Events, ctx: _Ctx) -> Advance:
    """F: a Bypassed wing activates (back to B); else the next wing; else the rout phase."""
    if position.interrupted is not None:
        waiting = position.wing(position.interrupted)
        position = replace(position, interrupted=None)
        if can_activate(position, waiting):
            return _begin(position, waiting.id, events, ctx)
        # A wing whose commander left the map cannot be activated; the turn goes on as if the
        # pre-empting wing had been the last to activate.
        position = position.with_wing(replace(waiting, bypassed=False))
        text = f"{waiting.id} was Bypassed but cannot activate: its commander is off the map"
        events = (*events, Event("bypassed-lost", waiting.side, waiting.id, text))
    if not any(can_activate(position, w) for w in position.wings):
        return _rout(position, events, ctx)
    # Players normally alternate: the opponent of the side whose wing just finished is next.
    return _offer_activation(position, position.other(last_side), events, ctx)


def _offer_activation(position: Position, side: str, events: Events, ctx: _Ctx) -> Advance:
    """The side owes activate-or-pass; a side with nothing to activate passes at once."""
    position = replace(position, phase="activation", active=side, current=None)
    if eligible(position, side):
        return replace(position, step="activate"), events
    return _pass(position, side, events, ctx, automatic=True)


def _pass(
    position: Position, side: str, events: Events, ctx: _Ctx, automatic: bool = False
) -> Advance:
    passes = position.passes + 1
    why = " (no wing it can activate)" if automatic else ""
    events = (*events, Event("pass", side, None, f"{side} passes{why}"))
    position = replace(position, passes=passes)
    if passes >= 2:
        events = (*events, Event("pass-pass", None, None, "both sides passed in a row"))
        return _rout(position, events, ctx)
    return _offer_activation(position, position.other(side), events, ctx)


def _rout(position: Position, events: Events, ctx: _Ctx) -> Advance:
    """3.3: the rout phase (handed to the rout module), then marker removal."""
    position = replace(position, phase="rout", step="none", active=None, current=None)
    events = (*events, Event("rout-phase", text="rout phase"))
    return _rout_from(position, 0, events, ctx)


def _rout_from(position: Position, index: int, events: Events, ctx: _Ctx) -> Advance:
    """The sides' rout moves from ``position.sides[index]`` on, in the scenario's order; a side
    that chooses its paths (and has routers) is asked, and the phase waits for it."""
    for side in position.sides[index:]:
        if position.routers(side) and position.standing(side, "retreat") == CHOOSE_PATHS:
            ask = Event("rout-paths", side=side, text=f"{side} chooses its routed units' paths")
            return replace(position, step="rout_paths", active=side), (*events, ask)
        done = ctx.resolvers.rout(position, ctx.chance, side, ())
        assert not isinstance(done, Refusal), done  # default moves are never refused
        position, routed = done
        events = (*events, *routed)
    return _markers(position, events, ctx)


def _markers(position: Position, events: Events, ctx: _Ctx) -> Advance:
    """3.4: markers off, leaders face up, replacements, withdrawal, the next turn or the end."""
    events = (*events, Event("marker-removal", text="marker removal"))
    units = tuple(replace(u, salvo=False, fired=False) for u in position.units)
    wings = tuple(
        replace(w, finished=False, bypassed=False, activations=0, preempt_failed=False)
        for w in position.wings
    )
    position = replace(position, phase="markers", units=units, wings=wings)
    leaders = []
    for leader in position.leaders:
        leader = replace(leader, finished=False)
        if leader.lost_this_turn:
            leader, event = _replace_leader(position, leader.id, ctx)
            events = (*events, event)
        leaders.append(leader)
    position = replace(position, leaders=tuple(leaders))
    broken = [s for s in position.sides if 0 < position.break_level(s) <= position.lost(s)]
    if broken:
        return _withdraw(position, broken, events)
    if position.turn >= position.last_turn:
        rule = ctx.rules.last_turn
        winner = _last_turn_winner(position, rule)
        text = f"turn {position.turn} was the last: the battle ends"
        if winner is not None:
            text += f"; {winner} holds the field, having lost the smaller share of its army"
        elif rule == "fewer_losses":
            text += ", drawn: both sides lost the same share of their break levels"
        else:
            text += ", drawn, as this battle's rule has it"
        ended = _over(position, winner, "last turn played")
        return ended, (*events, Event("game-end", winner, None, text))
    nxt = replace(position, turn=position.turn + 1)
    events = (*events, Event("turn", text=f"turn {nxt.turn} begins"))
    return _start_turn(nxt, events, ctx)


def _last_turn_winner(position: Position, rule: str) -> str | None:
    """The winner when the last turn ends with both armies in the field (a house rule)."""
    if rule != "fewer_losses":
        return None
    # Compared as fractions of each break level, without rounding: lost_a/break_a < lost_b/break_b.
    first, second = position.sides
    a = position.lost(first) * max(1, position.break_level(second))
    b = position.lost(second) * max(1, position.break_level(first))
    if a == b:
        return None
    return first if a < b else second


def _replace_leader(position: Position, leader_id: str, ctx: _Ctx) -> tuple[Leader, Event]:
    """The replacement table for a leader lost this turn. A replacement stands with the first unit
    of its wing (the army's, for an AC) on the map; with no replacement, or nowhere to stand, the
    leader stays off the map and the table is used again at the next marker removal."""
    leader = next(x for x in position.leaders if x.id == leader_id)
    roll = command_roll(ctx.chance, f"leader replacement {leader.id}", (), 10)
    rating = replacement_rating(ctx.rules, roll.natural)
    where = _leader_spot(position, leader.side, leader.wing if leader.role == "WC" else None)
    if rating is None or where is None:
        why = "no replacement this turn" if rating is None else "no unit to join"
        text = f"{leader.id} is not replaced ({why})"
        return leader, Event("leader-replacement", leader.side, leader.wing, text, (roll,))
    new = replace(leader, rating=rating, hex=where, lost_this_turn=False, finished=False)
    text = f"{leader.id} is replaced by a leader rated {rating}"
    return new, Event("leader-replacement", leader.side, leader.wing, text, (roll,))


def _leader_spot(position: Position, side: str, wing: str | None) -> Hex | None:
    for unit in position.units:
        mine = unit.side == side and (wing is None or unit.wing == wing)
        if mine and unit.hex is not None and unit.morale_state != "routed":
            return unit.hex
    return None


def _withdraw(position: Position, broken: list[str], events: Events) -> Advance:
    """4.6: a side whose lost SP reached its break level withdraws and loses."""
    texts = [
        f"{s} withdraws ({position.lost(s)} SP lost, break level {position.break_level(s)})"
        for s in broken
    ]
    if len(broken) == len(position.sides):
        ended = _over(position, None, "both armies withdraw")
    else:
        ended = _over(position, position.other(broken[0]), f"{broken[0]} withdraws")
    return ended, (
        *events,
        *(Event("withdrawal", side, None, t) for side, t in zip(broken, texts, strict=True)),
    )


def _over(position: Position, winner: str | None, reason: str) -> Position:
    return replace(
        position,
        phase="over",
        step="none",
        active=None,
        current=None,
        interrupted=None,
        winner=winner,
        end_reason=reason,
    )
