"""The words of Musket & Pike's orders, the position's ids, and a mail line cut into tokens.

What ``grammar`` reads a line with: order words, action verbs and decision words with their
synonyms, the ids of the position's wings, units and leaders (matched case- and
hyphen-insensitively, with a "did you mean" for a slip), and tokens (words, hexes, ``=``).

The order words are data, ``words.toml``: each canonical word with its English synonyms and its
Spanish and Russian words. A line is cut into tokens and each Spanish or Russian word (or phrase)
becomes its canonical word there, so the grammar reads one language and every player's words are
read whatever their language; the receipts echo the canonical form.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator.core import suggest
from adjudicator.core.words import folded
from adjudicator.games.musket_and_pike.rules.state import Position

Hex = tuple[int, int]

TOKEN = re.compile(
    # A hex: 3.7, 3,7, (3,7), [3, 7]; the hex beyond the top or left edge that a rout leaves the
    # map by has a negative number: 4.-1.
    r"[(\[]?\s*(-?\d+)\s*[.,]\s*(-?\d+)\s*[)\]]?"
    r"|(=)"
    # A word of any language's letters (the order words of words.toml), or an id.
    r"|([^\W_][\w\-]*)"
)
LANGUAGES = ("en", "es", "ru")
SECTIONS = ("orders", "verbs", "decisions", "words", "directions")


@dataclass(frozen=True)
class Lexicon:
    """``words.toml``: by section, each canonical word and its words in each language."""

    sections: Mapping[str, Mapping[str, Mapping[str, tuple[str, ...]]]]

    def english(self, section: str) -> dict[str, str]:
        """Each English word of ``section`` (one word, not a pair) and its canonical word."""
        return {
            word: canonical
            for canonical, words in self.sections[section].items()
            for word in (canonical, *words["en"])
            if " " not in word
        }

    def pairs(self, section: str) -> dict[tuple[str, str], str]:
        """The English entries of two words (MAKE READY) and their canonical word."""
        out: dict[tuple[str, str], str] = {}
        for canonical, words in self.sections[section].items():
            for word in words["en"]:
                if word.count(" ") == 1:
                    first, second = word.split(" ")
                    out[(first, second)] = canonical
        return out

    def aliases(self) -> dict[tuple[str, ...], str]:
        """Every Spanish and Russian word or phrase outside [directions], as plain words, and
        the canonical word it is read as."""
        out: dict[tuple[str, ...], str] = {}
        for section in SECTIONS[:-1]:
            for canonical, words in self.sections[section].items():
                for lang in LANGUAGES[1:]:
                    for word in words[lang]:
                        out[tuple(folded(part) for part in word.split())] = canonical
        return out

    def directions(self) -> dict[str, str]:
        """Each facing's words in every language, and the facing (N, NE, ...)."""
        return {
            folded(word): canonical
            for canonical, words in self.sections["directions"].items()
            for lang in LANGUAGES
            for word in words[lang]
        }


def read_lexicon(raw: Mapping[str, Any]) -> Lexicon:
    """``words.toml`` read and checked: every entry has its three lists of words, and no word
    is read as two canonical words."""
    problems: list[str] = []
    sections: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {}
    for section in SECTIONS:
        table = raw.get(section)
        if not isinstance(table, dict) or not table:
            problems.append(f"[{section}] is missing")
            continue
        sections[section] = {}
        for canonical, entry in table.items():
            lists = {}
            for lang in LANGUAGES:
                words = entry.get(lang) if isinstance(entry, dict) else None
                if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
                    problems.append(f"{section}.{canonical}.{lang} must be a list of words")
                    words = []
                lists[lang] = tuple(words)
            sections[section][canonical] = lists
    read: dict[tuple[str, tuple[str, ...]], str] = {}
    for section, table in sections.items():
        group = "directions" if section == "directions" else "words"
        for canonical, lists in table.items():
            for lang in LANGUAGES[1:]:
                for word in lists[lang]:
                    key = (group, tuple(folded(part) for part in word.split()))
                    if read.setdefault(key, canonical) != canonical:
                        problems.append(f"{word!r} is read as {read[key]} and as {canonical}")
    if problems:
        raise ValueError("Musket & Pike words.toml: " + "; ".join(problems))
    return Lexicon(sections)


@functools.cache
def lexicon() -> Lexicon:
    """The packaged order words (read and checked once per process)."""
    package = resources.files("adjudicator.games.musket_and_pike")
    return read_lexicon(tomllib.loads(package.joinpath("words.toml").read_text(encoding="utf-8")))


ORDER_WORDS = lexicon().english("orders")
ORDER_PAIRS = lexicon().pairs("orders")
VERBS = lexicon().english("verbs")
DECISION_WORDS = lexicon().english("decisions")
# The Spanish and Russian words and phrases, read as the canonical word wherever they stand.
ALIASES = lexicon().aliases()
LONGEST_ALIAS = max(len(words) for words in ALIASES)
DIRECTIONS = lexicon().directions()
NO_WHAT = {"preempt": "preempt", "pre-empt": "preempt", "actions": "actions", "action": "actions"}
NO_WHAT.update({"change": "change", "orders": "actions", "continuation": "stop", "more": "stop"})
# Words a misspelt first word is compared with ("acitvate" -> ACTIVATE); the verbs come after an id.
FUZZY_WORDS = (
    "first",
    "activate",
    "pass",
    "preempt",
    "keep",
    "change",
    "continue",
    "stop",
    "orders",
    "standing",
    "default",
)
FUZZY_CUTOFF = 0.75
ID_CUTOFF = 0.5
# What may follow a decision that takes nothing (PASS, STOP, KEEP ORDER, CONTINUE) in an order;
# any other word makes the line a sentence.
BARE_WORDS = {"order", "orders", "please", "now", "this", "turn", "activation", "wing", "here"}
# What STANDING and DEFAULT name.
STANDING_KINDS = {"preempt", "pre-empt", "continue", "continuation", "retreat", "retreats"}
DEFAULT_KINDS = {"retreat", "retreats", "rout", "routs", "paths", "path"}

# --- ids --------------------------------------------------------------------------------------


def squash(word: str) -> str:
    """An id or word as ids are compared: lower case, without hyphens and underscores."""
    return word.lower().replace("-", "").replace("_", "")


@dataclass(frozen=True)
class Names:
    """The position's ids, matched case- and hyphen-insensitively."""

    wings: tuple[str, ...]
    units: tuple[str, ...]
    leaders: tuple[str, ...]

    @staticmethod
    def of(position: Position) -> Names:
        return Names(
            tuple(w.id for w in position.wings),
            tuple(u.id for u in position.units),
            tuple(x.id for x in position.leaders),
        )

    def find(self, word: str, pool: tuple[str, ...]) -> str | None:
        squashed = squash(word)
        return next((ident for ident in pool if squash(ident) == squashed), None)

    def near(self, word: str, pool: tuple[str, ...]) -> str | None:
        """The id most like ``word``; on equal likeness the one with more letters in the same
        places (R-HL-1: R-HI-1 rather than R-LI-1)."""
        typed = squash(word)

        def likeness(ident: str) -> tuple[float, int]:
            other = squash(ident)
            ratio = suggest.likeness(typed, other)
            return ratio, sum(1 for a, b in zip(typed, other, strict=False) if a == b)

        scored = [(likeness(ident), ident) for ident in pool]
        best = max(scored, default=None, key=lambda item: item[0])
        return best[1] if best is not None and best[0][0] >= ID_CUTOFF else None


# --- tokens -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    word: str | None = None
    hex: Hex | None = None
    eq: bool = False


def tokenize(line: str) -> list[Token]:
    # Apostrophes go first so "don't" reads as "dont"; other punctuation just separates words.
    text = line.lower().replace("'", "").replace("\u2019", "")
    tokens: list[Token] = []
    for column, row, eq, word in TOKEN.findall(text):
        if column:
            tokens.append(Token(hex=(int(column), int(row))))
        elif eq:
            tokens.append(Token(eq=True))
        else:
            tokens.append(Token(word=word))
    return canonical_words(tokens)


def canonical_words(tokens: list[Token]) -> list[Token]:
    """The tokens with each Spanish or Russian word or phrase of ``words.toml`` as its
    canonical word (the longest phrase first), so a line is read the same in any language."""
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        for size in range(min(LONGEST_ALIAS, len(tokens) - index), 0, -1):
            words = tokens[index : index + size]
            if any(t.word is None for t in words):
                continue
            found = ALIASES.get(tuple(folded(str(t.word)) for t in words))
            if found is not None:
                out.append(Token(word=found))
                index += size
                break
        else:
            out.append(tokens[index])
            index += 1
    return out
