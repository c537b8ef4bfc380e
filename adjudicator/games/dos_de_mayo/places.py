"""Reading where a line of a mail points: an area or a stack by its number or its name (typos
get a "did you mean"), and a move's path with its count. ``grammar`` reads the rest of a line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from adjudicator.core import suggest
from adjudicator.core.lines import Complaint
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo import vocabulary
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.orders import Move
from adjudicator.games.dos_de_mayo.text import fold
from adjudicator.games.dos_de_mayo.wording import did_you_mean

# A misspelt word must be this close (``suggest.closest``) to be suggested: "paly" is 0.75.
FUZZY_CUTOFF = 0.7
UNIT_WORDS = "(?:{})".format(
    "|".join(re.escape(word) for word in sorted(vocabulary.every("units"), key=len, reverse=True))
)
_COUNT = re.compile(
    rf"^(?P<body>.*?)\s*(?:x\s*(?P<a>\d+)|(?P<b>\d+)\s*x|\((?P<c>\d+)\)|(?P<d>\d+)\s*{UNIT_WORDS}"
    r"|(?<=\d)\s+(?P<e>\d+)|\s+all)$"
)
_TWO_NUMBERS = re.compile(r"^(off\d+|\d+)\s+(\d+)\b(.*)$")
# Leading words a player may leave out of an area's name: "Sol" for "Puerta del Sol".
_AREA_PREFIXES = (
    "puerta de ",
    "puerta del ",
    "calle de ",
    "paseo del ",
    "carrera de ",
    "parque de ",
    "red de ",
    "palacio ",
    "el ",
    "plaza de ",
)


@functools.cache
def area_names() -> Mapping[str, str]:
    """Folded area names (full, and without 'Puerta de' and the like) -> area id."""
    names: dict[str, str] = {}
    for area, name in board().names.items():
        full = fold(name)
        names[full] = area
        for prefix in _AREA_PREFIXES:
            if full.startswith(prefix):
                names.setdefault(full[len(prefix) :], area)
    return names


def _nearest(wanted: int, choices: tuple[str, ...]) -> str | None:
    numbers = [c for c in choices if c.isdigit()]
    return min(numbers, key=lambda c: (abs(int(c) - wanted), int(c)), default=None)


def read_ref(text: str, origin: str | None = None) -> str | Complaint:
    """An area id ("14"), a stack id ("OFF1"), or why the words name neither."""
    the_board = board()
    text = text.strip()
    if text.isdigit():
        if text.lstrip("0") in the_board.index:
            return text.lstrip("0")
        near = _nearest(int(text), the_board.neighbours[origin] if origin else the_board.areas)
        hint = did_you_mean(near) if near else None
        count = len(the_board.areas)
        why = _("there is no area %(area)s: areas are 1-%(count)s", area=text, count=count)
        return Complaint("unknown-area", why, hint)
    if text.startswith("off") and text[3:].isdigit():
        stack = f"OFF{int(text[3:])}"
        if stack in the_board.stack_gate:
            return stack
        stacks = ", ".join(the_board.stacks)
        why = _("there is no stack %(stack)s: stacks are %(stacks)s", stack=stack, stacks=stacks)
        return Complaint("unknown-area", why)
    folded = fold(text)
    names = area_names()
    if folded in names:
        return names[folded]
    close = suggest.closest(folded, names, cutoff=FUZZY_CUTOFF)
    hint = None if close is None else did_you_mean(the_board.label(names[close]))
    return Complaint(
        "unknown-area", _("%(words)s is not an area name or number", words=repr(text)), hint
    )


def area_like(text: str) -> bool:
    """Whether ``text`` names an area or stack, or comes close to a name (a typo worth a "did you
    mean"): a number always does; a word of chat does not."""
    text = text.strip()
    if not text:
        return False
    if text.isdigit() or (text.startswith("off") and text[3:].isdigit()):
        return True
    folded = fold(text)
    names = area_names()
    return folded in names or suggest.near(folded, names, cutoff=FUZZY_CUTOFF)


def move_like(text: str) -> bool:
    """A move standing alone: every part between the dashes names an area (a count may end it),
    or two bare numbers ("9 14")."""
    if "-" not in text and _TWO_NUMBERS.fullmatch(text.strip()):
        return True
    body, _ = split_count(text.strip())
    parts = body.split("-")
    return len(parts) >= 2 and all(area_like(part) for part in parts)


def split_count(text: str) -> tuple[str, int | None]:
    """A move's words and the count that ends them ("x2", "2x", "(2)", "2 units"), None for
    all the units."""
    match = _COUNT.match(text)
    if match is None:
        return text, None
    for key in "abcde":
        if match.group(key):
            return match.group("body"), int(match.group(key))
    return match.group("body"), None  # "all"


def read_move(text: str) -> Move | Complaint:
    """'16-12 x2', '9 14', 'sol-plaza mayor': a move with its path and optional count."""
    text = text.strip()
    two = _TWO_NUMBERS.match(text)
    if two and "-" not in text:  # "9 14" and "16 12 x2": two bare numbers are a move
        text = f"{two.group(1)}-{two.group(2)}{two.group(3)}"
    body, units = split_count(text)
    parts = [part.strip() for part in body.split("-")]
    if len(parts) < 2 or any(not part for part in parts):
        return Complaint("malformed", _("a move is written origin-destination, e.g. 9-14"))
    path: list[str] = []
    for part in parts:
        ref = read_ref(part, path[-1] if path and not path[-1].startswith("OFF") else None)
        if isinstance(ref, Complaint):
            return ref
        path.append(ref)
    if units is not None and units < 1:
        return Complaint("malformed", _("a count must be 1 or more, e.g. 16-12 x2"))
    return Move(tuple(path), units)
