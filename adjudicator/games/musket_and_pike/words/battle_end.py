"""The end of a Musket & Pike battle in words: who won and why, each side's losses against its
break level, and the rule that decided a battle fought to its last turn."""

from __future__ import annotations

from adjudicator.core.contract import Outcome
from adjudicator.core.said import _, joined
from adjudicator.games.musket_and_pike.rules.data import LAST_TURN_WORDS
from adjudicator.games.musket_and_pike.rules.phrases import side_ngettext
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.games.musket_and_pike.rules.titles import battle_of
from adjudicator.games.musket_and_pike.words.describe import end_words


def battle_outcome(state: Position) -> Outcome:
    """How the battle stands, in words for the end mail and the archive: the turn and each side's
    losses while it goes on; once over, the winner (or none), the reason and the rule that
    decided, with the score that ranks the result."""
    first, second = state.sides
    losses = joined(
        [
            side_ngettext(
                "%(side)s lost %(lost)s of %(break_level)s SP",
                "%(side)s lost %(lost)s of %(break_level)s SP",
                state.scenario,
                side,
                lost=state.lost(side),
                break_level=state.break_level(side),
            )
            for side in state.sides
        ],
        ", ",
    )
    if state.phase != "over":
        summary = _(
            "Turn %(turn)s of %(last)s: %(losses)s.",
            turn=state.turn,
            last=state.last_turn,
            losses=losses,
        )
        return Outcome(False, summary=summary)
    winners = (state.winner,) if state.winner else ()
    reason = end_words(state.end_reason or "")
    battle = battle_of(state.scenario)
    if state.end_reason == "last turn played" and battle is not None:
        # The final report says which rule decided, as the help and the opening mail did.
        reason = _(
            "%(reason)s: after it %(rule)s",
            reason=reason,
            rule=_(LAST_TURN_WORDS[battle.last_turn_rule]),
        )
    score = (1 if state.winner == first else 0, state.lost(second), -state.lost(first))
    if state.winner:
        summary = side_ngettext(
            "%(side)s wins (%(reason)s); %(losses)s.",
            "%(side)s win (%(reason)s); %(losses)s.",
            state.scenario,
            state.winner,
            reason=reason,
            losses=losses,
        )
    else:
        summary = _("No winner (%(reason)s); %(losses)s.", reason=reason, losses=losses)
    return Outcome(True, winners, summary, score)
