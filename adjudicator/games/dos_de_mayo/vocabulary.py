"""The order words of every language (``words.toml``): aliases of the canonical keywords, folded
as ``grammar.normalize`` folds a line (lower case, no accents), so a word is found whatever the
language of the mail it comes in; and each language's own list, for its help."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path

from adjudicator.games.dos_de_mayo.text import plain

WORDS_FILE = Path(__file__).with_name("words.toml")
LANGUAGES = ("en", "es", "ru")
# The tables every language must give: the canonical keywords' and the words around them.
KINDS = (
    "play",
    "take",
    "enter",
    "hold",
    "move",
    "draw",
    "nodraw",
    "add",
    "negations",
    "draw_filler",
    "units",
)


def folded(word: str) -> str:
    """A word as ``grammar.normalize`` leaves it: lower case, its accents taken off."""
    return plain(word)


@functools.cache
def tables() -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    """kind -> language -> the words as written in words.toml, checked."""
    with WORDS_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for kind in KINDS:
        table = data.get(kind)
        if not isinstance(table, dict) or set(table) != set(LANGUAGES):
            raise ValueError(f"{WORDS_FILE.name}: [{kind}] must list words for {LANGUAGES}")
        for lang, words in table.items():
            if not all(isinstance(w, str) and w and " " not in w for w in words):
                raise ValueError(f"{WORDS_FILE.name}: [{kind}] {lang}: one word each")
        found[kind] = {lang: tuple(words) for lang, words in table.items()}
    return found


def every(kind: str) -> frozenset[str]:
    """Every language's words of ``kind``, folded: what the grammar matches."""
    return frozenset(folded(word) for words in tables()[kind].values() for word in words)


def spoken(kind: str, lang: str) -> tuple[str, ...]:
    """The words of ``kind`` in ``lang`` as written (English where the language has none)."""
    table = tables()[kind]
    return table.get(lang) or table["en"]


def canonical() -> Mapping[str, str]:
    """Each folded DRAW/NODRAW word -> the canonical "draw" / "nodraw"."""
    return {word: kind for kind in ("draw", "nodraw") for word in every(kind)}
