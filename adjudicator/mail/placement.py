"""Where a quoted mail without ">" marks ends, when the mail quoted is one of the service's own.

Outlook, Hotmail and many webmails quote the mail replied to under a header block, unmarked. What
stands above the block is the player's, and so is what stands below the quoted mail, when the
player wrote under it; the quoted mail's own lines never are, even when they look like orders (a
receipt echoes the orders it took, the help shows example orders). The service knows what it
wrote: the caller passes those lines (``Known``), and the mark every game mail's footer carries
(``SERVICE_MARK``) is recognised even without them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# The footer of every game mail states the seed commitment ("SHA-256 <64 hex digits>") in every
# language: a line no player writes, so the quoted mail holding it is the service's.
SERVICE_MARK = re.compile(r"\bSHA-256\s+[0-9a-f]{64}\b")

# The share of a quoted mail's lines that may be strange to the mails known, for it to be one
# of them with lines written into it.
_STRANGE = 0.2

_QUOTES = "\"'“”„«»"

# A line this long found inside the service's text is its text cut by the client's rewrapping;
# a shorter one may be a new order that happens to be a piece of it ("9-14").
_FRAGMENT = 20


def normal(line: str) -> str:
    """``line`` as compared: case folded, spaces collapsed (clients re-indent and rewrap),
    accents gone (a client writing a legacy charset drops those it cannot encode)."""
    # Seznam quotes the old mail in quotation marks, its first line and its last.
    folded = unicodedata.normalize("NFKD", " ".join(line.split()).casefold().strip(_QUOTES))
    return "".join(char for char in folded if not unicodedata.combining(char))


@dataclass(frozen=True)
class Known:
    """The lines of the service's mails the reply may quote, normalised."""

    lines: frozenset[str]
    # Every line in order, joined by spaces: a rewrapped piece of a line is a substring of it.
    text: str

    @classmethod
    def of(cls, lines: Iterable[str]) -> Known:
        kept = [found for found in (normal(line) for line in lines) if found]
        return cls(frozenset(kept), " ".join(kept))

    def joined(self, lines: Iterable[str]) -> Known:
        """These lines and ``lines`` after them."""
        more = Known.of(lines)
        return Known(self.lines | more.lines, f"{self.text} {more.text}".strip())

    def written(self, line: str) -> bool:
        """True when the service surely wrote ``line``: one of its lines, or a long piece of
        one, or its footer's mark."""
        found = normal(line)
        if not found:
            return False
        if found in self.lines or SERVICE_MARK.search(line):
            return True
        return len(found) >= _FRAGMENT and found in self.text

    def continues(self, line: str, following: str) -> bool:
        """True when ``following`` goes on with ``line`` in the service's text (one of its
        lines wrapped in two)."""
        joined = f"{normal(line)} {normal(following)}"
        return bool(normal(following)) and joined in self.text

    def piece(self, line: str) -> bool:
        """True when ``line`` could be a piece of the service's text (any length): inside a
        quoted mail of the service's, such a line is taken for the mail's own."""
        found = normal(line)
        return not found or self.written(line) or found in self.text


def pasted(lines: list[str], known: Known) -> list[str]:
    """``lines`` without the blocks pasted from the service's mails: runs of two lines or more
    that stand in its text one after the other, one of them long enough to be no order (a
    receipt's "YOUR ORDERS AS UNDERSTOOD" and the lines it took, a report's "WHAT HAPPENED").
    A short line alone, or short lines only, may be new orders that repeat old ones: kept."""
    if not known.text:
        return lines
    kept: list[str] = []
    index = 0
    while index < len(lines):
        end = _run_end(lines, index, known)
        run = lines[index:end]
        if len(run) >= 2 and any(len(normal(line)) >= _FRAGMENT for line in run):
            index = end
            continue
        kept.append(lines[index])
        index += 1
    return kept


def _run_end(lines: list[str], start: int, known: Known) -> int:
    """The end of the longest run of non-blank lines from ``start`` that stands in the
    service's text as it is, lines in the same order (``start`` itself when none does)."""
    end = start
    joined = ""
    while end < len(lines) and normal(lines[end]):
        longer = f"{joined} {normal(lines[end])}".strip()
        if longer not in known.text:
            break
        joined = longer
        end += 1
    return end


@dataclass(frozen=True)
class OldMail:
    """The quoted mail's extent: its last line's index, and the runs of lines inside it that the
    service did not write (the player's, or the client's changes: the reader cannot tell)."""

    last: int
    unplaced: tuple[tuple[int, ...], ...]


def old_mail(
    lines: list[str], start: int, known: Known, skipped: Callable[[str], bool]
) -> OldMail | None:
    """The extent of the service's mail quoted from ``lines[start]`` on; None when no line of it
    is the service's (the mail quoted is unknown: where it ends cannot be told). ``skipped``
    names lines that are nobody's text (client footers, ">"-marked lines)."""
    last: int | None = None
    for index in range(start, len(lines)):
        # Only a long line places the quoted mail's end: a short one ("NODRAW", "9-14") may be
        # a new order under it that repeats one of the old mail's lines.
        if known.written(lines[index]) and len(normal(lines[index])) >= _FRAGMENT:
            last = index
        if SERVICE_MARK.search(lines[index]):
            last = _footer_end(lines, index)
    if last is None:
        return None
    # A long line the client wrapped leaves its last words on a line of their own ("die."),
    # and a closing quotation mark may stand alone below the quoted mail.
    while last + 1 < len(lines) and (
        known.continues(lines[last], lines[last + 1]) or _closing(lines[last + 1])
    ):
        last += 1
    runs: list[tuple[int, ...]] = []
    run: list[int] = []
    for index in range(start, last + 1):
        line = lines[index]
        if not line.strip():
            continue
        if known.piece(line) or skipped(line):
            if run:
                runs.append(tuple(run))
                run = []
            continue
        run.append(index)
    if run:
        runs.append(tuple(run))
    # With only the mark to go by, the rest of the quoted mail is not known line by line; nor
    # is it when many of its lines are strange: it is another mail of the service's than those
    # known (an older one), whose own lines would all look new.
    written = sum(1 for index in range(start, last + 1) if lines[index].strip())
    strange = sum(len(found) for found in runs)
    if not known.lines or strange > written * _STRANGE:
        runs = []
    return OldMail(last, tuple(runs))


def _closing(line: str) -> bool:
    """A line of punctuation alone, no one's text: Seznam's closing quotation mark."""
    return bool(line.strip()) and not any(char.isalnum() for char in line)


def _footer_end(lines: list[str], index: int) -> int:
    """The footer's last line, from its mark at ``index``: one sentence on the seed follows the
    mark, or, once the seed is revealed, the seed and the link to check it (one line in the
    HTML mail, two in the text one). A client that made the HTML text may put no blank line
    between it and the reply written under it, so only these lines go with the mark."""
    end = min(index + 1, len(lines) - 1)
    if _SEED.search(lines[end]) and "://" not in lines[end] and end + 1 < len(lines):
        end += 1 if "://" in lines[end + 1] else 0
    return end


# A revealed seed: a long run of hex digits, as the footer shows it.
_SEED = re.compile(r"\b[0-9a-f]{32,}\b")
