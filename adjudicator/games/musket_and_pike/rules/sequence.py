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

from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import decisions
from adjudicator.games.musket_and_pike.rules.command import CommandRules, command_roll
from adjudicator.games.musket_and_pike.rules.handover import (
    CHOOSE_PATHS,
    Advance,
    Ctx,
    Resolvers,
    no_retreats,
    no_rout_moves,
    no_unit_actions,
)
from adjudicator.games.musket_and_pike.rules.initiative import eligible
from adjudicator.games.musket_and_pike.rules.owed import (
    BRIEFS,
    ac_available,
    current_wing,
    first_choices,
    legal_answers,
    owing,
    pending,
    preempt_candidates,
    setup,
)
from adjudicator.games.musket_and_pike.rules.phrases import side_ngettext
from adjudicator.games.musket_and_pike.rules.state import Event, Position
from adjudicator.games.musket_and_pike.rules.turn import (
    after_fighting,
    begin,
    finish,
    pass_turn,
    rout_from,
    run_turn,
    start_turn,
    to_activation,
)

# The sequence's public names, wherever they are kept: what is owed (owed.py), the automatic
# steps (turn.py) and the hand-over to the unit-level modules (handover.py).
__all__ = [
    "BRIEFS",
    "CHOOSE_PATHS",
    "Advance",
    "Resolvers",
    "answer",
    "legal_answers",
    "no_retreats",
    "no_rout_moves",
    "no_unit_actions",
    "pending",
    "setup",
    "start_turn",
]

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
    if side not in owing(position):
        owes = side_ngettext(
            "%(side)s owes no decision now",
            "%(side)s owe no decision now",
            position.scenario,
            side,
        )
        return Refusal(owes, "not-owed")
    parsed = decisions.read(position.step, reply)
    if isinstance(parsed, Refusal):
        return parsed
    ctx = Ctx(chance, rules, resolvers or Resolvers())
    match parsed:
        case decisions.SetupOrders():
            return _answer_setup(position, side, parsed, ctx)
        case decisions.FirstWing(wing):
            if wing not in first_choices(position):
                choices = _list(first_choices(position))
                return Refusal(f"{wing} may not activate first; choose one of {choices}", "illegal")
            return to_activation(position, wing, (), ctx)
        case decisions.Activate():
            return _answer_activate(position, side, parsed, ctx)
        case decisions.Preempt():
            return _answer_preempt(position, side, parsed, ctx)
        case decisions.ChangeOrder():
            return _answer_change(position, parsed, ctx)
        case decisions.Actions(orders):
            acting = current_wing(position).id
            done = ctx.resolvers.activation(position, acting, orders, ctx.chance)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            return after_fighting(moved, events, ctx)
        case decisions.Continue(go):
            return _answer_continue(position, go, ctx)
        case decisions.RetreatPath(paths):
            done = ctx.resolvers.retreat(position, ctx.chance, paths)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            return after_fighting(moved, events, ctx)
        case decisions.RoutPaths(paths):
            done = ctx.resolvers.rout(position, ctx.chance, side, paths)
            if isinstance(done, Refusal):
                return done
            moved, events = done
            after = position.sides.index(side) + 1
            return rout_from(replace(moved, step="none", active=None), after, events, ctx)
    return Refusal(_("unknown answer"), "malformed")


def _list(items: tuple[str, ...]) -> str:
    return ", ".join(items) or _("none")


def _answer_setup(
    position: Position, side: str, given: decisions.SetupOrders, ctx: Ctx
) -> Advance | Refusal:
    mine = [w.id for w in position.wings if w.side == side]
    named = [wing for wing, _ in given.orders]
    if sorted(named) != sorted(mine):
        return Refusal(
            _("give exactly one order to each of your wings: %(wings)s", wings=_list(tuple(mine))),
            "illegal",
        )
    secret = (*position.secret_orders, (side, given.orders))
    waiting = replace(position, secret_orders=secret)
    handed = side_ngettext(
        "%(side)s has handed in the wing orders",
        "%(side)s have handed in the wing orders",
        position.scenario,
        side,
    )
    event = Event("orders-in", side=side, text=handed)
    if len(secret) < len(position.sides):
        return waiting, (event,)
    # Both are in: reveal together and start the first turn.
    orders = {wing: order for _, pairs in secret for wing, order in pairs}
    revealed = replace(
        waiting,
        wings=tuple(replace(w, order=orders[w.id]) for w in waiting.wings),
        secret_orders=(),
    )
    shown = ", ".join(f"{w.id} {decisions.order_words(w.order)}" for w in revealed.wings)
    reveal = Event("orders-revealed", text=_("wing orders revealed: %(orders)s", orders=shown))
    return run_turn(revealed, (event, reveal), ctx)


def _answer_activate(
    position: Position, side: str, given: decisions.Activate, ctx: Ctx
) -> Advance | Refusal:
    if given.wing is None:
        return pass_turn(position, side, (), ctx)
    if given.wing not in {w.id for w in eligible(position, side)}:
        names = tuple(w.id for w in eligible(position, side))
        return Refusal(
            _(
                "%(wing)s cannot be activated; choose one of %(wings)s, or pass",
                wing=given.wing,
                wings=_list(names),
            ),
            "illegal",
        )
    return to_activation(position, given.wing, (), ctx)


def _answer_preempt(
    position: Position, side: str, given: decisions.Preempt, ctx: Ctx
) -> Advance | Refusal:
    interrupted = current_wing(position)
    if given.wing is None:
        return begin(position, interrupted.id, (), ctx)
    candidates = {w.id for w in preempt_candidates(position, side)}
    if given.wing not in candidates:
        return Refusal(
            _(
                "%(wing)s may not pre-empt; choose one of %(wings)s",
                wing=given.wing,
                wings=_list(tuple(sorted(candidates))),
            ),
            "illegal",
        )
    if given.ac and not ac_available(position, side):
        return Refusal(_("your army commander cannot help (off the map or finished)"), "illegal")
    wing = position.wing(given.wing)
    commander = position.commander(wing.id)
    assert commander is not None  # eligible wings have a commander on the map
    modifiers = [("wing commander rating", commander.rating)]
    if given.ac:
        ac = position.army_commander(side)
        assert ac is not None
        modifiers.append(("army commander helps", ctx.rules.preempt_ac_help))
        # The helping AC is finished for that activation; turn.py turns it back after the actions.
        position = replace(position.with_leader(replace(ac, finished=True)), helping_ac=ac.id)
    roll = command_roll(ctx.chance, "pre-emption", modifiers, ctx.rules.preempt_max)
    if roll.success:
        position = position.with_wing(replace(interrupted, bypassed=True))
        position = replace(position, interrupted=interrupted.id)
        text = _(
            "%(wing)s pre-empts %(other)s, which is Bypassed",
            wing=wing.id,
            other=interrupted.id,
        )
        event = Event("preempt", side=side, wing=wing.id, text=text, rolls=(roll,))
        return begin(position, wing.id, (event,), ctx)
    position = position.with_wing(replace(wing, preempt_failed=True))
    text = _("%(wing)s fails to pre-empt and may not try again this turn", wing=wing.id)
    event = Event("preempt", side=side, wing=wing.id, text=text, rolls=(roll,))
    return begin(position, interrupted.id, (event,), ctx)


def _answer_change(position: Position, given: decisions.ChangeOrder, ctx: Ctx) -> Advance | Refusal:
    wing = current_wing(position)
    after = replace(position, step="actions")
    if given.order is None or given.order == wing.order:
        return after, ()
    target = ctx.rules.order_change.get((wing.order, given.order))
    was, asked = decisions.order_words(wing.order), decisions.order_words(given.order)
    if target is None:
        return Refusal(
            _(
                "%(wing)s cannot change from %(was)s to %(asked)s",
                wing=wing.id,
                was=was,
                asked=asked,
            ),
            "illegal",
        )
    commander = position.commander(wing.id)
    assert commander is not None
    modifiers = [("wing commander rating", commander.rating)]
    roll = command_roll(ctx.chance, "order change", modifiers, target)
    if roll.success:
        after = after.with_wing(replace(wing, order=given.order))
        text = _(
            "%(wing)s changes its order from %(was)s to %(asked)s",
            wing=wing.id,
            was=was,
            asked=asked,
        )
    else:
        text = _(
            "%(wing)s fails to change its order to %(asked)s and keeps %(was)s",
            wing=wing.id,
            was=was,
            asked=asked,
        )
    event = Event("order-change", side=wing.side, wing=wing.id, text=text, rolls=(roll,))
    return after, (event,)


def _answer_continue(position: Position, go: bool, ctx: Ctx) -> Advance:
    wing = current_wing(position)
    if not go:
        event = Event("continuation", wing.side, wing.id, _("%(wing)s stops", wing=wing.id))
        return finish(position, wing.id, (event,), ctx)
    commander = position.commander(wing.id)
    assert commander is not None  # the step is only offered with the commander on the map
    target = ctx.rules.continuation_max[wing.activations - 1]
    modifiers = [("wing commander rating", commander.rating)]
    roll = command_roll(ctx.chance, "continuation", modifiers, target)
    number = wing.activations + 1
    if roll.success:
        text = _("%(wing)s gains activation %(number)s", wing=wing.id, number=number)
        event = Event("continuation", wing.side, wing.id, text, (roll,))
        return to_activation(position, wing.id, (event,), ctx)  # back to A
    text = _("%(wing)s fails to gain activation %(number)s", wing=wing.id, number=number)
    event = Event("continuation", wing.side, wing.id, text, (roll,))
    return finish(position, wing.id, (event,), ctx)
