"""Step 10, the next turn's Preparation: each side draws if it asked to and the draw limit allows,
both draws counted as simultaneous; then the on-draw cards take effect."""

from __future__ import annotations

from adjudicator.core.said import N_, _
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.cards import Card
from adjudicator.games.dos_de_mayo.draws import discard_label
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, other, title
from adjudicator.games.dos_de_mayo.state import PlayRecord, RemovedRecord


def allowed_draws(hands: dict[Side, int], wants: dict[Side, bool], lead: int) -> dict[Side, bool]:
    """Who draws. Nobody may end the draw holding more than ``lead`` cards over the other, the
    other's draw counted. Seed: Spain 4 / France 1 draws only if France draws; 5 / 1 never.
    Only the side with more cards can break the limit, and its giving up a draw never puts the
    other over it, so one pass settles both."""
    draws = dict(wants)
    for side in SIDES:
        rival = other(side)
        if draws[side] and hands[side] + 1 - (hands[rival] + draws[rival]) > lead:
            draws[side] = False
    return draws


DRAW_WORDS = {
    "drew": N_("drew a card for the next turn"),
    "no-draw": N_("did not draw"),
    "deck-empty": N_("no draw: the deck is empty"),
    "draw-limit": N_("no draw: it would hold more than %(lead)s cards over the other side"),
    "game-over": N_("no draw: the game is over"),
    "too-early": N_("no draw before turn %(first)s"),
}


def prepare(work: Work) -> None:
    rules = work.board.rules
    next_turn = work.turn + 1
    if work.over or next_turn < rules.draws_from_turn:
        for side in SIDES:
            work.draws[side] = "game-over" if work.over else "too-early"
    else:
        _draw(work)
    for side in SIDES:
        order = "DRAW" if work.orders[side].draw else "NODRAW"
        code = work.draws[side]
        words = _(DRAW_WORDS[code], lead=rules.draw_lead_limit, first=rules.draws_from_turn)
        work.outcome(side, order, code, words)


def _draw(work: Work) -> None:
    rules = work.board.rules
    hands = {side: len(work.hands[side]) for side in SIDES}
    wants = {side: work.orders[side].draw and bool(work.decks[side]) for side in SIDES}
    draws = allowed_draws(hands, wants, rules.draw_lead_limit)
    drawn: list[tuple[Side, str]] = []
    for side in SIDES:
        if draws[side]:
            card = work.draw_card(side)
            assert card is not None
            drawn.append((side, card))
            work.draws[side] = "drew"
        elif not work.orders[side].draw:
            work.draws[side] = "no-draw"
        elif not work.decks[side]:
            work.draws[side] = "deck-empty"
        else:
            work.draws[side] = "draw-limit"
    for side, card_id in drawn:  # on-draw cards first, and nothing else acts in Preparation
        if work.data.card(card_id).window == "on-draw":
            _on_draw(work, side, work.data.card(card_id))


def _on_draw(work: Work, side: Side, card: Card) -> None:
    """The card leaves the hand at once, face up, and its effect happens."""
    work.hands[side].remove(card.id)
    work.played.append(card.id)
    work.effect_order.append(card.keyword)
    kind, amount = card.effect.kind, card.effect.amount
    note = "drawn"
    if kind == "group_limit_set":
        work.turn_effects.append(card.id)
    elif kind == "discard_random":
        victim = other(side)
        for _ in range(amount):
            hand = work.hands[victim]
            if not hand:
                break
            pick = work.chance.roll(discard_label(card.id), len(hand)) - 1
            lost = hand.pop(pick)
            work.discarded.append(lost)
            note = f"drawn; {title(victim)} discards {work.data.card(lost).en}"  # describe.py
    elif kind == "shrink_stack":
        stacks = work.stacks
        if any(stacks):
            largest = stacks.index(max(stacks))  # first in board order on a tie
            taken = min(amount, stacks[largest])
            stacks[largest] -= taken
            work.gone[side] += taken
            stack = work.board.stacks[largest]
            work.removed.append(RemovedRecord(stack, side, taken, card.en))
    work.plays.append(PlayRecord(card.id, side, note))
