"""Reading one line of a player's mail: words to an order item, a complaint, or "not an order".

This layer knows the order words, the area names and the card names, and nothing of the position;
``checks`` decides whether a read order is legal now. Case, accents, extra spaces and the arrows
``->``, ``to``, ``—`` are forgiven; unknown words get a "did you mean".

A line is an order attempt only when it is shaped like one: an order word (or one misspelt) followed
by what that order takes (a card, an area, a move, or nothing), or a move standing alone on its
line. Anything else is chat and is ignored, so "Hola," or "I will move to 10-15 next" never costs
a player an order: a misread greeting refused as a broken order would be worse than no guess.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from adjudicator.core import suggest
from adjudicator.core.lines import Complaint, overlong, quoted, shouted
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo import vocabulary
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.orders import Add, Aim, Draw, Hold, Item, Move, Play, Take
from adjudicator.games.dos_de_mayo.places import (
    FUZZY_CUTOFF,
    area_like,
    move_like,
    read_move,
    read_ref,
    split_count,
)
from adjudicator.games.dos_de_mayo.text import plain
from adjudicator.games.dos_de_mayo.wording import did_you_mean

# A complaint's codes here: unknown-order | malformed | unknown-area | unknown-card | not-own-gate
Reading = Item | Complaint

# The order words of every language, aliases of the canonical keywords (words.toml).
PLAY_WORDS = vocabulary.every("play")
TAKE_WORDS = vocabulary.every("take")
ENTER_WORDS = vocabulary.every("enter")
HOLD_WORDS = vocabulary.every("hold")
MOVE_WORDS = vocabulary.every("move")
ADD_WORDS = vocabulary.every("add")
NEGATIONS = vocabulary.every("negations")
DRAW_WORDS = vocabulary.canonical()  # robar -> draw, недобор -> nodraw
DRAW_VOCABULARY = vocabulary.every("draw_filler") | NEGATIONS | DRAW_WORDS.keys()
KEYWORDS = ("play", "take", "draw", "nodraw", "enter", "hold", "move", "add")
# A card's name must come closer to be suggested: "mamlukes" is 0.94 from "mamelukes".
CARD_CUTOFF = 0.75

_DASHES = re.compile(r"\s*(?:[=-]+>|>|→|—|–|−|-)\s*")
_TO = re.compile(r"\s+to\s+")
_STACK = re.compile(r"\boff\s*[-_]?\s*(\d+)")
_TIMES = re.compile(r"[×*]\s*(\d+)")
_BULLET = re.compile(r"^(?:[*•]\s*|\d+[.)]\s+)")
_WORD = re.compile(r"[a-z0-9]+")
# A move exactly as the canonical form writes it ("16-14 x2", "OFF1-1 x5"): read directly.
_CANONICAL_MOVE = re.compile(r"((?:OFF|off)?[1-9][0-9]?)-([1-9][0-9]?)(?: x([1-9][0-9]?))?")


def normalize(line: str) -> str:
    """Lower case without accents; every arrow or dash a bare '-'; 'off 1' -> 'off1'."""
    text = line.lower() if line.isascii() else plain(line)
    text = text.replace(",", " ").replace("'", "").replace("\u2019", "")
    text = _STACK.sub(r"off\1", text)
    text = _TIMES.sub(r" x\1", text)
    text = _BULLET.sub("", text.strip())
    text = _DASHES.sub("-", text)
    text = _TO.sub("-", f" {text} ").strip()
    return " ".join(text.strip(" .;:!?").split())


def _card_like(rest: str) -> bool:
    """Whether ``rest`` starts with a card's name, or one misspelt closely enough to suggest (a
    short word only exactly: "care" is not "charge")."""
    aliases = card_data().aliases
    words, _ = _card_words(rest)
    for count in range(min(len(words), 6), 0, -1):
        key = " ".join(words[:count])
        if key in aliases:
            return True
        if len(key) >= 5 and suggest.near(key, aliases, cutoff=CARD_CUTOFF):
            return True
    return False


def _card_words(rest: str) -> tuple[list[str], list[int]]:
    """The leading words of ``rest`` (before any number) and where each one ends."""
    words: list[str] = []
    ends: list[int] = []
    for match in _WORD.finditer(rest):
        if any(ch.isdigit() for ch in match.group()):
            break
        words.append(match.group())
        ends.append(match.end())
    return words, ends


def read_card(rest: str, verb: str = "PLAY") -> tuple[str, str] | Complaint:
    """The card a PLAY or TAKE names (its longest matching alias) and the text after it."""
    aliases = card_data().aliases
    words, ends = _card_words(rest)
    for count in range(min(len(words), 6), 0, -1):
        key = " ".join(words[:count])
        if key in aliases:
            return aliases[key], rest[ends[count - 1] :].strip(" -")
    hint = _("HELP lists the card names")
    for count in range(min(len(words), 4), 0, -1):
        close = suggest.closest(" ".join(words[:count]), aliases, cutoff=CARD_CUTOFF)
        if close is not None:
            keyword = card_data().card(aliases[close]).keyword
            hint = _did_you_mean(f"{verb} {keyword} {rest[ends[count - 1] :]}")
            break
    named = " ".join(words[:3]) or rest
    return Complaint("unknown-card", _("%(words)s is not a card name", words=repr(named)), hint)


def _read_play(rest: str) -> Reading:
    found = read_card(rest)
    if isinstance(found, Complaint):
        return found
    card_id, args = found
    card = card_data().card(card_id)
    example = f"PLAY {card.keyword}"
    if card.args == "none":
        if any(ch.isdigit() for ch in args):
            why = _("%(order)s takes no area or count", order=example)
            return Complaint("malformed", why, example)
        return Play(card_id)
    if card.args == "area":
        needs = _("%(order)s needs an area", order=example)
        target = read_ref(args) if args else Complaint("malformed", needs)
        if isinstance(target, Complaint):
            return Complaint(target.code, target.reason, target.suggestion or f"{example} 14")
        return Play(card_id, target=target)
    if card.args == "path":
        move = read_move(args) if args else Complaint("malformed", _("it needs a path"))
        if isinstance(move, Move) and len(move.path) != 3:
            why = _("%(order)s moves 2 steps: three areas, e.g. 16-14-9", order=example)
            move = Complaint("malformed", why)
        return move if isinstance(move, Complaint) else Play(card_id, move=move)
    return _read_entry(args, card_id)


def _read_entry(args: str, card_id: str | None) -> Reading:
    """ENTER 6 x5, PLAY PROCLAMATION OFF6-6 x5 (or OFF6, or 6): a stack into its gate."""
    the_board = board()
    body, units = split_count(args.strip())
    parts = [part for part in body.split("-") if part.strip()]
    if not parts:
        return Complaint("malformed", _("name the gate or stack, e.g. ENTER 6 x5"))
    refs = [read_ref(part) for part in parts]
    for ref in refs:
        if isinstance(ref, Complaint):
            return ref
    first = str(refs[0])
    if first in the_board.stack_gate:
        path = (first, str(refs[-1]) if len(refs) > 1 else the_board.stack_gate[first])
    elif first in the_board.gate_stack:
        path = (the_board.gate_stack[first], first)
    else:
        gates = ", ".join(the_board.gates)
        why = _("no stack enters at %(area)s: gates are %(gates)s", area=first, gates=gates)
        return Complaint("not-own-gate", why)
    move = Move(path, units)
    return move if card_id is None else Play(card_id, move=move)


FIXED: dict[str, Item] = {"DRAW": Draw(True), "NODRAW": Draw(False), "ADD": Add()}


def _canonical(line: str) -> Item | None:
    """Lines exactly as the canonical form writes them, read without the forgiving detour (the
    common case: receipts and the web form send them so). None: read the long way."""
    fixed = FIXED.get(line)
    if fixed is not None:
        return fixed
    move = _CANONICAL_MOVE.fullmatch(line)
    if move is not None:
        origin, destination, units = move.groups()
        origin = origin.upper()
        the_board = board()
        if (origin in the_board.index or origin in the_board.stack_gate) and (
            destination in the_board.index
        ):
            return Move((origin, destination), None if units is None else int(units))
        return None
    keyword, _, rest = line.partition(" ")
    if keyword == "PLAY":
        card_id = keywords().get(rest.partition(" ")[0])
        if card_id is not None:
            reading = _read_play(rest.lower())
            return reading if not isinstance(reading, Complaint) else None
    return None


@functools.cache
def keywords() -> Mapping[str, str]:
    """Canonical card keywords (MAMELUKES) -> card id."""
    return {card.keyword: card.id for card in card_data().cards}


def _did_you_mean(order: str) -> str:
    return did_you_mean(" ".join(order.upper().split()))


def _read_draw(words: list[str]) -> Draw | None:
    """DRAW or NODRAW in a few words ("no draw", "don't draw a card"); a sentence that merely
    holds the word ("draw your own conclusions") is chat."""
    if any(word not in DRAW_VOCABULARY for word in words):
        return None
    words = [DRAW_WORDS.get(word, word) for word in words]
    if words[:1] == ["nodraw"] or words[:2] == ["no", "draw"]:
        return Draw(False)
    if "draw" not in words[:3]:
        return None
    before = words[: words.index("draw")]
    return Draw(not any(word in NEGATIONS for word in before))


def read_line(line: str) -> Reading | None:
    """One order, a complaint, or None when the line is not an order at all. A mail's lines come
    through ``core.lines``, which sets quoted and overlong lines aside first; they are refused here
    too, the same way, for a line read alone."""
    stripped = line.strip()
    if not stripped or quoted(stripped):
        return None
    long_number = overlong(stripped)
    if long_number is not None:
        return long_number
    fast = _canonical(stripped)
    if fast is not None:
        return fast
    text = normalize(stripped)
    words = text.replace("-", " ").split()
    if not words:
        return None
    first, rest = words[0], text[len(words[0]) :].strip(" -")
    # An order word written in capitals is meant as one: "PLAY BOGUS" is a refused order, while
    # "Play nice!" is chat.
    capitals = shouted(stripped)
    if text in ADD_WORDS:
        return Add()
    if first in PLAY_WORDS:
        if not rest:
            return Complaint("malformed", _("PLAY needs a card name"))
        return _read_play(rest) if capitals or _card_like(rest) else None  # "Play nice!"
    if first in TAKE_WORDS:
        if not (capitals or _card_like(rest)):
            return None  # "Take care"
        found = read_card(rest, "TAKE")
        return found if isinstance(found, Complaint) else Take(found[0])
    draw = _read_draw(words) if len(words) <= 4 else None
    if draw is not None:
        return draw
    if first in card_data().aims and (not rest or area_like(rest)):
        if not rest:
            aim = first.upper()
            hint = _("%(aim)s 14, or PLAY %(aim)s to put the card in play", aim=aim)
            return Complaint("malformed", _("%(aim)s needs an area", aim=aim), hint)
        area = read_ref(rest)
        return area if isinstance(area, Complaint) else Aim(card_data().aims[first], area)
    if first in ENTER_WORDS:
        return _read_entry(rest, None)
    held = rest if first in HOLD_WORDS else first if len(words) == 2 else ""
    if (first in HOLD_WORDS or (len(words) == 2 and words[1] in HOLD_WORDS)) and area_like(held):
        area = read_ref(held)
        return area if isinstance(area, Complaint) else Hold(area)
    if first in MOVE_WORDS and rest:
        return read_move(rest) if move_like(rest) else None  # "move fast, Murat"
    if first[0].isdigit() or (first.startswith("off") and first[3:].isdigit()):
        if len(words) == 1:
            why, hint = _("a number alone is not an order"), _("e.g. 9-14")
            return Complaint("unknown-order", why, hint)
        return read_move(text) if move_like(text) else None  # "3 cheers for the King"
    return _not_keyword(text, words)


def _not_keyword(text: str, words: list[str]) -> Reading | None:
    """A line not starting with an order word: a misspelt order, a card or area name, or chat."""
    has_number = any(ch.isdigit() for ch in text)
    found = read_card(text)
    if not isinstance(found, Complaint) and card_data().card(found[0]).effect.aim:
        area = read_ref(found[1]) if found[1] else None
        if isinstance(area, str):  # "artillería 14": the aim order under another name
            return Aim(found[0], area)
    if not isinstance(found, Complaint) and (has_number or len(words) <= 3):
        keyword = card_data().card(found[0]).keyword
        hint = _did_you_mean(f"PLAY {keyword} {found[1]}")
        return Complaint("unknown-order", _("a card is played with PLAY"), hint)
    if "-" in text and move_like(text):
        return read_move(text)  # area names: "Puerta del Sol - Plaza Mayor"
    rest = text[len(words[0]) :].strip(" -")
    guess = suggest.order_word(
        words[0], KEYWORDS, cutoff=FUZZY_CUTOFF, takes=lambda word: _takes(word, rest), shortest=3
    )
    if guess is not None:
        hint = _did_you_mean(f"{guess} {rest}")
        why = _("%(word)s is not an order word", word=repr(words[0]))
        return Complaint("unknown-order", why, hint)
    return None  # chat: "Mayor of Móstoles was a hero", "Hola Murat" are no orders


def _takes(keyword: str, rest: str) -> bool:
    """Whether ``rest`` is what ``keyword`` takes: so a misspelt order word followed by its
    argument is an attempt ("hodl 14", "plya murat"), and "Hola," or "Hola Murat" is a greeting."""
    if keyword in ("play", "take"):
        return _card_like(rest)
    if keyword == "hold":
        return area_like(rest)
    if keyword in ("move", "enter"):
        return move_like(rest) or (keyword == "enter" and area_like(rest))
    return not rest  # draw, nodraw, add take nothing
