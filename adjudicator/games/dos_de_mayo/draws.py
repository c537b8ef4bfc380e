"""What each of the game's recorded draws is for: the label it is drawn and recorded under (a
code, part of what the seed's replay hashes, so it never changes) and the words a player reads
beside its result."""

from __future__ import annotations

from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, other, title

_DISCARD = "-discard"


def deck_label(side: Side) -> str:
    """The shuffle of a side's deck."""
    return f"{side}-deck"


def discard_label(card_id: str) -> str:
    """The die that picks the card an on-draw card (Collaboration) makes the other side discard."""
    return f"{card_id.lower()}{_DISCARD}"


def draw_words(label: str) -> str:
    """A label in words: "Spain's deck shuffled", "Collaboration: which of Spain's cards is
    discarded"; a label this game never draws under reads as a draw, never as its code."""
    for side in SIDES:
        if label == deck_label(side):
            return _("%(side)s's deck shuffled", side=title(side))
    if label.endswith(_DISCARD):
        card = card_data().by_id.get(label.removesuffix(_DISCARD).upper())
        if card is not None:
            return _(
                "%(card)s: which of %(side)s's cards is discarded",
                card=card.name,
                side=title(other(card.side)),
            )
    return _("a draw")
