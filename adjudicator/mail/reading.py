"""Turn the raw bytes of an inbound mail into a MailIn value, or say why they are not a mail.

Whatever arrives was already stored raw, so reading must never raise: a message we cannot read
becomes an Unreadable with a reason a person can act on. Mail clients lie about charsets and
mangle structure; everything here falls back rather than fails: the header fields
(mail.header_fields), the body (mail.body) and the charsets (mail.charsets) alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import default as default_policy

from adjudicator import limits
from adjudicator.core.refusal import Refusal
from adjudicator.mail import header_fields
from adjudicator.mail.automatic import automatic_reason
from adjudicator.mail.body import body_text
from adjudicator.mail.header_bounds import short_headers
from adjudicator.mail.header_classes import HeaderClasses


@dataclass(frozen=True)
class MailIn:
    """An inbound mail reduced to what the pipeline needs; the raw bytes stay in storage."""

    message_id: str | None  # as in the header, with angle brackets
    sender: str  # bare address from From, lower-cased
    sender_name: str
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To: bare, lower-cased, unique
    subject: str  # RFC 2047 decoded
    text: str  # text/plain preferred; HTML converted to text when it is all there is
    in_reply_to: str | None
    references: tuple[str, ...]
    automatic: str | None  # why no person wrote it (auto-reply, bounce, list, loop); None: one did
    # Why From does not name exactly one mailbox in exactly one field (two fields, a list, a
    # group); None when it does. ``sender`` is then only the first mailbox named: the pipeline
    # acts on nothing in such a mail and only tells that address why.
    several_senders: str | None = None
    # The first language the Content-Language header names ("ru" of "ru-RU, en"), lower-cased;
    # "" when it names none. A guess at the reader's language, never a choice they made.
    language: str = ""


@dataclass(frozen=True)
class Unreadable:
    """Bytes that are not a mail we can act on, and why; ``bug`` when it is the parser that
    failed (a fix may read them later), not the bytes that are no mail (nothing ever will)."""

    reason: str
    bug: bool = False


_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
# The stdlib's default policy, each header parsed once (``header_classes``): reading a mail asks
# for its Content-Type and its addresses many times over.
POLICY = default_policy.clone(header_factory=HeaderClasses())
# Lines that may open a MIME boundary. The standard library's parser spends about a millisecond
# on each part and time growing with the square of the nesting depth, so a 300 KB mail of
# 5000 empty parts (or 800 nested ones) would hold a worker for seconds; past this many such
# lines the rest of the message is not read (the raw bytes stay stored whole).
MAX_BOUNDARY_LINES = 200
_BOUNDARY_LINE = re.compile(rb"^--", re.MULTILINE)
# A Content-Type header, in the message's head or a part's: every container the parser goes
# into (multipart/*, message/*) has one, so counting them bounds how deep it goes
# (``limits.MAIL_PARTS``), whatever the value says or however it is folded.
_CONTENT_TYPE = re.compile(rb"^content-type:", re.MULTILINE | re.IGNORECASE)


def read(raw: bytes) -> MailIn | Unreadable:
    """Parse raw message bytes; never raises, whatever the input."""
    try:
        return _read(raw)
    except Exception as exc:  # the promise is "never raise": any parser bug becomes a reason
        return Unreadable(f"could not parse the message ({type(exc).__name__})", bug=True)


def _read(raw: bytes) -> MailIn | Unreadable:
    if not isinstance(raw, bytes | bytearray):
        return Unreadable("not bytes")
    if not raw.strip():
        return Unreadable("empty message")
    header_block = re.split(rb"\r?\n\r?\n", bytes(raw), maxsplit=1)[0]
    if b"\x00" in header_block:
        return Unreadable("binary data, not a mail message")
    msg = BytesParser(policy=POLICY).parsebytes(bounded(short_headers(bytes(raw))))
    if not msg.keys():
        return Unreadable("no header block: not a mail message")
    senders = header_fields.sender(msg)
    if isinstance(senders, Refusal):
        return Unreadable(senders.reason)
    sender_name, sender = senders
    recipients: dict[str, None] = {}
    for name in _RECIPIENT_HEADERS:
        for _, address in header_fields.addresses(msg, name):
            recipients.setdefault(address)
    return MailIn(
        message_id=header_fields.first_id(header_fields.header(msg, "Message-ID")),
        sender=sender,
        sender_name=sender_name,
        recipients=tuple(recipients),
        subject=limits.bounded(header_fields.header(msg, "Subject") or "", limits.SUBJECT_LENGTH),
        text=body_text(msg),
        in_reply_to=header_fields.first_id(header_fields.header(msg, "In-Reply-To")),
        references=header_fields.message_ids(header_fields.header(msg, "References") or ""),
        automatic=automatic_reason(msg),
        several_senders=header_fields.several_senders(msg),
        language=header_fields.language(msg),
    )


def bounded(raw: bytes) -> bytes:
    """The message as far as the parser reads it: cut before its MAX_BOUNDARY_LINES+1-th line
    opening with "--" and before its ``limits.MAIL_PARTS``+1-th Content-Type header, if any.
    The standard library's parser recurses once for each part nested in another: a thousand
    nested message/rfc822 parts (30 KB, no boundary at all) reach Python's recursion limit."""
    for pattern, most in ((_BOUNDARY_LINE, MAX_BOUNDARY_LINES), (_CONTENT_TYPE, limits.MAIL_PARTS)):
        for count, found in enumerate(pattern.finditer(raw), start=1):
            if count > most:
                raw = raw[: found.start()]
                break
    return raw
