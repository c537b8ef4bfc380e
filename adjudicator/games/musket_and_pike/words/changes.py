"""What a resolved step changed on the map, in words, for its report: the turn and phase, the
initiative, each unit's, leader's and wing's changes, the losses and the end of the battle.

Everything here reads public facts only. A resolution's facts are shown to both players and on the
archive, so ``changes`` never looks at what stays secret (the set-up orders before the reveal
live in ``secret_orders``, which it does not compare; the wing orders change only at the reveal).
"""

from __future__ import annotations

from adjudicator.core.said import _, joined, words_of
from adjudicator.games.musket_and_pike.rules.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.rules.state import Leader, Position, Unit, Wing
from adjudicator.games.musket_and_pike.rules.titles import side_title
from adjudicator.games.musket_and_pike.words.describe import ORDER_WORDS, PHASE_WORDS, end_words
from adjudicator.games.musket_and_pike.words.report import state_words, where


def _phase(phase: str) -> str:
    return words_of(PHASE_WORDS, phase)


def changes(before: Position, after: Position) -> list[str]:
    """What is different on the map and in the sequence of play, one line per thing changed."""
    lines: list[str] = []
    if (before.turn, before.phase) != (after.turn, after.phase):
        lines.append(
            _(
                "turn %(turn)s, %(phase)s → turn %(next)s, %(next_phase)s",
                turn=before.turn,
                phase=_phase(before.phase),
                next=after.turn,
                next_phase=_phase(after.phase),
            )
        )
    if after.initiative and after.initiative != before.initiative:
        lines.append(_("initiative: %(side)s", side=side_title(after.scenario, after.initiative)))
    old_units = {u.id: u for u in before.units}
    lines += [
        _("%(id)s: %(changes)s", id=unit.id, changes=joined(said))
        for unit in after.units
        if unit.id in old_units and (said := _unit_changes(old_units[unit.id], unit))
    ]
    old_leaders = {x.id: x for x in before.leaders}
    lines += [
        _("%(id)s: %(changes)s", id=leader.id, changes=joined(said))
        for leader in after.leaders
        if leader.id in old_leaders and (said := _leader_changes(old_leaders[leader.id], leader))
    ]
    old_wings = {w.id: w for w in before.wings}
    # At the reveal the orders are shown, not changed: the set-up's orders were never in force.
    revealed = before.phase == "setup" and after.phase != "setup"
    lines += [
        _("wing %(id)s: %(changes)s", id=wing.id, changes=joined(said))
        for wing in after.wings
        if wing.id in old_wings and (said := _wing_changes(old_wings[wing.id], wing, revealed))
    ]
    for side in after.sides:
        if after.lost(side) != before.lost(side):
            lines.append(
                _(
                    "%(side)s losses: %(before)s → %(after)s SP (withdraws at %(break_level)s)",
                    side=side_title(after.scenario, side),
                    before=before.lost(side),
                    after=after.lost(side),
                    break_level=after.break_level(side),
                )
            )
    if after.phase == "over" and before.phase != "over":
        won = side_title(after.scenario, after.winner) if after.winner else _("no winner")
        lines.append(
            _(
                "the battle is over: %(won)s (%(reason)s)",
                won=won,
                reason=end_words(after.end_reason or ""),
            )
        )
    return lines


def _unit_changes(old: Unit, new: Unit) -> list[str]:
    said: list[str] = []
    if new.hex is None and old.hex is not None:
        said.append(
            _("eliminated at %(hex)s", hex=where(old.hex)) if new.sp <= 0 else _("leaves the map")
        )
    elif new.hex != old.hex:
        said.append(_("%(old)s → %(new)s", old=where(old.hex), new=where(new.hex)))
    if new.hex is not None and new.facing != old.facing:
        said.append(_("faces %(direction)s", direction=DIRECTION_NAMES[new.facing]))
    if new.sp != old.sp:
        said.append(f"{old.sp} → {new.sp} SP")
    if new.formation != old.formation:
        said.append(state_words(new.formation))
    if new.morale_state != old.morale_state:
        said.append(_("morale %(state)s", state=state_words(new.morale_state)))
    if new.salvo != old.salvo:
        said.append(_("Salvo marker placed") if new.salvo else _("Salvo marker removed"))
    if new.fired != old.fired:
        said.append(_("guns fired") if new.fired else _("guns ready again"))
    return said


def _leader_changes(old: Leader, new: Leader) -> list[str]:
    said: list[str] = []
    if new.hex != old.hex:
        said.append(_("%(old)s → %(new)s", old=where(old.hex), new=where(new.hex)))
    if new.rating != old.rating:
        said.append(_("rating %(old)s → %(new)s", old=old.rating, new=new.rating))
    if new.finished != old.finished:
        said.append(_("finished") if new.finished else _("ready again"))
    if new.lost_this_turn and not old.lost_this_turn:
        said.append(_("lost"))
    return said


def _wing_changes(old: Wing, new: Wing, revealed: bool = False) -> list[str]:
    said: list[str] = []
    if revealed:
        said.append(
            _("its secret order is revealed: %(order)s", order=words_of(ORDER_WORDS, new.order))
        )
    elif new.order != old.order:
        said.append(
            _(
                "order %(old)s → %(new)s",
                old=words_of(ORDER_WORDS, old.order),
                new=words_of(ORDER_WORDS, new.order),
            )
        )
    if new.activations != old.activations and new.activations:
        said.append(_("activation %(number)s", number=new.activations))
    if new.preempt_failed and not old.preempt_failed:
        said.append(_("failed to pre-empt: no second try this turn"))
    if new.bypassed != old.bypassed:
        said.append(_("Bypassed") if new.bypassed else _("no longer Bypassed"))
    if new.finished != old.finished:
        said.append(_("finished") if new.finished else _("ready again"))
    return said


# --- the report -----------------------------------------------------------------------------------
