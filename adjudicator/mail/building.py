"""Build outbound MIME messages: text with an optional HTML alternative and inline map pictures.

The shape follows what mail clients render best: multipart/alternative with text/plain first (the
fallback) and then a multipart/related holding the HTML and the PNGs it shows via cid: links.
Every message is marked as machine-sent so players' auto-responders leave it alone.

A turn's picture and calendar entries are made as parts once for all its mails (mail.parts), the
boundaries are short and random (mail.boundaries), and the bytes are written as the stdlib
writes them, only sooner (mail.writing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import quoprimime
from email.message import EmailMessage
from email.utils import format_datetime

from adjudicator.mail.boundaries import written
from adjudicator.mail.parts import Attachment, Picture, StandIn, attachment_part, picture_part
from adjudicator.mail.writing import POLICY

# The pictures and attachments a mail carries are built in mail.parts; callers name them here.
__all__ = [
    "Attachment",
    "Headers",
    "Picture",
    "Thread",
    "build",
    "mint_message_id",
    "quoted_length",
]


@dataclass(frozen=True)
class Headers:
    """Who the mail is from and to, what it is about, and any headers of the caller's own
    (``others``, e.g. List-Id); a naive date is taken as UTC, none as now."""

    sender: str
    to: str
    subject: str
    reply_to: str | None = None
    date: datetime | None = None
    others: Mapping[str, str] = field(default_factory=dict)  # read only, never mutated


@dataclass(frozen=True)
class Thread:
    """Where the mail sits in its conversation: its own Message-ID, the one it answers, and the
    ones before it."""

    message_id: str
    in_reply_to: str | None = None
    references: Sequence[str] = ()


# Headers build() sets itself; letting ``Headers.others`` override them would break threading or
# loop protection silently.
_RESERVED = frozenset(
    name.lower()
    for name in (
        "From",
        "To",
        "Reply-To",
        "Subject",
        "Date",
        "Message-ID",
        "In-Reply-To",
        "References",
        "MIME-Version",
        "Content-Type",
        "Content-Transfer-Encoding",
        "Auto-Submitted",
        "X-Auto-Response-Suppress",
        # The envelope sender, a per-mail bounce address, is set at delivery; the final MTA
        # writes it here.
        "Return-Path",
    )
)
_SAFE_PART = re.compile(r"[A-Za-z0-9_-]")
_DOMAIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?")


def build(
    headers: Headers,
    thread: Thread,
    *,
    text: str,
    html: str | None,
    pictures: Sequence[Picture] = (),
    attachments: Sequence[Attachment] = (),
) -> bytes:
    """The message as bytes ready for SMTP (CRLF)."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = headers.sender
    msg["To"] = headers.to
    if headers.reply_to:
        msg["Reply-To"] = headers.reply_to
    msg["Subject"] = headers.subject
    when = headers.date or datetime.now(UTC)
    msg["Date"] = format_datetime(when if when.tzinfo else when.replace(tzinfo=UTC))
    msg["Message-ID"] = thread.message_id
    if thread.in_reply_to:
        msg["In-Reply-To"] = thread.in_reply_to
    if thread.references:
        msg["References"] = " ".join(thread.references)
    # RFC 3834: tells auto-responders not to answer; Exchange only listens to its own header.
    # Precedence: bulk is deliberately not set, as some servers then file us as list mail.
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    for name, value in headers.others.items():
        if name.lower() in _RESERVED:
            raise ValueError(f"header {name} is set by build() itself")
        msg[name] = value
    msg["MIME-Version"] = "1.0"

    msg.set_content(text, subtype="plain", charset="utf-8")
    disposition = "inline" if html is not None else "attachment"
    stand_ins = [StandIn(picture_part(picture, disposition)) for picture in pictures]
    if html is None:
        if stand_ins:
            msg.make_mixed()
        for stand_in in stand_ins:
            msg.attach(stand_in.part)
    else:
        html, cte = _plain_html(html)
        msg.add_alternative(html, subtype="html", charset="utf-8", cte=cte)
        html_part = msg.get_body(preferencelist=("html",))
        assert html_part is not None  # just added
        if stand_ins:
            # The text/html part becomes multipart/related with the HTML first.
            html_part.make_related()
        for stand_in in stand_ins:
            html_part.attach(stand_in.part)
    for attachment in attachments:
        # On a multipart/alternative this wraps it in multipart/mixed, as mail clients expect,
        # as the stdlib's add_attachment does.
        if msg.get_content_maintype() != "multipart" or msg.get_content_subtype() != "mixed":
            msg.make_mixed()
        stand_in = StandIn(attachment_part(attachment))
        msg.attach(stand_in.part)
        stand_ins.append(stand_in)
    for part in msg.walk():
        if part is not msg:
            del part["MIME-Version"]  # the stdlib repeats it on every part it creates
    raw = written(msg, [attachment.data for attachment in attachments])
    for stand_in in stand_ins:
        raw = stand_in.replaced(raw)
    return raw


_LONGEST_LINE = 998


def _plain_html(html: str) -> tuple[str, str | None]:
    """The HTML to send and its transfer encoding: "7bit", so it travels as it is, when it is
    ASCII in lines that fit a mail line, or becomes so with its few other characters written as
    character references (the same page to a browser: the templates have no <style> or
    <script>, where references are not read), and that is shorter than quoted-printable, which
    writes each "=" of its attributes as "=3D" and breaks its lines; otherwise the HTML as it is
    and the stdlib's own choice (None)."""
    ascii_html = html.encode("ascii", "xmlcharrefreplace").decode("ascii")
    if any(len(line) > _LONGEST_LINE for line in ascii_html.encode().splitlines()):
        return html, None  # a line too long for a mail line: the stdlib's choice
    if ascii_html != html and len(ascii_html) >= quoted_length(html.encode()):
        return html, None  # many characters beyond ASCII: shorter in quoted-printable
    return ascii_html, "7bit"


# The bytes quoted-printable writes as they are in a body; it writes any other as three.
_AS_THEY_ARE = bytes(octet for octet in range(256) if quoprimime.body_length(bytes([octet])) == 1)


def quoted_length(data: bytes) -> int:
    """``quoprimime.body_length(data)``, counted in C rather than byte by byte in Python."""
    return len(data) + 2 * len(data.translate(None, _AS_THEY_ARE))


def mint_message_id(parts: Sequence[str | int], domain: str) -> str:
    """A deterministic Message-ID "<pbem.part1.part2...@domain>", the same for the same parts.

    Characters outside [A-Za-z0-9_-] are written as =XX (utf-8 bytes), so different parts never
    collapse into the same id and the result is a valid dot-atom.
    """
    if not _DOMAIN.fullmatch(domain):
        raise ValueError(f"not a domain name: {domain!r}")
    atoms = ["pbem"]
    for part in parts:
        piece = str(part)
        if not piece:
            raise ValueError("Message-ID parts must not be empty")
        atoms.append("".join(_escape(char) for char in piece))
    return f"<{'.'.join(atoms)}@{domain}>"


def _escape(char: str) -> str:
    if _SAFE_PART.fullmatch(char):
        return char
    return "".join(f"={byte:02X}" for byte in char.encode("utf-8"))
