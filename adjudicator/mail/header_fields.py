"""What an inbound mail's header fields say: who it is from, whom it is to, which mails it
answers, its language. Each falls back to the raw text where the parser chokes on a field, and
nothing read here can forge a header the service writes back (a CR, an LF, a control)."""

from __future__ import annotations

import re
from email import errors
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

from adjudicator import limits
from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.mail.charsets import clean

# An angle-addr, the mailbox a mail program shows and replies to in "Name <a@b>".
_ANGLE_ADDR = re.compile(r"<\s*([^<>\s@]+@[^<>\s@]+)\s*>")
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
# Control characters are never part of an address; a "bare address" here is also one that can be
# written back into a reply, so raw 8-bit bytes are decoded first (see charsets.clean), never
# passed on.
_ADDRESS = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+")


def language(msg: Message) -> str:
    """The mail's Content-Language, from its headers or else its first text part's."""
    found = header(msg, "Content-Language") or ""
    if not found and msg.is_multipart():
        part = next((p for p in msg.walk() if p.get_content_type() == "text/plain"), None)
        found = str(part.get("Content-Language") or "") if part is not None else ""
    first = _one_line(found).split(",")[0].strip().lower()
    return first if re.fullmatch(r"[a-z]{1,8}(-[a-z0-9]{1,8})*", first) else ""


def _one_line(text: str) -> str:
    """A header value as one line: a CR or LF that decoding brought in (an encoded word can
    hold any byte) must never reach a header the service writes, such as "Re: <subject>"."""
    return " ".join(text.split())


def sender(msg: Message) -> tuple[str, str] | Refusal:
    """(display name, address) of the From line; it must name one mailbox unambiguously.

    "a@b <c@d>" is not valid, and the standard library reads a@b where mail programs, and
    the provider that signed the mail, take c@d: the angle-addr, when there is exactly one, is
    the sender, so the From a provider vouched for is the one the service acts on."""
    senders = addresses(msg, "From")
    raw = next((str(v) for k, v in msg.raw_items() if k.lower() == "from"), "")
    try:
        defects = list(getattr(msg.get("From"), "defects", ()))
    except Exception:  # a From the parser cannot even build: read as the raw text below
        defects = [errors.InvalidHeaderDefect("unparsable")]
    if raw and any(isinstance(defect, errors.InvalidHeaderDefect) for defect in defects):
        angles = {a.lower() for a in _ANGLE_ADDR.findall(_decode_words(raw))}
        if len(angles) == 1:
            address = angles.pop()
            if _ADDRESS.fullmatch(address):
                return "", address
        if senders and (len(senders) != 1 or len(getaddresses([raw])) != 1):
            return Refusal("the From line does not name one clear address")
    if not senders:
        return Refusal("no From address")
    name, address = senders[0]
    return limits.name(name), address


def several_senders(msg: Message) -> str | None:
    """Why the From field does not name one mailbox, or None when it does (RFC 5322 allows one
    From field; a list of several authors, or a group, names no single person to act for).
    The reason is a sentence of core.said, made in English: the answer to the sender writes it
    anew in theirs."""
    fields = sum(1 for key, _ in msg.raw_items() if key.lower() == "from")
    with said.spoken(said.SOURCE):
        if fields > 1:
            return said.ngettext(
                "the mail has %(num)s From line", "the mail has %(num)s From lines", fields
            )
        try:
            found = msg.get("From")
            groups = [group for group in getattr(found, "groups", ()) if group.display_name]
            mailboxes = len(getattr(found, "addresses", ()))
        except Exception:  # a From the parser cannot build was judged by sender() already
            return None
        if groups:
            return said._("its From line names a group of addresses")
        if mailboxes > 1:
            return said.ngettext(
                "its From line names %(num)s address",
                "its From line names %(num)s addresses",
                mailboxes,
            )
    return None


def header(msg: Message, name: str) -> str | None:
    """The decoded header value; falls back to the raw text when the parser chokes on it."""
    try:
        value = msg.get(name)
        return None if value is None else clean(str(value))
    except Exception:
        raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), None)
        return None if raw is None else _decode_words(raw)


def addresses(msg: Message, name: str) -> list[tuple[str, str]]:
    """(display name, bare lower-cased address) for each real address in every `name` header."""
    pairs: list[tuple[str, str]] = []
    try:
        for value in msg.get_all(name) or []:
            parsed = getattr(value, "addresses", None)
            if parsed is not None:
                pairs.extend((a.display_name, a.addr_spec) for a in parsed)
            else:  # Delivered-To and X-Original-To are unstructured to the stdlib
                pairs.extend(getaddresses([str(value)]))
    except Exception:
        raws = [v for k, v in msg.raw_items() if k.lower() == name.lower()]
        pairs = [(_decode_words(n), a) for n, a in getaddresses(raws)]
    cleaned = [
        (clean(display).strip(), clean(address).strip().lower()) for display, address in pairs
    ]
    return [(display, address) for display, address in cleaned if _ADDRESS.fullmatch(address)]


def first_id(value: str | None) -> str | None:
    """The first Message-ID a field names (In-Reply-To, Message-ID), if it is one to keep."""
    if value is None:
        return None
    found = _MESSAGE_ID.search(value)
    if found:
        return next(iter(_usable_ids([found.group(0)])), None)
    bare = value.strip()
    # Some clients drop the angle brackets; an id is still an id.
    if bare and not any(c.isspace() for c in bare):
        return next(iter(_usable_ids([f"<{bare}>"])), None)
    return None


def message_ids(value: str) -> tuple[str, ...]:
    """The Message-IDs a References field names, those to keep."""
    return tuple(_usable_ids(_MESSAGE_ID.findall(value)))


def _usable_ids(ids: list[str]) -> list[str]:
    """The ids short enough to keep and write back (limits.MESSAGE_ID_LENGTH), at most the
    last 20 of them: a 50 KB id is no one's words for the dice, nor a header of the answer."""
    return [found for found in ids if len(found) <= limits.MESSAGE_ID_LENGTH][-20:]


def _decode_words(value: str) -> str:
    try:
        return clean(str(make_header(decode_header(value))))
    except Exception:
        return clean(value)
