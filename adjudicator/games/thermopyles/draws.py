"""What each of the game's recorded draws is for: the label it is drawn and recorded under (a
code, part of what the seed's replay hashes, so it never changes) and the words a player reads
beside its result."""

from __future__ import annotations

from adjudicator.core.said import N_, _

SUPPORT = "support"  # one d6 for each support card played with a Spartan card
FREE_DIE = "free-die"  # the d6 a fight gets with the marker on a free-die space
SPARTAN_DECK = "spartan-deck"
PERSIAN_DECK = "persian-deck"

DRAW_WORDS = {
    SUPPORT: N_("support die"),
    FREE_DIE: N_("free die"),
    SPARTAN_DECK: N_("the Spartan deck shuffled"),
    PERSIAN_DECK: N_("the Persian deck shuffled"),
}
UNKNOWN = N_("a draw")


def draw_words(label: str) -> str:
    """A label in words, in the reader's language; one this game never draws under reads as a
    draw, never as its code."""
    return _(DRAW_WORDS.get(label, UNKNOWN))
