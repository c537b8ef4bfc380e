"""What each of the game's recorded draws is for: the label it is drawn and recorded under (a
code, part of what the seed's replay hashes, so it never changes) and the words a player reads
beside its result."""

from __future__ import annotations

SUPPORT = "support"  # one d6 for each support card played with a Spartan card
FREE_DIE = "free-die"  # the d6 a fight gets with the marker on a free-die space
SPARTAN_DECK = "spartan-deck"
PERSIAN_DECK = "persian-deck"

DRAW_WORDS = {
    SUPPORT: "support die",
    FREE_DIE: "free die",
    SPARTAN_DECK: "the Spartan deck shuffled",
    PERSIAN_DECK: "the Persian deck shuffled",
}


def draw_words(label: str) -> str:
    """A label in words; one this game never draws under reads as a draw, never as its code."""
    return DRAW_WORDS.get(label, "a draw")
