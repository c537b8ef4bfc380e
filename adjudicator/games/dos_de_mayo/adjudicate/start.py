"""Steps 1-4 of a turn: re-check the orders, take France's start card, reveal the played cards,
and apply the orders-window cards at the start of Movement, in effect order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.cards import Card
from adjudicator.games.dos_de_mayo.checks import check_items
from adjudicator.games.dos_de_mayo.draws import deck_label
from adjudicator.games.dos_de_mayo.legal import default_set
from adjudicator.games.dos_de_mayo.orders import Play, Take, order_set_from_json
from adjudicator.games.dos_de_mayo.sides import FRANCE, SIDES, Side, other, title
from adjudicator.games.dos_de_mayo.state import PlayRecord


def read_orders(work: Work, orders: Mapping[str, Any]) -> None:
    """Step 1. Legality again, against the position at adjudication; refused items are reported."""
    before = work.before
    for side in SIDES:
        raw = orders.get(side)
        if raw is None:
            work.orders[side] = default_set(before, side)
            continue
        parsed = order_set_from_json(raw)
        if isinstance(parsed, Refusal):
            raise ValueError(f"2 de Mayo orders for {side}: {parsed}")
        items = parsed.items()
        verdicts, accepted = check_items(before, side, items)
        for item, verdict in zip(items, verdicts, strict=True):
            if verdict.problem is not None:
                public = not isinstance(item, Take)
                why = verdict.problem.reason
                detail = _("refused at adjudication: %(reason)s", reason=why)
                work.outcome(side, item.text(), verdict.problem.code, detail, public)
        work.orders[side] = accepted


def take_start_card(work: Work) -> None:
    """Step 2. Turn 1: France's start card into its hand, the other option into its deck, and
    that deck shuffled (the seed: "the other goes back in the deck; both decks are shuffled")."""
    if not work.start_choice:
        return
    chosen = work.orders[FRANCE].take or work.data.france_default
    rest = [card for card in work.start_choice if card != chosen]
    work.hands[FRANCE].append(chosen)
    work.decks[FRANCE] = work.chance.shuffle(deck_label(FRANCE), work.decks[FRANCE] + rest)
    work.start_choice = []
    name = work.data.card(chosen).name
    taken = _("%(card)s taken", card=name)
    work.outcome(FRANCE, f"TAKE {work.data.card(chosen).keyword}", "took", taken, False)


def effect_key(work: Work, side: Side, card: Card, sequence: int) -> tuple[int, int, int, int]:
    """Effect order inside one phase: on-draw cards first; then a card that precedes another
    (Prisoners before Artillery, seed); then the initiative side's cards; then the other's."""
    return (
        0 if card.window == "on-draw" else 1,
        0 if card.precedes else 1,
        0 if side == work.initiative else 1,
        sequence,
    )


def ordered_plays(work: Work) -> list[tuple[Side, Play]]:
    plays = [(side, play) for side in SIDES for play in work.orders[side].plays]
    keyed = [
        (effect_key(work, side, work.data.card(play.card), number), side, play)
        for number, (side, play) in enumerate(plays)
    ]
    return [(side, play) for _, side, play in sorted(keyed, key=lambda entry: entry[0])]


def reveal_plays(work: Work) -> list[tuple[Side, Play]]:
    """Step 3. Played cards leave the hands and become public: lasting ones into play."""
    plays = ordered_plays(work)
    for side, play in plays:
        card = work.data.card(play.card)
        work.hands[side].remove(card.id)
        (work.in_play if card.window == "lasting" else work.played).append(card.id)
        work.plays.append(PlayRecord(play.card, side, play.args()))
        if card.window == "lasting":
            detail = _("%(card)s is in play from now on", card=card.name)
            work.outcome(side, play.text(), "played", detail)
    return plays


def orders_cards(work: Work, plays: list[tuple[Side, Play]]) -> None:
    """Step 4. The orders-window cards, in effect order. Moves made by cards (2-step paths, an
    early stack) are carried out with the other moves; here each card registers its effect."""
    for side, play in plays:
        card = work.data.card(play.card)
        if card.window != "orders":
            continue
        work.effect_order.append(card.keyword)
        kind, target = card.effect.kind, play.target
        if kind in ("two_step", "early_entry"):
            continue  # reported with the move it makes
        detail = _apply(work, side, card, target)
        work.outcome(side, play.text(), "played" if detail else "no-effect", detail or _none(card))


def _none(card: Card) -> str:
    return _("%(card)s had no effect", card=card.name)


def _apply(work: Work, side: Side, card: Card, target: str | None) -> str:
    """One orders-window primitive; the sentence saying what it did ("" when nothing)."""
    kind, amount = card.effect.kind, card.effect.amount
    if kind == "group_limit_add":
        return ngettext(
            "%(num)s more group could be ordered this turn",
            "%(num)s more groups could be ordered this turn",
            amount,
        )
    if kind == "allow_split" and target:
        return _("the group in %(area)s could split", area=target)
    if kind == "leave_whole" and target:
        work.whole[side].add(target)
        return _("the group in %(area)s leaves whole", area=target)
    if kind == "cancel_order" and target:
        work.cancelled[other(side)].add(target)
        return _(
            "the %(side)s order from %(area)s is cancelled", side=title(other(side)), area=target
        )
    if kind == "block_entry" and target:
        work.blocked[other(side)].add(target)
        return _(
            "%(side)s moves into %(area)s fail this turn", side=title(other(side)), area=target
        )
    if kind == "draw_now":
        drawn = sum(1 for _turn in range(amount) if work.draw_card(side) is not None)
        if not drawn:
            return ""
        return ngettext(
            "%(side)s drew %(num)s card", "%(side)s drew %(num)s cards", drawn, side=title(side)
        )
    if kind == "place_set_aside" and target:
        return _place(work, side, card, target)
    return ""


def _place(work: Work, side: Side, card: Card, target: str) -> str:
    allowed = card.target is not None and (target in card.target.also or work.at(side, target) > 0)
    placed = min(card.effect.amount, work.set_aside[side]) if allowed else 0
    if not placed:
        return ""
    work.set_aside[side] -= placed
    work.add(side, target, placed)
    return ngettext(
        "%(num)s set-aside %(side)s unit placed on %(area)s",
        "%(num)s set-aside %(side)s units placed on %(area)s",
        placed,
        side=title(side),
        area=target,
    )
