"""The bounds on the numbers a game master gives: what is accepted, and what a stored value is
taken to be when it is read back; and on the text from outside that others read (names, header
values, a game master's reasons).

One game's figures must never break the work of the others: the tick reads every game's grace,
reminder lead and delay together, and a value too large for a date (``REMIND 100000000``) would
stop it for everyone. So each number is refused at the door when it is out of bounds, with a
sentence naming the bound, and clamped where it is read, for a row that got in some other way.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from adjudicator.core.refusal import Refusal

# The furthest a deadline may lie ahead of now, and so the longest turn and the longest EXTEND.
AHEAD = timedelta(days=365)
AHEAD_TEXT = "a year"
# More digits than this cannot be a reasonable number of anything; they are refused unread, as
# int() of a very long string is itself slow.
DIGITS = 9
OUT_OF_BOUNDS = "out-of-bounds"


# --- Text from outside: names, header values, the game master's reasons ---------------------
# What one sender writes reaches other people's mail, the pages and the pictures, so each text is
# bounded where it enters and again where it is shown (a row stored before the bound, or some
# other way). A text past its bound is cut and ends in CUT, so a reader sees that it was cut;
# docs/operations.md ("Limits") lists every bound and what a user gets past it.
CUT = "\u2026"
# A player's name: a few words, as a From line's display name or NAME gives it.
NAME_LENGTH = 60
# The game master's reason for a ROLLBACK or an EXTEND, by mail or on the panel.
REASON_LENGTH = 200
# A mail's Subject as the service reads it (orders when the body has none; "Re: <subject>").
SUBJECT_LENGTH = 300
# A Message-ID (or In-Reply-To, or one of References) the service keeps or writes back: a
# longer one is read as none (the dice take the mail's digest; the answer starts a thread).
MESSAGE_ID_LENGTH = 250


@functools.cache
def _unseen() -> re.Pattern[str]:
    """Characters no reader sees: controls (NUL, BEL, ESC, ...), format characters (bidi
    overrides and isolates, zero-width spaces and joiners, soft hyphen, BOM) and lone
    surrogates. A bidi override turns the text after it backwards, a zero-width space makes
    two names look alike, NUL is refused by PostgreSQL. Made on first use (some 0.1 s)."""
    unseen = [
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Cf", "Cs")
    ]
    runs: list[list[int]] = []
    for code in unseen:
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    spans = "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in runs)
    return re.compile(f"[{spans}]")


def plain(text: str) -> str:
    """``text`` as one line a reader sees whole: every run of white space (line breaks and tabs
    too) one space, the characters no one sees (``_unseen``) dropped, no space at either end."""
    return " ".join(_unseen().sub("", " ".join(text.split())).split())


def cut(text: str, most: int) -> str:
    """``text`` if it is at most ``most`` characters, else its start ending in CUT, ``most`` in
    all."""
    if len(text) <= most:
        return text
    return text[: most - len(CUT)].rstrip() + CUT


def bounded(text: str, most: int) -> str:
    """``text`` made ``plain`` and ``cut`` to ``most``; only its start is read when it is far
    longer than that (a megabyte of name), which then reads as cut."""
    window = most * 64
    if len(text) <= window:
        return cut(plain(text), most)
    return cut(plain(text[:window]) + CUT, most)


def name(text: str) -> str:
    """A name as it is kept and shown: ``plain``, at most NAME_LENGTH characters."""
    return bounded(text, NAME_LENGTH)


def reason(text: str) -> str:
    """The game master's free text as the players read it: ``plain``, at most REASON_LENGTH."""
    return bounded(text, REASON_LENGTH)


def unseen(text: str) -> bool:
    """Whether ``text`` holds a character no reader sees (a tab and a line break too)."""
    return bool(_unseen().search(text))


@dataclass(frozen=True)
class Limit:
    """A whole number a game master sets, from 0 to ``most`` ``unit``."""

    word: str  # as the game master writes it, e.g. GRACE
    unit: str
    most: int
    means: str  # what the number is for, for the refusal

    def rule(self) -> str:
        return f"{self.word} takes {self.means}, a whole number from 0 to {self.most} {self.unit}"

    def read(self, text: str) -> int | Refusal:
        """The number in ``text``, or a refusal saying what is wrong with it."""
        text = text.strip()
        if not text.isdigit() or not text.isascii():
            return Refusal(self.rule(), OUT_OF_BOUNDS)
        if len(text.lstrip("0")) > DIGITS:
            shown = f"{text[:12]}{'...' if len(text) > 12 else ''}"
            return Refusal(f"{shown} is too large: {self.rule()}", OUT_OF_BOUNDS)
        return self.check(int(text))

    def check(self, value: int) -> int | Refusal:
        if not 0 <= value <= self.most:
            return Refusal(f"{value} is out of bounds: {self.rule()}", OUT_OF_BOUNDS)
        return value

    def bounded(self, value: int | None) -> int:
        """A stored value as the tick uses it: within bounds whatever the row says."""
        return max(0, min(value or 0, self.most))


GRACE = Limit("GRACE", "minutes", 7 * 24 * 60, "minutes of grace after a deadline")
REMIND = Limit("REMIND", "hours", 7 * 24, "hours before the deadline to remind (0: never)")
DELAY = Limit("DELAY", "minutes", 24 * 60, "minutes to wait after the last orders")


# --- Order lines: how long and how repetitive ---------------------------------------------------
# Every line of a player's own text is read by the command reader and by a game's order parser,
# whose work (and whose receipt: a note for each order a line repeats) grows with the words on
# the line. The longest order or command any game takes is a dozen words and well under 100
# characters; a line past either bound is not read, and its receipt says why (IGNORED, "too long
# to read"). A paragraph of chatter typed without a line break is only chatter either way.
LINE_CHARACTERS = 1000
LINE_WORDS = 50
# How much of a line too long to read its receipt shows, to say which line it was.
LINE_SHOWN = 60
# The Content-Type headers read in one mail (its own and its parts'). Every container a MIME
# parser goes into (multipart/*, message/*) has one, and the standard library's parser goes one
# call deeper for each container nested in another: a mail of a thousand nested message/rfc822
# parts (30 KB) reached Python's recursion limit. A real mail has a few parts, a forwarded
# thread a few dozen. The rest of the message is not read (it stays stored whole).
MAIL_PARTS = 100


# --- Mail headers -----------------------------------------------------------------------------
# The standard library's header parser takes time growing with the square of a field's length
# (a 200 KB Subject: seconds; one of 10 MB: hours). The header block is read up to its first
# HEADER_BLOCK_BYTES and each field up to HEADER_FIELD_READ; nothing a person writes comes near
# either, and the message is stored whole.
HEADER_BLOCK_BYTES = 256 * 1024
# What the mail reader parses of one field: the parser's time grows with the square of a field's
# words (a From line's display name of 100 KB of words held a worker for 4 s, of 1 MB for 125 s;
# a Subject of 1 MB, 101 s). No value read from a header is kept anywhere near this long
# (NAME_LENGTH, SUBJECT_LENGTH, MESSAGE_ID_LENGTH).
HEADER_FIELD_READ = 4000
