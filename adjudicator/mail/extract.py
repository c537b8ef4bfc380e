"""Find the lines a player actually wrote: drop quoted replies, signatures and client boilerplate.

Players reply from every mail client there is, so the quoted receipt and their signature must not
reach the order parser as orders. An explicit ORDERS ... END block is the escape hatch when the
heuristics guess wrong: if present it is taken verbatim and nothing else is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from adjudicator import limits
from adjudicator.core.lines import ELLIPSIS
from adjudicator.mail import quote_marks

_NEWLINE = re.compile(r"\r\n|\r|\n")

# Only a mail's first MAX_LINES lines, and no more of them than fit in MAX_BYTES, are read for
# orders and commands. The longest order set any game takes (a Musket & Pike activation moving
# every unit of a wing, hex by hex) is a few dozen lines and a few KB; 500 lines and 64 KiB
# are ten times that with chatter around it, and take a fraction of a second to read, where a
# 1.7 MB body of 140,000 lines held a worker for half a minute (every step, from the
# quote stripper to the receipt, costs per line). A line counts as at most
# ``limits.LINE_CHARACTERS`` characters: a longer one is cut (``_cut``), never read.
MAX_LINES = 500
MAX_BYTES = 64 * 1024

_BLOCK_START = re.compile(r"orders:?", re.IGNORECASE)
_BLOCK_END = re.compile(r"end", re.IGNORECASE)

# A rule line a disclaimer may stand below (it goes with the disclaimer). Where quoted history
# starts and which lines are a client's boilerplate is ``quote_marks``' business, per language.
_RULE = re.compile(r"^\s*[-_=*~]{3,}\s*$")


class Doubt(StrEnum):
    """Why the reader cannot tell the player's new lines from old ones. A mail read in doubt
    replaces nothing on file: its receipt shows the lines each reading would take and asks for
    them again inside ``ORDERS`` ... ``END`` (or for which part to read)."""

    # New-looking text both above and below a quoted mail that has no ">" marks.
    ABOVE_AND_BELOW = "above-and-below"
    # Order-like lines where the reader cannot say whether they are new or quoted history.
    UNMARKED = "unmarked"


@dataclass(frozen=True)
class OwnText:
    """The lines the player wrote, and where reading stopped when the text was too long."""

    lines: list[str]
    # The number of the last line read, when the player's own text went on past it (a cut in
    # quoted history below it, or after a signature, loses nothing and is not reported).
    unread_after: int | None = None
    # Set when the reader could not tell new text from old; ``lines`` is then its best guess and
    # ``readings`` holds each candidate set of lines in the order they stand in the mail.
    doubt: Doubt | None = None
    readings: tuple[tuple[str, ...], ...] = field(default=())


def order_lines(text: str) -> list[str]:
    """The lines the player wrote for the order parser, in order, blank lines inside kept."""
    return own_text(text).lines


def own_text(text: str) -> OwnText:
    """``order_lines`` and whether the MAX_LINES / MAX_BYTES bound left any of them unread."""
    head, cut = _head(text)
    lines = [line.rstrip() for line in head]
    kept, ended = _own_lines(lines)
    # A cut inside ">"-marked history (a long thread quoted below a reply) loses nothing either.
    in_quote = _quoted(next((line for line in reversed(lines) if line.strip()), None))
    return OwnText(kept, len(lines) if cut and not ended and not in_quote else None)


def _head(text: str) -> tuple[list[str], bool]:
    """The text's first lines, as many whole ones as MAX_LINES and MAX_BYTES allow, and whether
    anything but blank lines was left out. A line longer than ``limits.LINE_CHARACTERS`` is
    kept cut (``_cut``): it is not read, but it is answered as too long to read, and the lines
    after it are read as if it had been short."""
    kept: list[str] = []
    size = 0
    start = 0
    ends = _NEWLINE.finditer(text)
    while len(kept) < MAX_LINES:
        found = next(ends, None)
        end = len(text) if found is None else found.start()
        line = _cut(text[start:end])
        size += len(line.encode("utf-8", "replace")) + 1
        if size > MAX_BYTES + 1:  # the last line needs no line end
            break
        kept.append(line)
        if found is None:
            return kept, False
        start = found.end()
    rest = text[start:]
    return kept, bool(rest) and not rest.isspace()


def _cut(line: str) -> str:
    """``line`` without trailing spaces, cut after ``limits.LINE_CHARACTERS`` characters with an
    ellipsis when it is longer: still too long for every reader (``core.lines.unreadable``)."""
    line = line.rstrip()
    if len(line) <= limits.LINE_CHARACTERS:
        return line
    return line[: limits.LINE_CHARACTERS] + ELLIPSIS


def _own_lines(lines: list[str]) -> tuple[list[str], bool]:
    """The player's lines, and whether their end was seen (a quote, a signature, a disclaimer
    or the END of an ORDERS block) rather than the lines running out."""
    block = _explicit_block(lines)
    if block is not None:
        return _trim_blank(block), True
    kept: list[str] = []
    stopped: list[bool] = []
    for index in _own_text(lines, stopped):
        line = lines[index]
        if line == "--":
            return _trim_blank(kept), True
        if quote_marks.is_disclaimer(line):
            kept = _trim_blank(kept)
            while kept and _RULE.match(kept[-1]):
                kept.pop()
            return _trim_blank(kept), True
        if not _quoted(line) and not quote_marks.is_client_footer(line):
            kept.append(line)
    return _trim_blank(kept), bool(stopped)


def subject_line(subject: str) -> str | None:
    """The subject without Re:/Fwd:/AW:/Sv: prefixes and leading [tags]; None if nothing is left."""
    rest = " ".join(subject.split())
    while True:
        stripped = quote_marks.without_subject_prefix(rest)
        if stripped == rest:
            break
        rest = stripped
    return rest or None


def _explicit_block(lines: list[str]) -> list[str] | None:
    """Lines between the first "ORDERS" line and the next "END" line the player wrote, if any."""
    # Only the player's own text is searched: a block in quoted history is an old one (our
    # receipts may echo orders), and replying to it must not resubmit it.
    start: int | None = None
    for index in _own_text(lines):
        marker = lines[index].strip()
        if start is None and _BLOCK_START.fullmatch(marker):
            start = index
        elif start is not None and _BLOCK_END.fullmatch(marker):
            return lines[start + 1 : index]
    return None


def _own_text(lines: list[str], stopped: list[bool] | None = None) -> Iterator[int]:
    """Indexes of the lines above quoted history, skipping attributions of ">"-marked quotes;
    True is put in ``stopped`` when quoted history ended them."""
    index = 0
    while index < len(lines):
        if quote_marks.starts_quote(lines, index):
            if stopped is not None:
                stopped.append(True)
            return
        span = quote_marks.attribution_span(lines, index)
        if span:
            # Inline (bottom-posted) replies put the player's text after a ">"-marked quote;
            # only when the quote is not marked must everything below go.
            if not _quoted(_next_nonblank(lines, index + span)):
                if stopped is not None:
                    stopped.append(True)
                return
            index += span
            continue
        yield index
        index += 1


def _quoted(line: str | None) -> bool:
    return line is not None and line.lstrip().startswith(">")


def _next_nonblank(lines: list[str], start: int) -> str | None:
    return next((lines[i] for i in range(start, len(lines)) if lines[i].strip()), None)


def _trim_blank(lines: list[str]) -> list[str]:
    start = 0
    end = len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]
