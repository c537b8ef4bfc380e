"""How much of a mail's header block the reader parses. The standard library's header parser
takes time growing with the square of a field's length, so the header block is read to
``limits.HEADER_BLOCK_BYTES`` and every field past ``limits.HEADER_FIELD_READ`` is shortened
before it is parsed (a From line keeps its one address). The stored message stays whole."""

from __future__ import annotations

import contextlib
import re
from email.header import decode_header, make_header
from email.utils import formataddr

from adjudicator import limits

FIELD_LENGTH = limits.HEADER_FIELD_READ
_FIELD_BREAK = re.compile(rb"\n(?![ \t])")
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
# An angle-addr, the mailbox a mail program shows and replies to in "Name <a@b>".
_ANGLE_ADDR = re.compile(r"<\s*([^<>\s@]+@[^<>\s@]+)\s*>")


def short_headers(raw: bytes) -> bytes:
    """``raw`` with every header field past FIELD_LENGTH bytes shortened (``_short_field``),
    then its header block cut to HEADER_BLOCK_BYTES, the body as it is. Fields first: a From
    line after a megabyte of name keeps its address."""
    blank = _BLANK_LINE.search(raw)
    head, rest = (raw[: blank.start()], raw[blank.start() :]) if blank else (raw, b"")
    if len(head) <= FIELD_LENGTH:
        return raw
    short = b"\n".join(_short_field(field) for field in _FIELD_BREAK.split(head))
    return short[: limits.HEADER_BLOCK_BYTES] + rest


def _short_field(field: bytes) -> bytes:
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
    given = _words(text[: min(text.rfind("<"), FIELD_LENGTH)]) + limits.CUT
    shown = formataddr((limits.name(given), angles.pop()))
    return b"From: " + shown.encode("utf-8", "surrogateescape") + end


def _words(value: str) -> str:
    """A name's encoded words decoded; a byte no charset reads becomes "?" (the reader decodes
    the name again from what this writes)."""
    with contextlib.suppress(Exception):  # a broken encoded word: the text as it stands
        value = str(make_header(decode_header(value)))
    return value.encode("utf-8", "replace").decode("utf-8")
