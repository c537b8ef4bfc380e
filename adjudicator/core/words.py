"""Counts and lists as a sentence says them: "1 group", "2 groups", "france and spain".

Mail and the web speak to people; "1 groups" or "join(s)" reads as a machine talking."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` and the noun agreeing with it; ``plural`` where adding "s" is wrong (hexes)."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def possessive(name: str) -> str:
    """A name owning something: "France's", "the Spartans'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def agreeing(subject: str, singular: str, plural: str) -> str:
    """``subject`` and the verb agreeing with it: "Parliament passes", "the Royalists pass" (a
    name whose last word ends in one "s" counts as plural)."""
    last = subject.split()[-1] if subject.split() else ""
    many = last.endswith("s") and not last.endswith("ss")
    return f"{subject} {plural if many else singular}"


def listed(names: Sequence[str]) -> str:
    """Names joined as in prose: "a", "a and b", "a, b and c"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def folded(word: str) -> str:
    """A word as players' words are matched in any language: lower case, Latin letters without
    their accents (a Spanish player may write "retírate" or "retirate"), and Russian е for ё;
    Cyrillic letters keep their marks otherwise (й is not и)."""
    kept = []
    for char in word.lower():
        if char == "ё":
            char = "е"
        elif not char.isascii() and char < "\u0250":
            bare = unicodedata.normalize("NFD", char)
            char = "".join(mark for mark in bare if not unicodedata.combining(mark))
        kept.append(char)
    return "".join(kept)
