"""Whole numbers in text a stranger wrote: read only when they are short enough to mean something.

Python's ``int()`` raises ValueError on a string of more than 4,300 digits, and below that its
time grows with the square of the length; so a number is counted before it is converted, and
one longer than ``MAX_DIGITS`` is refused like any other bad input, as a value, never raised.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.core.said import _

# No area, card, count, hex or hour in any game or mail command has more than 4 digits; 20
# leaves dates, phone and reference numbers in a player's chatter as they were, and int() of
# 20 digits costs nothing.
MAX_DIGITS = 20
# ``\d`` is every script's decimal digits, which int() reads; str.isdigit() would also take
# superscripts ("²"), which int() refuses.
_LONG = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_WHOLE = re.compile(rf"\d{{1,{MAX_DIGITS}}}")


def too_long(text: str) -> str | None:
    """Why ``text`` cannot be read as an order: it holds a number of more than MAX_DIGITS digits.
    None when every number in it is short enough to convert."""
    found = _LONG.search(text)
    if found is None:
        return None
    digits = len(found.group())
    return _(
        "a number of %(digits)s digits is too long to read: numbers have at most %(most)s",
        digits=digits,
        most=MAX_DIGITS,
    )


def whole(text: str) -> int | None:
    """``text`` (decimal digits only, at most MAX_DIGITS of them) as an int, else None."""
    return int(text) if _WHOLE.fullmatch(text) else None


def json_int(value: Any) -> int:
    """A whole number from JSON: an int, an integral float, or a string of at most MAX_DIGITS
    digits. ValueError (never OverflowError: JSON as Python reads it has Infinity) otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and whole(value.strip()) is not None:
        return int(value.strip())
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ValueError(f"{shown} is not a whole number of at most {MAX_DIGITS} digits")
