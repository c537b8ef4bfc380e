"""Reading a player's mail line by line, the same way for every game.

A mail is mostly not orders: greetings, quoted replies, signatures. Each game knows how to read
one line of its own orders; what is done with the lines around that reading is shared, so a fix
to it (how chat is told from a broken order) is made once:

- a blank line gets no receipt;
- a quoted line (``>``) is ignored as "quoted text", whatever it says;
- a line too long to read (``unreadable``: past ``limits.LINE_CHARACTERS`` or
  ``limits.LINE_WORDS``) is ignored with that reason, never given to the game's reader;
- a line holding a number too long to read is refused as malformed (see ``numbers.too_long``);
- the game's reader then says "not an order" (None: the line is ignored as chat), complains (the
  line is refused with the complaint's code, reason and suggestion), or gives a reading, which is
  kept with its line's number and text for the game's own checks against the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from adjudicator import limits
from adjudicator.core import numbers
from adjudicator.core.contract import LineReport, LineStatus
from adjudicator.core.said import N_, _

R = TypeVar("R")

QUOTED = N_("quoted text")
ELLIPSIS = "\u2026"
CHAT = N_("not an order")


@dataclass(frozen=True)
class Complaint:
    """A line that looks like an order but cannot be read: a code from the game's closed set, the
    reason for people and, where one can be guessed, what was meant ("did you mean ...")."""

    code: str
    reason: str
    suggestion: str | None = None

    def receipt(self, number: int, text: str) -> LineReport:
        """The refused line's receipt."""
        return LineReport(
            number,
            text,
            LineStatus.REJECTED,
            code=self.code,
            reason=self.reason,
            suggestion=self.suggestion,
        )


@dataclass(frozen=True)
class Numbered(Generic[R]):
    """What one line of a mail said, with the line's number (from 1) and text as written."""

    number: int
    text: str
    reading: R


@dataclass(frozen=True)
class MailLines(Generic[R]):
    """A mail read line by line: the lines ignored (with their receipts), the lines refused by the
    reader (with their complaints) and the readings, each in the order of the mail."""

    ignored: tuple[LineReport, ...]
    refused: tuple[Numbered[Complaint], ...]
    read: tuple[Numbered[R], ...]

    @property
    def receipts(self) -> list[LineReport]:
        """The ignored and refused lines' receipts, in the order of the mail."""
        refused = [line.reading.receipt(line.number, line.text) for line in self.refused]
        return sorted([*self.ignored, *refused], key=by_number)


def by_number(report: LineReport) -> int:
    """A receipt's place in the mail, to sort receipts by."""
    return report.number


def quoted(line: str) -> bool:
    """Whether ``line`` quotes an earlier mail (a reply's ``>``): never an order."""
    return line.strip().startswith(">")


def overlong(line: str) -> Complaint | None:
    """The complaint for a line holding a number too long to read, else None."""
    why = numbers.too_long(line)
    return None if why is None else Complaint("malformed", why)


def unreadable(line: str) -> str | None:
    """Why ``line`` is too long to read (``limits.LINE_CHARACTERS``, ``limits.LINE_WORDS``), or
    None. The mail's reader cuts a longer line to its first LINE_CHARACTERS characters and an
    ellipsis (``extract``), so its length is no longer known here: only that it was too long."""
    if len(line.strip()) > limits.LINE_CHARACTERS:
        return _(
            "too long to read: a line holds at most %(most)s characters",
            most=limits.LINE_CHARACTERS,
        )
    # Counting stops past the bound: a line of words is never split whole to be counted.
    words = len(line.split(maxsplit=limits.LINE_WORDS)) if line.strip() else 0
    if words > limits.LINE_WORDS:
        return _("too long to read: a line holds at most %(most)s words", most=limits.LINE_WORDS)
    return None


def shortened(line: str) -> str:
    """``line`` as a receipt shows one too long to read: its beginning, enough to find it."""
    text = line.strip()
    if len(text) <= limits.LINE_SHOWN:
        return text
    return text[: limits.LINE_SHOWN].rstrip() + ELLIPSIS


def shouted(line: str) -> bool:
    """Whether the first word of ``line`` is written in capitals: an order word so written is
    meant as an order ("PLAY BOGUS" is a refused order, where "Play nice!" is chat)."""
    words = line.split()
    return bool(words) and words[0].isupper()


def read_mail(text: str, reader: Callable[[str], R | Complaint | None]) -> MailLines[R]:
    """Every line of ``text`` read with ``reader`` (given the line as written), as described
    above; ``reader`` never sees a blank, quoted, too long or overlong line."""
    ignored: list[LineReport] = []
    refused: list[Numbered[Complaint]] = []
    read: list[Numbered[R]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if quoted(raw):
            ignored.append(LineReport(number, raw, LineStatus.IGNORED, reason=_(QUOTED)))
            continue
        why = unreadable(raw)
        if why is not None:
            ignored.append(LineReport(number, shortened(raw), LineStatus.IGNORED, reason=why))
            continue
        reading: R | Complaint | None = overlong(raw)
        if reading is None:
            reading = reader(raw)
        if reading is None:
            ignored.append(LineReport(number, raw, LineStatus.IGNORED, reason=_(CHAT)))
        elif isinstance(reading, Complaint):
            refused.append(Numbered(number, raw, reading))
        else:
            read.append(Numbered(number, raw, reading))
    return MailLines(tuple(ignored), tuple(refused), tuple(read))
