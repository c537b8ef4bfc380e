"""How much of a mail's header block the reader parses. The standard library's header parser
takes time growing with the square of a field's length, so every field is shortened before it
is parsed (``limits.HEADER_FIELD_READ``; a From line keeps its one address) and the header block
as a whole is read to ``limits.HEADER_BLOCK_BYTES``. The stored message stays whole."""

from __future__ import annotations

import re
from collections.abc import Callable
from email.utils import formataddr
from itertools import pairwise

from adjudicator import limits

MAX_FIELD_BYTES = limits.HEADER_FIELD_BYTES
MAX_HEADER_BYTES = limits.HEADER_BLOCK_BYTES
_FIELD_START = re.compile(rb"^(?![ \t])", re.MULTILINE)
_HEADER_END = re.compile(rb"\r?\n\r?\n")
# An angle-addr, the mailbox a mail program shows and replies to in "Name <a@b>".
_ANGLE_ADDR = re.compile(r"<\s*([^<>\s@]+@[^<>\s@]+)\s*>")


def short_headers(raw: bytes) -> bytes:
    """The message with each header field cut to MAX_FIELD_BYTES and the header block to
    MAX_HEADER_BYTES, the body as it is."""
    end = _HEADER_END.search(raw)
    split = end.start() if end else len(raw)
    head, rest = raw[:split], raw[split:]
    if len(head) <= MAX_FIELD_BYTES:
        return raw
    head = head[:MAX_HEADER_BYTES]
    starts = [found.start() for found in _FIELD_START.finditer(head)] + [len(head)]
    fields = [head[a:b] for a, b in pairwise(starts) if a < b]
    cut = [field[:MAX_FIELD_BYTES].rstrip(b"\r\n") + b"\r\n" for field in fields]
    return b"".join(cut).rstrip(b"\r\n") + rest


# A header field longer than limits.HEADER_FIELD_READ is shortened before it is parsed: a From
# line keeps its one angle-addr and the start of its name; any other field keeps its start.
FIELD_LENGTH = limits.HEADER_FIELD_READ
_FIELD_BREAK = re.compile(rb"\n(?![ \t])")
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


def short_fields(raw: bytes, decode: Callable[[str], str]) -> bytes:
    """``raw`` with every header field past FIELD_LENGTH bytes shortened (``_short_field``); a
    From name's encoded words read with ``decode``."""
    blank = _BLANK_LINE.search(raw)
    head, rest = (raw[: blank.start()], raw[blank.start() :]) if blank else (raw, b"")
    if len(head) <= FIELD_LENGTH:
        return raw
    return b"\n".join(_short_field(field, decode) for field in _FIELD_BREAK.split(head)) + rest


def _short_field(field: bytes, decode: Callable[[str], str]) -> bytes:
    if len(field) <= FIELD_LENGTH:
        return field
    end = b"\r" if field.endswith(b"\r") else b""
    name, _, value = field.partition(b":")
    if name.strip().lower() != b"from":
        kept = field[:FIELD_LENGTH]  # to its last fold, if it has one
        return kept[: kept.rfind(b"\n")].rstrip(b"\r") + end if b"\n" in kept else kept + end
    text = value.decode("utf-8", "surrogateescape")
    angles = set(_ANGLE_ADDR.findall(text))
    if len(angles) != 1:
        return b"From: " + end  # no single mailbox: read as no From address
    given = decode(text[: min(text.rfind("<"), FIELD_LENGTH)]) + limits.CUT
    shown = formataddr((limits.name(given), angles.pop()))
    return b"From: " + shown.encode("utf-8", "surrogateescape") + end
