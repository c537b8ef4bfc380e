"""One "did you mean": the known word a player's word is most likely a slip for.

Every game's grammar and the mail commands ask the same question of a misspelt word ("paly",
"acitvate", "fihgt", "STAUTS"), each with its own vocabulary and its own cutoff: the likeness a
word needs to be suggested, so that everyday words of chat ("first", "hola") stay out of it.
Likeness is difflib's ratio, 1.0 for the same word, 0.0 for nothing in common.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable


def closest(word: str, vocabulary: Iterable[str], *, cutoff: float) -> str | None:
    """The entry of ``vocabulary`` most like ``word``, if it is at least ``cutoff`` alike; on a
    tie the later one in alphabetical order (difflib's choice, kept so suggestions stay as they
    were). Case, accents and hyphens count: the caller gives the word and the vocabulary folded
    as its game compares them (2 de Mayo's names without accents, the commands in capitals)."""
    found = difflib.get_close_matches(word, list(vocabulary), n=1, cutoff=cutoff)
    return found[0] if found else None


def near(word: str, vocabulary: Iterable[str], *, cutoff: float) -> bool:
    """Whether some entry of ``vocabulary`` is at least ``cutoff`` like ``word``: a typo worth a
    "did you mean" rather than a word of chat."""
    return closest(word, vocabulary, cutoff=cutoff) is not None


def likeness(typed: str, known: str) -> float:
    """How like ``known`` the ``typed`` word is, measured from the typed word (difflib's ratio
    is not symmetric: ``closest`` measures from the known word, as difflib's search does), for a
    vocabulary ranked by more than likeness alone (ids: see musket_and_pike's ``Names``)."""
    return difflib.SequenceMatcher(None, typed, known).ratio()


def order_word(
    word: str,
    order_words: Iterable[str],
    *,
    cutoff: float,
    takes: Callable[[str], bool],
    shortest: int = 1,
) -> str | None:
    """The order word a misspelt first word stands for, when the line is an attempt at that
    order: ``word`` has at least ``shortest`` letters, comes within ``cutoff`` of an order word,
    and what follows it on the line is what that order takes (``takes``, given the order word).
    So "hodl 14" and "plya murat" are orders with a slip, while "Hola Murat" is a greeting."""
    if len(word) < shortest:
        return None
    guess = closest(word, order_words, cutoff=cutoff)
    return guess if guess is not None and takes(guess) else None
