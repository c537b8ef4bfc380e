"""Find the lines a player actually wrote: drop quoted replies, signatures and client boilerplate.

Players reply from every mail client there is, so the quoted receipt and their signature must not
reach the order parser as orders. An explicit ORDERS ... END block is the escape hatch when the
heuristics guess wrong: if present it is taken verbatim and nothing else is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from adjudicator import limits
from adjudicator.core.lines import ELLIPSIS
from adjudicator.mail import placement, quote_marks

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
# A field of a quoted mail's header block, in any language: a short name and a colon (or a
# table's bar); at most this many of them stand between the block's opening and the old text.
_FIELD = re.compile(r"^\s*[*|]?\s*[^\s:：|][^:：|]{0,30}[:：|]")
_HEADER_FIELDS = 8
# The ">" marks of a quoted line, however deep, and the space after each.
_MARKS = re.compile(r"^\s*(?:>\s?)+")
_RULE = re.compile(r"^\s*[-_=*~]{3,}\s*$")


class Doubt(StrEnum):
    """Why the reader cannot tell the player's new lines from old ones. A mail read in doubt
    replaces nothing on file: its receipt shows the lines each reading would take and asks for
    them again inside ``ORDERS`` ... ``END`` (or for which part to read)."""

    # New-looking text both above and below a quoted mail that has no ">" marks.
    ABOVE_AND_BELOW = "above-and-below"
    # Lines where the reader cannot say whether they are new or quoted history: inside a quoted
    # mail of the service's that it did not write, or below an unknown quoted mail with nothing
    # above it. Its two readings are the lines read without them and with them.
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


def order_lines(text: str, known: Iterable[str] = ()) -> list[str]:
    """The lines the player wrote for the order parser, in order, blank lines inside kept."""
    return own_text(text, known).lines


def own_text(text: str, known: Iterable[str] = ()) -> OwnText:
    """``order_lines``, whether the MAX_LINES / MAX_BYTES bound left any of them unread, and
    whether the reader was in doubt. ``known``: lines the service wrote in the mails this one
    may quote (``placement.Known``): quoted without ">" marks, they are old, never orders."""
    head, cut = _head(text)
    lines = [line.rstrip() for line in head]
    found = _own_lines(lines, placement.Known.of(known))
    # A cut inside ">"-marked history (a long thread quoted below a reply) loses nothing either.
    in_quote = _quoted(next((line for line in reversed(lines) if line.strip()), None))
    unread = len(lines) if cut and not found.ended and not in_quote else None
    return OwnText(found.lines, unread, found.doubt, found.readings)


def quotes_unmarked(text: str) -> bool:
    """Whether the text quotes a mail without ">" marks (after a header block, a separator or
    an attribution): only then do the service's own mails matter to its reading (``known``)."""
    lines = [line.rstrip() for line in _head(text)[0]]
    return _own_text(lines, 0)[1] is not None


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


@dataclass(frozen=True)
class _Found:
    lines: list[str]
    ended: bool
    doubt: Doubt | None = None
    readings: tuple[tuple[str, ...], ...] = ()


def _own_lines(lines: list[str], known: placement.Known) -> _Found:
    """The player's lines, and whether their end was seen (a quote, a signature, a disclaimer
    or the END of an ORDERS block) rather than the lines running out. Text above a quoted mail
    without ">" marks is the player's, and so is text below it once the quoted mail is known to
    end (``placement``); text on both sides, or lines inside it the service did not write, leave
    the reader in doubt (``Doubt``)."""
    above, opening = _own_text(lines, 0)
    later = _after_quote(lines, opening, known) if opening is not None else None
    below = later.below if later is not None else []
    block = _explicit_block(lines, above) or _explicit_block(lines, below)
    if block is not None:
        return _Found(_trim_blank(block), True)
    # Text pasted from the service's mails, the ones quoted in this very mail among them, is
    # old wherever it stands.
    quoted = lines[opening : later.last + 1] if opening is not None and later else []
    pasting = known.joined(_history(lines, quoted))
    top, ended = _kept(lines, above, pasting)
    if opening is None:
        return _Found(top, ended)
    if later is None:
        # The mail quoted is not known, so where it ends is not either: the text above is the
        # reply; with none, whatever stands below may be new or old.
        rest, _ = _kept(lines, _own_text(lines, _body_start(lines, opening))[0], pasting)
        if top or not rest:
            return _Found(top, True)
        return _Found([], True, Doubt.UNMARKED, ((), tuple(rest)))
    bottom, bottom_ended = _kept(lines, below, pasting)
    runs = (_kept(lines, list(run), pasting)[0] for run in later.unplaced)
    unplaced = [run for run in runs if run]
    if unplaced:
        every = [line for group in (top, *unplaced, bottom) if group for line in (*group, "")]
        guess = top or bottom
        return _Found(guess, True, Doubt.UNMARKED, (tuple(guess), tuple(every[:-1])))
    if top and bottom:
        both = (tuple(top), tuple(bottom))
        return _Found([*top, "", *bottom], True, Doubt.ABOVE_AND_BELOW, both)
    if bottom:
        return _Found(bottom, bottom_ended)
    return _Found(top, True)


def _history(lines: list[str], unmarked: list[str]) -> list[str]:
    """The mail's quoted lines as they were written: those marked with ">" (marks gone), and
    the ``unmarked`` quoted mail's, when where it ends is known."""
    return [_MARKS.sub("", line) for line in lines if _quoted(line)] + unmarked


@dataclass(frozen=True)
class _Later:
    """Past a quoted mail of the service's: the indexes of the player's lines below it, and the
    runs inside it the service did not write."""

    below: list[int]
    unplaced: tuple[tuple[int, ...], ...]
    last: int  # the quoted mail's last line


def _after_quote(lines: list[str], opening: int, known: placement.Known) -> _Later | None:
    """What follows the unmarked quote opening at ``lines[opening]``; None when the mail quoted
    is not one of the service's (its end cannot be told)."""
    old = placement.old_mail(lines, _body_start(lines, opening), known, _skipped)
    if old is None:
        return None
    return _Later(_own_text(lines, old.last + 1)[0], old.unplaced, old.last)


def _body_start(lines: list[str], opening: int) -> int:
    """Where the quoted mail's text starts: after the attribution, or after the separator and
    the header block's field lines (From, Sent, To, Subject) up to the blank line below them."""
    span = quote_marks.attribution_span(lines, opening)
    if span:
        return opening + span
    index = opening + 1
    while index < len(lines) and not lines[index].strip():
        index += 1
    # A client that made the text from HTML may put no blank line below the fields: only lines
    # that read as one ("Name: value", NetEase's "| From | … |") are skipped, a few at most.
    end = min(len(lines), index + _HEADER_FIELDS)
    while index < end and _FIELD.match(lines[index]):
        index += 1
    return index


def _skipped(line: str) -> bool:
    return _quoted(line) or quote_marks.is_client_footer(line)


def _kept(lines: list[str], indexes: list[int], pasting: placement.Known) -> tuple[list[str], bool]:
    """The player's lines at ``indexes``, up to a signature or a disclaimer, without ">"-marked
    lines, client footers and blocks pasted from ``pasting``; and whether such an end was
    seen."""
    kept: list[str] = []
    for index in indexes:
        line = lines[index]
        if line == "--":
            return _trim_blank(placement.pasted(kept, pasting)), True
        if quote_marks.is_disclaimer(line):
            kept = _trim_blank(kept)
            while kept and _RULE.match(kept[-1]):
                kept.pop()
            return _trim_blank(placement.pasted(kept, pasting)), True
        if not _skipped(line):
            kept.append(line)
    return _trim_blank(placement.pasted(kept, pasting)), False


def subject_line(subject: str) -> str | None:
    """The subject without Re:/Fwd:/AW:/Sv: prefixes and leading [tags]; None if nothing is left."""
    rest = " ".join(subject.split())
    while True:
        stripped = quote_marks.without_subject_prefix(rest)
        if stripped == rest:
            break
        rest = stripped
    return rest or None


def _explicit_block(lines: list[str], indexes: list[int]) -> list[str] | None:
    """Lines between the first "ORDERS" line and the next "END" line the player wrote, if any."""
    # Only the player's own text is searched: a block in quoted history is an old one (our
    # receipts may echo orders), and replying to it must not resubmit it.
    start: int | None = None
    for index in indexes:
        marker = lines[index].strip()
        if start is None and _BLOCK_START.fullmatch(marker):
            start = index
        elif start is not None and _BLOCK_END.fullmatch(marker):
            return lines[start + 1 : index]
    return None


def _own_text(lines: list[str], start: int) -> tuple[list[int], int | None]:
    """Indexes of the lines from ``start`` down to quoted history without ">" marks, skipping
    attributions of ">"-marked quotes; and the index where such history opens, if it does."""
    own: list[int] = []
    index = start
    while index < len(lines):
        if quote_marks.starts_quote(lines, index):
            return own, index
        span = quote_marks.attribution_span(lines, index)
        if span:
            # Inline (bottom-posted) replies put the player's text after a ">"-marked quote;
            # only when the quote is not marked must everything below go.
            if not _quoted(_next_nonblank(lines, index + span)):
                return own, index
            index += span
            continue
        own.append(index)
        index += 1
    return own, None


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
