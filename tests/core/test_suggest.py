"""The one "did you mean": closest word, folding, likeness and misspelt order words."""

from __future__ import annotations

import difflib

from adjudicator.core import suggest

WORDS = ("play", "take", "draw", "nodraw", "enter", "hold", "move", "add")


def test_closest_within_the_cutoff() -> None:
    assert suggest.closest("paly", WORDS, cutoff=0.7) == "play"
    assert suggest.closest("hodl", WORDS, cutoff=0.7) == "hold"
    assert suggest.closest("hola", WORDS, cutoff=0.8) is None
    assert suggest.closest("anything", (), cutoff=0.1) is None


def test_closest_agrees_with_difflib_on_ties() -> None:
    # "ab" is as like "aa" as "bb": difflib's choice (the later word) is kept.
    vocabulary = ["aa", "bb"]
    expected = difflib.get_close_matches("ab", vocabulary, n=1, cutoff=0.5)[0]
    assert suggest.closest("ab", vocabulary, cutoff=0.5) == expected == "bb"


def test_closest_compares_as_given() -> None:
    # Folding is the caller's: a capital counts as another letter.
    assert suggest.closest("STAUTS", ["STATUS"], cutoff=0.75) == "STATUS"
    assert suggest.closest("STAUTS", ["status"], cutoff=0.75) is None


def test_near_and_likeness() -> None:
    assert suggest.near("mamlukes", ["mamelukes"], cutoff=0.75)
    assert not suggest.near("care", ["mamelukes"], cutoff=0.75)
    assert suggest.likeness("abc", "abc") == 1.0
    assert suggest.likeness("abc", "xyz") == 0.0
    # Measured from the typed word: difflib's ratio is not symmetric.
    typed, known = "rcbccab", "2a2b1"
    assert suggest.likeness(typed, known) == difflib.SequenceMatcher(None, typed, known).ratio()


def test_order_word_needs_what_the_order_takes() -> None:
    def takes_area(word: str) -> bool:
        return word == "hold"

    assert suggest.order_word("hodl", WORDS, cutoff=0.7, takes=takes_area) == "hold"
    assert suggest.order_word("paly", WORDS, cutoff=0.7, takes=takes_area) is None
    assert suggest.order_word("hld", WORDS, cutoff=0.7, takes=takes_area, shortest=4) is None
    assert suggest.order_word("hello", WORDS, cutoff=0.9, takes=lambda _: True) is None
