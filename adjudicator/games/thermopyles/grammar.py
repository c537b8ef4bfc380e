"""Reading one line of a player's mail: words to a parsed order, a complaint, or "not an order".

This layer knows the order words and nothing of the position; ``orders`` checks the result
against the hand, the supports left and the hand limit.

A line is an order attempt only when it is shaped like one: an order word followed by what it
takes (FIGHT a card value, RETREAT at most a word about drawing), or numbers alone. "Retreat is
not an option", "Fight well" and "3 cheers for the King" are chat, ignored rather than refused.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator.core import lines, suggest
from adjudicator.core.said import _
from adjudicator.core.words import folded


@functools.cache
def order_words() -> Mapping[str, Any]:
    """``words.toml``: the order words of every language, as written there."""
    text = (
        resources.files("adjudicator.games.thermopyles")
        .joinpath("words.toml")
        .read_text(encoding="utf-8")
    )
    return tomllib.loads(text)


def _every(group: str) -> set[str]:
    """The words of ``group`` in every language, folded."""
    return {folded(word) for words in order_words()[group].values() for word in words}


def _counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for places in order_words()["counts"].values():
        for number, place in enumerate(places):
            for word in [place] if isinstance(place, str) else place:
                counts[folded(word)] = number
    return counts


# Every word the parser takes for an order keyword, in any language (words.toml). Single
# letters only count at the start of an order (or, for F and D, before a number), so a stray
# "r" in a sentence is not a RETREAT.
KEYWORDS: dict[str, str] = {
    folded(word): str(keyword)
    for keyword, languages in order_words()["keywords"].items()
    for words in languages.values()
    for word in words
}
LETTERS: dict[str, str] = dict(order_words()["letters"])
SUPPORT_WORDS = _every("support")
COUNT_WORDS = _counts()  # only after SUPPORT
NODRAW_WORDS = _every("nodraw")
DRAW_WORDS = _every("draw")
NEGATIONS = _every("negations")
# Words that often head a non-order line with a number ("Turn 5", "Re: game 12"): never a complaint.
FILLER = _every("filler")
# What may stand beside RETREAT, or beside FIGHT before its number, in an order; any other word
# makes the line a sentence about retreating or fighting, not an order.
RETREAT_WORDS = _every("beside_retreat") | NODRAW_WORDS
FIGHT_WORDS = _every("beside_fight")
TOKEN = re.compile(r"(\+)\s*(\d+)|(\d+)|([^\W\d_]+)")
# A misspelt keyword must be this close (``suggest.closest``) to be suggested: "fihgt" is 0.8, while
# everyday words such as "first" (0.6) stay out of it.
FUZZY_CUTOFF = 0.75


@dataclass(frozen=True)
class Token:
    word: str | None = None
    number: int | None = None
    plus: bool = False  # "+2": a support count


@dataclass(frozen=True)
class Parsed:
    """One order as read from the words, not yet checked against the position."""

    kind: str  # fight | retreat | discard
    value: int | None = None
    support: int = 0
    draw: bool = True


@dataclass(frozen=True)
class Complaint(lines.Complaint):
    """A line that looks like an order but cannot be read (codes: unknown-order | malformed), with
    what we think was meant; ``orders`` makes the suggestion of it, from what is legal now."""

    keyword: str | None = None  # the keyword we think was meant, for the suggestion
    numbers: tuple[int, ...] = ()


Reading = Parsed | Complaint


def tokenize(line: str) -> list[Token]:
    # Apostrophes go first so "don't" reads as "dont"; other punctuation just separates words.
    text = folded(line).replace("'", "").replace("\u2019", "")
    tokens = []
    for _plus, signed, number, word in TOKEN.findall(text):
        if signed:
            tokens.append(Token(number=int(signed), plus=True))
        elif number:
            tokens.append(Token(number=int(number)))
        else:
            tokens.append(Token(word=word))
    return tokens


def _keyword(tokens: list[Token], index: int) -> str | None:
    word = tokens[index].word
    if word is None:
        return None
    if word in KEYWORDS:
        return KEYWORDS[word]
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if word in LETTERS and (index == 0 or (following is not None and following.number is not None)):
        return LETTERS[word]
    return None


def segments(line: str) -> list[Reading] | None:
    """The orders on one line (usually one; "DISCARD 12 FIGHT 17" gives two), a complaint, or
    None when the line is not an order at all (greetings, thanks, sign-offs). The line is neither
    quoted nor holds an overlong number: ``core.lines`` sets those aside first."""
    tokens = tokenize(line)
    if not tokens:
        return None
    starts = [i for i in range(len(tokens)) if _keyword(tokens, i)]
    has_number = any(token.number is not None for token in tokens)
    if not starts:
        return _not_keyword(tokens, has_number)
    # A keyword later in a sentence counts only in a short line or one with a number in it:
    # "I retreat" is an order, "thanks for a good fight last time" is not.
    if starts[0] > 0 and not has_number and len(tokens) > 4:
        return None
    readings: list[Reading] = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(tokens)
        keyword = _keyword(tokens, start)
        assert keyword is not None
        if _prose(keyword, tokens[start + 1 : end]):
            return None
        readings.append(_read(keyword, tokens[start + 1 : end]))
    return readings


def _prose(keyword: str, rest: list[Token]) -> bool:
    """Whether the words after an order word make a sentence rather than that order."""
    words = {token.word for token in rest if token.word is not None}
    if keyword == "retreat":
        return not words <= RETREAT_WORDS | DRAW_WORDS | NEGATIONS
    if keyword == "fight" and not any(token.number is not None for token in rest):
        return not words <= FIGHT_WORDS | SUPPORT_WORDS
    return False


def _not_keyword(tokens: list[Token], has_number: bool) -> list[Reading] | None:
    first = tokens[0]
    numbers = tuple(token.number for token in tokens if token.number is not None)
    # A misspelt keyword (FIHGT: fight) with a number or in a few words is an attempt at it.
    slip = suggest.order_word(
        first.word or "",
        KEYWORDS,
        cutoff=FUZZY_CUTOFF,
        takes=lambda _: has_number or len(tokens) <= 3,
        shortest=4,
    )
    if slip is not None:
        reason = _("%(word)s is not an order word", word=repr(first.word))
        return [Complaint("unknown-order", reason, keyword=KEYWORDS[slip], numbers=numbers)]
    if first.number is not None:
        if any(token.word is not None and token.word not in SUPPORT_WORDS for token in tokens):
            return None  # "3 cheers for the King", "10-15 is where I go next"
        reason = _("a number alone is not an order")
        return [Complaint("unknown-order", reason, keyword="fight", numbers=numbers)]
    short = 2 <= len(tokens) <= 3
    if short and tokens[1].number is not None and first.word not in FILLER:
        reason = _("%(word)s is not an order word", word=repr(first.word))
        return [Complaint("unknown-order", reason)]
    return None


def _read(keyword: str, rest: list[Token]) -> Reading:
    words = [token.word for token in rest]
    if keyword == "retreat":
        return Parsed("retreat", draw=not _no_draw(words))
    numbers = [token for token in rest if token.number is not None]
    if keyword == "discard":
        if len(numbers) != 1:
            reason = _("DISCARD takes exactly one card value, e.g. DISCARD 12")
            numbers_read = tuple(n.number or 0 for n in numbers)
            return Complaint("malformed", reason, keyword="discard", numbers=numbers_read)
        return Parsed("discard", value=numbers[0].number)
    return _read_fight(rest, words)


def _no_draw(words: list[str | None]) -> bool:
    if any(word in NODRAW_WORDS for word in words):
        return True
    for index, word in enumerate(words):
        if word in DRAW_WORDS and any(w in NEGATIONS for w in words[max(0, index - 2) : index]):
            return True
    return False


def _read_fight(rest: list[Token], words: list[str | None]) -> Reading:
    values: list[int] = []
    supports: list[int] = []
    for index, token in enumerate(rest):
        before = words[index - 1] if index > 0 else None
        if token.word in COUNT_WORDS and before in SUPPORT_WORDS:
            supports.append(COUNT_WORDS[token.word])
            continue
        if token.number is None:
            continue
        after = words[index + 1] if index + 1 < len(words) else None
        # "+2", "support 2", and "17, 2 supports" (after the card value) are support counts.
        if token.plus or before in SUPPORT_WORDS or (after in SUPPORT_WORDS and values):
            supports.append(token.number)
        else:
            values.append(token.number)
    numbers = tuple(values + supports)
    if not values:
        return Complaint(
            "malformed", _("FIGHT needs the value of a card in your hand"), keyword="fight"
        )
    if len(values) > 1:
        reason = _("one card per fight: FIGHT takes a single card value")
        return Complaint("malformed", reason, keyword="fight", numbers=numbers)
    if len(supports) > 1:
        return Complaint(
            "malformed",
            _("give one support count, e.g. SUPPORT 2"),
            keyword="fight",
            numbers=numbers,
        )
    negated = any(word in NEGATIONS for word in words)
    if not supports and not negated and any(word in SUPPORT_WORDS - {"s"} for word in words):
        reason = _("say how many support cards, e.g. SUPPORT 1")
        return Complaint("malformed", reason, keyword="fight", numbers=numbers)
    return Parsed("fight", value=values[0], support=supports[0] if supports else 0)
