"""The steps of a turn that need no decision (3.1-3.4): the initiative, an activation's start and
finish, step F, passing, the rout phase, marker removal, leader replacement, withdrawal and the
end of the battle. Each runs on until a decision is owed again (see owed.py) or the game is over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _, ngettext
from adjudicator.games.musket_and_pike.rules.command import (
    MAX_ACTIVATIONS,
    CommandRules,
    command_roll,
    replacement_rating,
)
from adjudicator.games.musket_and_pike.rules.handover import (
    CHOOSE_PATHS,
    Advance,
    Ctx,
    Events,
    Resolvers,
)
from adjudicator.games.musket_and_pike.rules.initiative import can_activate, determine, eligible
from adjudicator.games.musket_and_pike.rules.owed import current_wing, preempt_candidates
from adjudicator.games.musket_and_pike.rules.phrases import number_of, side_ngettext
from adjudicator.games.musket_and_pike.rules.state import Event, Hex, Leader, Position
from adjudicator.games.musket_and_pike.rules.titles import side_title


def start_turn(
    position: Position, chance: Chance, rules: CommandRules, resolvers: Resolvers | None = None
) -> Advance:
    """Run a turn from its start (3.1) to the first decision: for a scenario that starts with its
    wing orders given, or for tools and tests that set up a position mid-game."""
    return run_turn(position, (), Ctx(chance, rules, resolvers or Resolvers()))


def run_turn(position: Position, events: Events, ctx: Ctx) -> Advance:
    """3.1: the initiative, then the first wing (chosen, or the only one there is)."""
    base = _nobody_acting(
        position, "initiative", initiative=None, senior=None, passes=0, helping_ac=None
    )
    result = determine(base, ctx.chance)
    events = (*events, *result.events)
    if result.side is None:
        return _rout(base, events, ctx)
    chosen = replace(
        base, phase="activation", initiative=result.side, senior=result.senior, active=result.side
    )
    if len(result.choices) == 1:
        return to_activation(chosen, result.choices[0], events, ctx)
    return replace(chosen, step="first_wing"), events


def to_activation(position: Position, wing_id: str, events: Events, ctx: Ctx) -> Advance:
    """A wing is activated: step A when the other side has a wing that may pre-empt, else B."""
    wing = position.wing(wing_id)
    position = replace(position, phase="activation", active=wing.side, current=wing_id, passes=0)
    if preempt_candidates(position, position.other(wing.side)):
        return replace(position, step="preempt"), events
    return begin(position, wing_id, events, ctx)


def begin(position: Position, wing_id: str, events: Events, ctx: Ctx) -> Advance:
    """Step B: the activation begins (and is counted); its side owes the order-change answer."""
    wing = position.wing(wing_id)
    begun = replace(wing, activations=wing.activations + 1, bypassed=False)
    position = replace(
        position.with_wing(begun), active=wing.side, current=wing_id, step="order_change"
    )
    text = _("%(wing)s begins activation %(number)s", wing=wing_id, number=begun.activations)
    return position, (*events, Event("activation", wing.side, wing_id, text))


def after_fighting(position: Position, events: Events, ctx: Ctx) -> Advance:
    """D, once the resolver hands back: a retreat whose path its side chooses is owed by that
    side (the defender's, maybe, in the attacker's activation); else on to E."""
    if position.retreats:
        unit_id, hexes = position.retreats[0]
        side = next(u.side for u in position.units if u.id == unit_id)
        title = side_title(position.scenario, side)
        many = number_of(title) > 1
        text = (
            ngettext(
                "%(side)s choose the path of %(unit)s's retreat (%(num)s hex)",
                "%(side)s choose the path of %(unit)s's retreat (%(num)s hexes)",
                hexes,
                side=title,
                unit=unit_id,
            )
            if many
            else ngettext(
                "%(side)s chooses the path of %(unit)s's retreat (%(num)s hex)",
                "%(side)s chooses the path of %(unit)s's retreat (%(num)s hexes)",
                hexes,
                side=title,
                unit=unit_id,
            )
        )
        ask = Event("retreat-path", side=side, wing=position.current, text=text)
        return replace(position, step="retreat_path", active=side), (*events, ask)
    return _after_actions(replace(position, active=current_wing(position).side), events, ctx)


def _after_actions(position: Position, events: Events, ctx: Ctx) -> Advance:
    """After C and D: release a helping AC, then E (continuation) unless the wing must finish."""
    if position.helping_ac is not None:
        ac = next(x for x in position.leaders if x.id == position.helping_ac)
        position = replace(position.with_leader(replace(ac, finished=False)), helping_ac=None)
    wing = current_wing(position)
    commander = position.commander(wing.id)
    if wing.activations >= MAX_ACTIVATIONS:
        event = Event(
            "continuation",
            wing.side,
            wing.id,
            _("%(wing)s has had three activations", wing=wing.id),
        )
        return finish(position, wing.id, (*events, event), ctx)
    if commander is None or commander.hex is None:
        text = _("%(wing)s cannot continue: its commander is off the map", wing=wing.id)
        return finish(
            position, wing.id, (*events, Event("continuation", wing.side, wing.id, text)), ctx
        )
    return replace(position, step="continuation"), events


def finish(position: Position, wing_id: str, events: Events, ctx: Ctx) -> Advance:
    """The wing has finished (its commander shows F); then step F."""
    wing = position.wing(wing_id)
    position = position.with_wing(replace(wing, finished=True))
    commander = position.commander(wing_id)
    if commander is not None:
        position = position.with_leader(replace(commander, finished=True))
    position = replace(position, current=None)
    events = (
        *events,
        Event("finished", wing.side, wing_id, _("%(wing)s has finished", wing=wing_id)),
    )
    return _step_f(position, wing.side, events, ctx)


def _step_f(position: Position, last_side: str, events: Events, ctx: Ctx) -> Advance:
    """F: a Bypassed wing activates (back to B); else the next wing; else the rout phase."""
    if position.interrupted is not None:
        waiting = position.wing(position.interrupted)
        position = replace(position, interrupted=None)
        if can_activate(position, waiting):
            return begin(position, waiting.id, events, ctx)
        # A wing whose commander left the map cannot be activated; the turn goes on as if the
        # pre-empting wing had been the last to activate.
        position = position.with_wing(replace(waiting, bypassed=False))
        text = _(
            "%(wing)s was Bypassed but cannot activate: its commander is off the map",
            wing=waiting.id,
        )
        events = (*events, Event("bypassed-lost", waiting.side, waiting.id, text))
    if not any(can_activate(position, w) for w in position.wings):
        return _rout(position, events, ctx)
    # Players normally alternate: the opponent of the side whose wing just finished is next.
    return _offer_activation(position, position.other(last_side), events, ctx)


def _offer_activation(position: Position, side: str, events: Events, ctx: Ctx) -> Advance:
    """The side owes activate-or-pass; a side with nothing to activate passes at once."""
    position = replace(position, phase="activation", active=side, current=None)
    if eligible(position, side):
        return replace(position, step="activate"), events
    return pass_turn(position, side, events, ctx, automatic=True)


def pass_turn(
    position: Position, side: str, events: Events, ctx: Ctx, automatic: bool = False
) -> Advance:
    passes = position.passes + 1
    if automatic:
        said = side_ngettext(
            "%(side)s passes (no wing it can activate)",
            "%(side)s pass (no wing it can activate)",
            position.scenario,
            side,
        )
    else:
        said = side_ngettext("%(side)s passes", "%(side)s pass", position.scenario, side)
    events = (*events, Event("pass", side, None, said))
    position = replace(position, passes=passes)
    if passes >= 2:
        events = (*events, Event("pass-pass", None, None, _("both sides passed in a row")))
        return _rout(position, events, ctx)
    return _offer_activation(position, position.other(side), events, ctx)


def _rout(position: Position, events: Events, ctx: Ctx) -> Advance:
    """3.3: the rout phase (handed to the rout module), then marker removal."""
    position = replace(position, phase="rout", step="none", active=None, current=None)
    events = (*events, Event("rout-phase", text=_("rout phase")))
    return rout_from(position, 0, events, ctx)


def rout_from(position: Position, index: int, events: Events, ctx: Ctx) -> Advance:
    """The sides' rout moves from ``position.sides[index]`` on, in the scenario's order; a side
    that chooses its paths (and has routers) is asked, and the phase waits for it."""
    for side in position.sides[index:]:
        if position.routers(side) and position.standing(side, "retreat") == CHOOSE_PATHS:
            who = side_ngettext(
                "%(side)s chooses the paths of its routed units",
                "%(side)s choose the paths of its routed units",
                position.scenario,
                side,
            )
            ask = Event("rout-paths", side=side, text=who)
            return replace(position, step="rout_paths", active=side), (*events, ask)
        done = ctx.resolvers.rout(position, ctx.chance, side, ())
        assert not isinstance(done, Refusal), done  # default moves are never refused
        position, routed = done
        events = (*events, *routed)
    return _markers(position, events, ctx)


def _markers(position: Position, events: Events, ctx: Ctx) -> Advance:
    """3.4: markers off, leaders face up, replacements, withdrawal, the next turn or the end."""
    events = (*events, Event("marker-removal", text=_("marker removal")))
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
        if winner is not None:
            text = side_ngettext(
                "turn %(turn)s was the last: the battle ends; %(side)s holds the field, having"
                " lost the smaller share of its army",
                "turn %(turn)s was the last: the battle ends; %(side)s hold the field, having"
                " lost the smaller share of its army",
                position.scenario,
                winner,
                turn=position.turn,
            )
        elif rule == "fewer_losses":
            text = _(
                "turn %(turn)s was the last: the battle ends, drawn: both sides lost the same"
                " share of their break levels",
                turn=position.turn,
            )
        else:
            text = _(
                "turn %(turn)s was the last: the battle ends, drawn, as this battle's rule has it",
                turn=position.turn,
            )
        ended = _over(position, winner, "last turn played")
        return ended, (*events, Event("game-end", winner, None, text))
    nxt = replace(position, turn=position.turn + 1)
    events = (*events, Event("turn", text=_("turn %(turn)s begins", turn=nxt.turn)))
    return run_turn(nxt, events, ctx)


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


def _replace_leader(position: Position, leader_id: str, ctx: Ctx) -> tuple[Leader, Event]:
    """The replacement table for a leader lost this turn. A replacement stands with the first unit
    of its wing (the army's, for an AC) on the map; with no replacement, or nowhere to stand, the
    leader stays off the map and the table is used again at the next marker removal."""
    leader = next(x for x in position.leaders if x.id == leader_id)
    roll = command_roll(ctx.chance, f"leader replacement {leader.id}", (), 10)
    rating = replacement_rating(ctx.rules, roll.natural)
    where = _leader_spot(position, leader.side, leader.wing if leader.role == "WC" else None)
    if rating is None or where is None:
        text = (
            _("%(leader)s is not replaced (no replacement this turn)", leader=leader.id)
            if rating is None
            else _("%(leader)s is not replaced (no unit to join)", leader=leader.id)
        )
        return leader, Event("leader-replacement", leader.side, leader.wing, text, (roll,))
    new = replace(leader, rating=rating, hex=where, lost_this_turn=False, finished=False)
    text = _("%(leader)s is replaced by a leader rated %(rating)s", leader=leader.id, rating=rating)
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
        _(
            "%(side)s withdraws (%(lost)s SP lost, break level %(break_level)s)",
            side=s,
            lost=position.lost(s),
            break_level=position.break_level(s),
        )
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
    return _nobody_acting(position, "over", winner=winner, end_reason=reason)


def _nobody_acting(position: Position, phase: str, **changes: Any) -> Position:
    """``position`` at ``phase`` with no decision owed and no side or wing acting (none
    interrupted either): how a turn starts and how the battle ends."""
    return replace(
        position, phase=phase, step="none", active=None, current=None, interrupted=None, **changes
    )
