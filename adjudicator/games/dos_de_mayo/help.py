"""The cards as the help page lists them (all from cards.toml and board.toml)."""

from __future__ import annotations

from adjudicator.core.contract import CardText
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import title

_WINDOWS = {
    "on-draw": "takes effect when drawn",
    "orders": "PLAY it with your orders",
    "resolution": "PLAY it with your orders; it acts at Resolution",
    "lasting": "PLAY it once; it stays in play",
}


def card_texts() -> list[CardText]:
    """Every card of cards.toml with when it may be played, as the help page lists it."""
    data = card_data()
    turns = board().rules.turns
    rows = []
    for card in data.cards:
        when = [_WINDOWS.get(card.window, card.window)]
        if card.window != "on-draw":
            when.append(f"keyword {card.keyword}")
        if (card.earliest, card.latest) != (1, turns):
            when.append(f"turns {card.earliest}-{card.latest}")
        if card.requires_any:
            names = ", ".join(data.card(other).en for other in card.requires_any)
            when.append(f"once {names} has been played")
        if card.id in data.france_choice:
            when.append("start card: TAKE " + card.keyword)
        if card.id in data.spain_start:
            when.append("start card, in hand from turn 1")
        name = card.en if card.en == card.es else f"{card.en} ({card.es})"
        rows.append(CardText(name, title(card.side), "; ".join(when), card.help))
    return rows
