"""The cards as the help page lists them (all from cards.toml and board.toml)."""

from __future__ import annotations

from adjudicator.core.contract import CardText
from adjudicator.core.said import N_, _
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import title

_WINDOWS = {
    "on-draw": N_("takes effect when drawn"),
    "orders": N_("PLAY it with your orders"),
    "resolution": N_("PLAY it with your orders; it acts at Resolution"),
    "lasting": N_("PLAY it once; it stays in play"),
}


def card_texts() -> list[CardText]:
    """Every card of cards.toml with when it may be played, as the help page lists it."""
    data = card_data()
    turns = board().rules.turns
    rows = []
    for card in data.cards:
        window = _WINDOWS.get(card.window)
        when = [_(window) if window else card.window]
        if card.window != "on-draw":
            when.append(_("keyword %(keyword)s", keyword=card.keyword))
        if (card.earliest, card.latest) != (1, turns):
            when.append(_("turns %(first)s-%(last)s", first=card.earliest, last=card.latest))
        if card.requires_any:
            names = ", ".join(data.card(other).en for other in card.requires_any)
            when.append(_("once %(cards)s has been played", cards=names))
        if card.id in data.france_choice:
            when.append(_("start card: TAKE %(keyword)s", keyword=card.keyword))
        if card.id in data.spain_start:
            when.append(_("start card, in hand from turn 1"))
        name = card.en if card.en == card.es else f"{card.en} ({card.es})"
        rows.append(CardText(name, title(card.side), "; ".join(when), card.help))
    return rows
