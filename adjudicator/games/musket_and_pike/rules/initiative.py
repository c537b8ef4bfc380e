"""The initiative phase (4.1): which side activates the turn's first wing, and from which wings.

Determined once per turn, at its start, from the orders the wings hold:

- the senior order present is Charge if any wing holds it, else Make Ready, else Receive Charge;
- the side with more wings holding it wins and chooses which of its wings activates first: any
  of them, whatever order it holds (4.1.1);
- on equal counts (4.1.2) the side whose wing commander *holding that order* has the best rating
  (-2 best) wins; equal ratings: both roll a die, the higher wins, ties are re-rolled. This
  winner activates one of its wings holding the senior order. Counts of junior orders never
  decide anything;
- no wing holds any of the three (all Rally): a die roll decides (house rule);
- a wing whose commander is off the map cannot be activated and does not count (house rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.chance import Chance
from adjudicator.core.said import _, ngettext
from adjudicator.games.musket_and_pike.rules.command import opposed_roll
from adjudicator.games.musket_and_pike.rules.decisions import order_words
from adjudicator.games.musket_and_pike.rules.phrases import side_ngettext
from adjudicator.games.musket_and_pike.rules.state import Event, Position, Roll, Wing
from adjudicator.games.musket_and_pike.rules.titles import side_title

SENIORITY = ("charge", "make_ready", "receive_charge")  # Rally never takes part
# A runaway re-roll loop is impossible with a fair die, but a broken Chance must not hang a worker.
MAX_REROLLS = 100


@dataclass(frozen=True)
class Initiative:
    """Who won, for what reason, and the wings the winner may activate first."""

    side: str | None  # None: no wing of either side can be activated this turn
    senior: str | None  # None: all Rally (or nothing can activate)
    choices: tuple[str, ...]  # wing ids, position order (see first_wings)
    events: tuple[Event, ...]


def can_activate(position: Position, wing: Wing) -> bool:
    """A wing may be activated when it has not finished and its commander is on the map."""
    if wing.finished:
        return False
    commander = position.commander(wing.id)
    return commander is not None and commander.hex is not None


def eligible(position: Position, side: str) -> tuple[Wing, ...]:
    return tuple(w for w in position.wings if w.side == side and can_activate(position, w))


def senior_order(wings: tuple[Wing, ...]) -> str | None:
    held = {wing.order for wing in wings}
    for order in SENIORITY:
        if order in held:
            return order
    return None


def _holding(position: Position, senior: str) -> dict[str, tuple[Wing, ...]]:
    return {
        side: tuple(w for w in eligible(position, side) if w.order == senior)
        for side in position.sides
    }


def won_on_count(position: Position, senior: str | None) -> bool:
    """Whether this turn's initiative went to the side with more wings holding ``senior``
    (4.1.1) rather than to a tie-break (4.1.2) or a roll among all-Rally wings."""
    if senior is None:
        return False
    first, second = (len(wings) for wings in _holding(position, senior).values())
    return first != second


def first_wings(position: Position, side: str, senior: str | None) -> tuple[str, ...]:
    """The wings ``side``, holding the initiative, may activate first: after a straight count
    win (4.1.1) any of its wings, whatever order it holds; after a tie-break (4.1.2) only those
    holding the senior order; when all hold Rally, any. Nothing changes between the initiative
    and this choice, so the sequence asks here again rather than storing the list."""
    wings = eligible(position, side)
    if senior is None or won_on_count(position, senior):
        return tuple(w.id for w in wings)
    return tuple(w.id for w in wings if w.order == senior)


def _best_rating(position: Position, wings: tuple[Wing, ...]) -> int:
    ratings = [c.rating for w in wings if (c := position.commander(w.id)) is not None]
    return min(ratings)


def _die_off(position: Position, chance: Chance, purpose: str) -> tuple[str | None, list[Roll]]:
    """Both sides roll, the higher wins; equal rolls are rolled again."""
    first, second = position.sides
    rolls: list[Roll] = []
    for _roll in range(MAX_REROLLS):
        a = opposed_roll(chance, f"{purpose} {first}")
        b = opposed_roll(chance, f"{purpose} {second}")
        rolls += [a, b]
        if a.total != b.total:
            return (first if a.total > b.total else second), rolls
    return None, rolls


def determine(position: Position, chance: Chance) -> Initiative:
    first, second = position.sides
    mine = {first: eligible(position, first), second: eligible(position, second)}
    every = mine[first] + mine[second]
    if not every:
        return Initiative(
            None, None, (), (Event("initiative", text=_("no wing can be activated")),)
        )
    senior = senior_order(every)
    if senior is None:
        # All Rally: only a side with a wing to activate can use the initiative.
        if not mine[first] or not mine[second]:
            side = first if mine[first] else second
            why = side_ngettext(
                "only %(side)s has a wing that can be activated",
                "only %(side)s have a wing that can be activated",
                position.scenario,
                side,
            )
            return _won(position, side, None, why, ())
        side_or_none, rolls = _die_off(position, chance, "initiative all rally")
        why = _("all wings hold Rally: die roll")
        return _won_roll(position, side_or_none, None, why, rolls)
    holding = _holding(position, senior)
    count = {side: len(holding[side]) for side in holding}
    if count[first] != count[second]:
        side = first if count[first] > count[second] else second
        against = count[position.other(side)]
        why = side_ngettext(
            "%(side)s has more wings holding %(order)s (%(count)s to %(against)s)",
            "%(side)s have more wings holding %(order)s (%(count)s to %(against)s)",
            position.scenario,
            side,
            order=order_words(senior),
            count=count[side],
            against=against,
        )
        return _won(position, side, senior, why, ())
    rating = {side: _best_rating(position, holding[side]) for side in holding}
    if rating[first] != rating[second]:
        side = first if rating[first] < rating[second] else second
        title = side_title(position.scenario, side)
        why = ngettext(
            "equal wings holding %(order)s; %(side)s's best commander holding it is rated"
            " %(rating)s against %(against)s",
            "equal wings holding %(order)s; %(side)s' best commander holding it is rated"
            " %(rating)s against %(against)s",
            2 if title.endswith("s") else 1,
            order=order_words(senior),
            side=title,
            rating=rating[side],
            against=rating[position.other(side)],
        )
        return _won(position, side, senior, why, ())
    side_or_none, rolls = _die_off(position, chance, "initiative tie-break")
    why = _(
        "equal wings holding %(order)s and equal best ratings (%(rating)s): die roll",
        order=order_words(senior),
        rating=rating[first],
    )
    return _won_roll(position, side_or_none, senior, why, rolls)


def _won(
    position: Position, side: str, senior: str | None, why: str, rolls: tuple[Roll, ...]
) -> Initiative:
    choices = first_wings(position, side, senior)
    wins = side_ngettext(
        "%(side)s wins the initiative: %(why)s",
        "%(side)s win the initiative: %(why)s",
        position.scenario,
        side,
        why=why,
    )
    event = Event("initiative", side=side, text=wins, rolls=rolls)
    return Initiative(side, senior, choices, (event,))


def _won_roll(
    position: Position,
    side: str | None,
    senior: str | None,
    why: str,
    rolls: list[Roll],
) -> Initiative:
    if side is None:
        # Only a Chance that never stops tying gets here; the first side is a stable fallback.
        side = position.sides[0]
        why = _("%(why)s (no decision after many re-rolls: first side)", why=why)
    return _won(position, side, senior, why, tuple(rolls))
