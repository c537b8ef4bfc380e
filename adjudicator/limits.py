"""The bounds on the numbers a game master gives: what is accepted, and what a stored value is
taken to be when it is read back.

One game's figures must never break the work of the others: the tick reads every game's grace,
reminder lead and delay together, and a value too large for a date (``REMIND 100000000``) would
stop it for everyone. So each number is refused at the door when it is out of bounds, with a
sentence naming the bound, and clamped where it is read, for a row that got in some other way.
"""

from __future__ import annotations

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
