"""Where quoted history starts in a reply, and which lines are a mail client's boilerplate.

Clients mark the mail they answer in the writer's language: Outlook and Hotmail put a header
block ("Von:" / "Gesendet:", "差出人:" / "送信日時:") above it, Gmail, Apple Mail and Thunderbird an
attribution ("Op <date> schreef <name>:", "<name> <addr> şunu yazdı:"), others a separator
("-----Original Message-----"). The words are data (``quote_marks.toml``, one table per language);
this module turns them into the predicates ``extract`` asks line by line.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

# Right-to-left clients (Hebrew, Arabic) wrap names and addresses in direction marks, and HTML
# turns &nbsp; into no-break spaces; neither changes what a line says.
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
# Zoho writes its attribution between dashes ("---- On ... wrote ----") and leaves off the colon.
_DASHED = re.compile(r"^-{2,}\s*(.*?)\s*-{2,}$")
# Outlook's rule of underscores above a header block; other clients draw it in dashes or "=".
_RULE = re.compile(r"^(?:_{10,}|-{10,}|={4,})$")
# A date or a time, as attributions carry: "10:12", "10.12", "2024", "4.3.", "04/03", "3月".
_DATED = re.compile(r"\d{1,2}[:.h]\d{2}|\d{4}|\d{1,2}[./-]\s?\d{1,2}|\d\s?(?:年|月|日|년|월|일)")
_TIME = re.compile(r"\d{1,2}[:.]\d{2}")
_ADDRESS = re.compile(r"[^\s<>()\[\]@:]+@[^\s<>()\[\]@]+\.\w+")
# Gmail's and Yandex's attribution without a verb: "<date>, <time>, Name <a@b>:".
_VERBLESS = r"[^<]*\d{1,2}:\d{2}[^<]*<[^<>@\s]+@[^<>\s]+>\)?\s?[:：]"
# How far below a header block's first field its other fields may stand (Outlook wraps a long
# list of recipients over a line or two).
_BLOCK_REACH = 4


@dataclass(frozen=True)
class _Marks:
    from_field: re.Pattern[str]
    sent_field: re.Pattern[str]
    to_field: re.Pattern[str]
    subject_field: re.Pattern[str]
    attribution: re.Pattern[str]
    verb_at_end: re.Pattern[str]
    verb: re.Pattern[str]
    # The verbs casefolded: a line holding none of them is no attribution with a verb, which is
    # told far faster by looking for them than by the pattern (most lines are not attributions).
    verb_words: tuple[str, ...]
    opening: re.Pattern[str]
    separator: re.Pattern[str]
    footer: re.Pattern[str]
    disclaimer: re.Pattern[str]
    subject_prefix: re.Pattern[str]
    languages: tuple[str, ...]


def languages() -> tuple[str, ...]:
    """The language tags whose clients' marks are known."""
    return _marks().languages


def starts_quote(lines: list[str], index: int) -> bool:
    """True when lines[index] opens quoted history that runs to the end of the message: a
    separator, or a header block (below a rule of underscores, dashes or "=" or not)."""
    line = clean(lines[index])
    marks = _marks()
    if marks.separator.match(line):
        return True
    if _RULE.match(line):
        following = next((i for i in range(index + 1, len(lines)) if lines[i].strip()), None)
        return following is not None and header_block_at(lines, following)
    return header_block_at(lines, index)


def header_block_at(lines: list[str], index: int) -> bool:
    """A quoted mail's header block begins at lines[index]: a From field with a Sent/Date field
    within a few lines, or with both a To and a Subject field; or (GMX, web.de) the Sent field
    first with the From field below it. One "From:" line of a player's own text is none."""
    marks = _marks()
    first = clean(lines[index])
    if not (marks.from_field.match(first) or marks.sent_field.match(first)):
        return False
    following = [clean(line) for line in lines[index + 1 : index + 1 + _BLOCK_REACH]]
    if marks.from_field.match(first):
        if _any(marks.sent_field, following):
            return True
        return _any(marks.to_field, following) and _any(marks.subject_field, following)
    return _any(marks.from_field, following)


def is_attribution(line: str) -> bool:
    """An attribution line above a quoted mail, in any of the known languages."""
    text = clean(line)
    dashed = _DASHED.match(text)
    if dashed:
        text = dashed.group(1)
    marks = _marks()
    colon = text.endswith((":", "："))
    # Every attribution ends in a colon, or is dashed, or ends in its verb; most lines are none.
    folded = text.casefold()
    if not colon and dashed is None and not folded.endswith(marks.verb_words):
        return False
    if colon and marks.attribution.match(text):
        return True
    if not any(word in folded for word in marks.verb_words):
        return False
    address = _ADDRESS.search(text) is not None
    dated = _DATED.search(text) is not None
    if marks.verb_at_end.search(text):
        return dated or address
    verb = marks.verb.search(text)
    if verb is None:
        return False
    if colon:
        # "<name> <addr> şunları yazdı (<date>):", "<name> kirjoitti 7.12.2026 klo 18.37:"
        return address or _TIME.search(text) is not None
    # Without a colon: between Zoho's dashes, or the verb ending the line.
    return dated and (dashed is not None or (address and verb.end() == len(text)))


def attribution_span(lines: list[str], index: int) -> int:
    """How many lines the attribution starting at lines[index] takes (0: it is not one). Gmail
    wraps a long attribution over two or three lines, so it is also tried joined with the next
    ones, when the first reads like the start of one (an opening word and a digit, a time, an
    address, an open "<")."""
    if is_attribution(lines[index]):
        return 1
    first = clean(lines[index])
    opening = _TIME.search(first) or "@" in first or first.endswith(("<", "("))
    if not (opening or _marks().opening.match(first)):
        return 0
    for span in (2, 3):
        if index + span > len(lines):
            break
        chunk = lines[index : index + span]
        joined = _joined(chunk)
        if "@" not in joined or not is_attribution(joined):
            continue
        # When the last line is an attribution by itself, the ones above join it only if they
        # read as cut off (a comma, an open "<", a time, an address), not as lines of orders.
        if is_attribution(chunk[-1]) and not all(_cut_off(clean(line)) for line in chunk[:-1]):
            return 0
        return span
    return 0


def _cut_off(text: str) -> bool:
    return text.endswith((",", "<", "(")) or "@" in text or _TIME.search(text) is not None


def is_client_footer(line: str) -> bool:
    """A line a mobile client appends on its own ("Sent from my iPhone", "iPhoneから送信")."""
    return _marks().footer.match(clean(line)) is not None


def is_disclaimer(line: str) -> bool:
    """The opening of a legal disclaimer, which companies' clients and gateways append."""
    return _marks().disclaimer.match(clean(line)) is not None


def without_subject_prefix(subject: str) -> str:
    """The subject without one reply or forward prefix ("AW:", "Re[2]:", "回复：") or one leading
    [tag]; the subject itself when it has none."""
    return _marks().subject_prefix.sub("", subject, count=1)


@functools.lru_cache(maxsize=4096)
def clean(line: str) -> str:
    """The line as it reads: without direction marks, no-break spaces or surrounding space."""
    return _INVISIBLE.sub("", line).replace("\xa0", " ").strip()


def _joined(lines: list[str]) -> str:
    """Wrapped lines joined back, with no space after an opening "<" or "(" (before an address)."""
    text = ""
    for line in lines:
        text += clean(line) if not text or text.endswith(("<", "(")) else " " + clean(line)
    return text


def _any(pattern: re.Pattern[str], lines: Iterable[str]) -> bool:
    return any(pattern.match(line) for line in lines)


@functools.cache
def _marks() -> _Marks:
    source = resources.files("adjudicator.mail").joinpath("quote_marks.toml")
    table: dict[str, dict[str, Any]] = tomllib.loads(source.read_text(encoding="utf-8"))

    def gather(key: str) -> list[str]:
        return [str(entry) for words in table.values() for entry in words.get(key, [])]

    verbs = _alternatives(_bounded(verb) for verb in gather("wrote"))
    separators = _alternatives(_spaced(phrase) for phrase in gather("separators"))
    return _Marks(
        from_field=_field(gather("from"), value=True),
        sent_field=_field(gather("sent")),
        to_field=_field(gather("to")),
        subject_field=_field(gather("subject")),
        attribution=_compile(rf"(?:{_alternatives(gather('attributions'))}|{_VERBLESS})$"),
        verb_at_end=_compile(rf"{verbs}\s?[:：]$"),
        verb=_compile(verbs),
        verb_words=tuple({verb.casefold() for verb in gather("wrote")}),
        opening=_compile(rf"{_alternatives(_spaced(word) for word in gather('openings'))}\s.*\d"),
        separator=_compile(
            rf"(?:[-=]{{2,}}\s*{separators}\s*[-=]{{2,}}|-*\s*{separators}\s?[:：])$"
        ),
        footer=_compile(rf"{_alternatives(gather('footers'))}$"),
        disclaimer=_compile(rf"\**\s*{_alternatives(gather('disclaimers'))}"),
        subject_prefix=_compile(
            rf"^\s*(?:{_alternatives(_spaced(word) for word in gather('reply_prefixes'))}"
            r"\s?(?:\[\d+\]|\^\d+|\(\d+\))?\s?[:：]|\[[^\]]*\])\s*"
        ),
        languages=tuple(table),
    )


def _field(names: list[str], *, value: bool = False) -> re.Pattern[str]:
    """A header field line: the name, bold or not ("*From:*"), a colon, a space before it as in
    French ("De :"), a full-width colon as in Chinese and Japanese ("发件人："), or in a table's
    cell as NetEase Mail Master writes it ("| From | ... |"); with ``value``, something after."""
    name = _alternatives(_spaced(name) for name in names)
    label = rf"(?:\*{{0,2}}{name}\s?\*{{0,2}}\s?[:：]\*{{0,2}}|\|\s*{name}\s*\|)"
    return _compile(label + (r"\s*\S" if value else ""))


def _bounded(word: str) -> str:
    """The word as a whole word where its script spaces words apart; Chinese, Japanese and Korean
    write the verb against the date or name before it ("10:12写道：")."""
    pattern = _spaced(word)
    if word[0].isalpha() and ord(word[0]) < 0x2E80:
        pattern = r"(?<!\w)" + pattern
    if word[-1].isalpha() and ord(word[-1]) < 0x2E80:
        pattern += r"(?!\w)"
    return pattern


def _spaced(words: str) -> str:
    return r"\s+".join(re.escape(word) for word in words.split())


def _alternatives(patterns: Iterable[str]) -> str:
    # Longest first, so that "Enviado el" is tried before "Enviado".
    unique = sorted(set(patterns), key=len, reverse=True)
    return "(?:" + "|".join(unique) + ")" if unique else "(?!)"


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)
