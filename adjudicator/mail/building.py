"""Build outbound MIME messages: text with an optional HTML alternative and inline map pictures.

The shape follows what mail clients render best: multipart/alternative with text/plain first (the
fallback) and then a multipart/related holding the HTML and the PNGs it shows via cid: links.
Every message is marked as machine-sent so players' auto-responders leave it alone.
"""

from __future__ import annotations

import binascii
import hashlib
import io
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import generator, headerregistry, policy, quoprimime
from email.header import Header
from email.message import EmailMessage, Message, MIMEPart
from email.utils import format_datetime
from typing import Any


@dataclass(frozen=True)
class Picture:
    """A PNG shown in the HTML (as <img src="cid:content_id">) or attached to the text mail."""

    content_id: str  # without angle brackets
    png: bytes
    alt: str
    filename: str


# BaseHeader as well, as the registry makes it (typeshed types their max_count apart).
class _Subject(headerregistry.UniqueUnstructuredHeader, headerregistry.BaseHeader):  # type: ignore[misc]
    """A Subject in words other than ASCII, folded as encoded words that each hold their spaces:
    the stdlib's folder (Python 3.11) leaves the space between two words outside them, where a
    reader drops it ("приказы получены" read as "приказыполучены")."""

    def fold(self, *, policy: Any) -> str:
        stdlib = str(super().fold(policy=policy))
        if str(self).isascii() or stdlib.count(policy.linesep) == 1:  # one line: nothing lost
            return stdlib
        folded = Header(str(self), "utf-8", header_name=self.name).encode(linesep=policy.linesep)
        return f"{self.name}: {folded}{policy.linesep}"


class _HeaderClasses(headerregistry.HeaderRegistry):
    """The stdlib's header classes, each made once: its registry makes a new class every time a
    header is set or counted, some 60 us each, a good quarter of building a mail."""

    def __init__(self) -> None:
        super().__init__()
        self.map_to_type("subject", _Subject)
        self._made: dict[str, type[headerregistry.BaseHeader]] = {}
        self._parsed: dict[tuple[str, str], headerregistry.BaseHeader] = {}

    def __getitem__(self, name: str) -> type[headerregistry.BaseHeader]:
        key = name.lower()
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = super().__getitem__(name)
        return found

    def __call__(self, name: str, value: Any) -> headerregistry.BaseHeader:
        """The header parsed once for the same name and value: every mail of a turn sets the
        same From, List-Id, Content-Type and the like, and parsing them (an address above all)
        is a good part of building a mail. A parsed header is never changed: setting a header
        or a parameter makes a new one."""
        if type(value) is not str:
            return super().__call__(name, value)
        key = (name, value)
        found = self._parsed.get(key)
        if found is None:
            if len(self._parsed) >= _HEADERS_KEPT:
                self._parsed.clear()  # most are per mail (To, Date, Message-ID): start over
            found = self._parsed[key] = super().__call__(name, value)
        return found


# Parsed headers kept, a few mails' worth.
_HEADERS_KEPT = 512

# The SMTP policy (CRLF line ends), but bodies never 8bit: not every relay speaks 8BITMIME, so
# non-ASCII text goes out quoted-printable or base64, whichever the stdlib finds shorter.
_POLICY = policy.SMTP.clone(cte_type="7bit", header_factory=_HeaderClasses())
# Bytes a base64 line holds, as the stdlib encodes a part's bytes (contentmanager).
_BASE64_BYTES = (_POLICY.max_line_length or 78) // 4 * 3


@dataclass(frozen=True)
class Attachment:
    """A file attached to the mail, e.g. the next deadline as text/calendar."""

    filename: str
    maintype: str
    subtype: str
    data: bytes
    params: Mapping[str, str] | None = None


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
    msg = EmailMessage(policy=_POLICY)
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
    stand_ins = [_StandIn(picture_part(picture, disposition)) for picture in pictures]
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
        stand_in = _StandIn(attachment_part(attachment))
        msg.attach(stand_in.part)
        stand_ins.append(stand_in)
    for part in msg.walk():
        if part is not msg:
            del part["MIME-Version"]  # the stdlib repeats it on every part it creates
    raw = _written(msg, [attachment.data for attachment in attachments])
    for stand_in in stand_ins:
        raw = stand_in.replaced(raw)
    return raw


class _StandIn:
    """A part's place in the message while the stdlib builds it: a part of one random line,
    then the part as made already, headers and body, put where that part was. The stdlib would
    parse the part's headers and encode the picture again for every mail, and write its lines
    one by one, some 5 ms a mail; a turn's picture and its calendar entries are the same in
    every player's mail, so their parts are made once (``picture_part``, ``attachment_part``).
    The stand-in's line is 32 random characters: found once, where it was put."""

    def __init__(self, made: bytes) -> None:
        self.made = made
        self.token = f"pbem-picture-{secrets.token_hex(16)}"
        self.part = EmailMessage(policy=_POLICY)
        self.part.set_payload(self.token)

    def replaced(self, raw: bytes) -> bytes:
        # A part without headers is written as an empty line and its body.
        placed = b"\r\n" + self.token.encode() + b"\r\n"
        assert raw.count(placed) == 1
        return raw.replace(placed, self.made)


# The latest picture parts, by their picture's digest and headers: each player's mail of a turn
# carries the same picture, whose part is made once. Keyed by the bytes themselves, so a
# picture is never mistaken for another; a few are kept, as a worker mails one turn at a time.
_PARTS: OrderedDict[tuple[bytes, str, str, str, str], bytes] = OrderedDict()
_PARTS_KEPT = 16


def picture_part(picture: Picture, disposition: str) -> bytes:
    """The picture's MIME part as the stdlib writes it, headers and base64 (lines of 76
    characters, CRLF), ending with the CRLF before the next boundary; made once per picture."""
    digest = hashlib.blake2b(picture.png, digest_size=16).digest()
    key = (digest, picture.content_id, picture.alt, picture.filename, disposition)
    return _latest(_PARTS, key, lambda: _made_picture_part(picture, disposition))


def _made_picture_part(picture: Picture, disposition: str) -> bytes:
    # The headers as the stdlib writes them for the picture (they do not depend on its bytes),
    # then its base64 as the stdlib encodes it, 57 bytes a line of 76 characters
    # (_BASE64_BYTES), without the stdlib's writing it out line by line.
    part = MIMEPart(policy=_POLICY)
    part.set_content(
        b"",
        maintype="image",
        subtype="png",
        cid=f"<{picture.content_id}>" if disposition == "inline" else None,
        disposition=disposition,
        filename=picture.filename,
        headers=_description(picture),
    )
    png, step = picture.png, _BASE64_BYTES
    lines = (binascii.b2a_base64(png[i : i + step]) for i in range(0, len(png), step))
    return _as_bytes(part) + b"".join(lines).replace(b"\n", b"\r\n") + b"\r\n"


def _latest(kept: OrderedDict[Any, bytes], key: Any, make: Callable[[], bytes]) -> bytes:
    """What ``kept`` holds for ``key``, made when it holds nothing; the latest _PARTS_KEPT are
    kept, as a worker mails one turn at a time."""
    found = kept.get(key)
    if found is None:
        found = kept[key] = make()
        if len(kept) > _PARTS_KEPT:
            kept.popitem(last=False)
    else:
        kept.move_to_end(key)
    return found


_LONGEST_LINE = 998


class _Writer(generator.BytesGenerator):
    """The stdlib's writer of a message as bytes, but for a body's lines, their ends made the
    policy's at once, where the stdlib's writes each line and each line end one by one."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            assert self.policy is not None  # set for the whole of flatten()
            self.write(_LINE_ENDS.sub(self.policy.linesep, lines))


# Line ends as the stdlib's generator finds them (email.generator.NLCRE).
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def _as_bytes(msg: Message) -> bytes:
    """``msg.as_bytes()``, the same bytes, written by ``_Writer``."""
    out = io.BytesIO()
    _Writer(out, mangle_from_=False, policy=msg.policy).flatten(msg, unixfrom=False)
    return out.getvalue()


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


def _written(msg: EmailMessage, others: Sequence[bytes]) -> bytes:
    """The message as bytes with the boundaries ``_short_boundaries`` gives it. Each multipart
    is written with a mark of a boundary's length, then the marks are replaced by random
    boundaries in the bytes: setting a random boundary parses its part's Content-Type again,
    a mail's header costliest to parse, three times a mail, while a mark's header is the same
    in every mail and parsed once (``_HeaderClasses``). Where a mark is found anywhere but in
    its boundary lines and its header, the boundaries are set as ``_short_boundaries`` does."""
    bodies = _bodies(msg, others)
    multiparts = [part for part in msg.walk() if part.is_multipart()]
    marks = [f"=_{index:016x}" for index in range(len(multiparts))]
    if not any(mark in body for body in bodies for mark in marks):
        for part, mark in zip(multiparts, marks, strict=True):
            part.set_boundary(mark)
        raw = _as_bytes(msg)
        # Once in the Content-Type, once before each of its parts, once after the last.
        lines = [len(part.get_payload()) + 2 for part in multiparts]
        if all(raw.count(mark.encode()) == n for mark, n in zip(marks, lines, strict=True)):
            chosen: set[str] = set()
            for mark in marks:
                boundary = _boundary(bodies)
                while boundary in chosen or boundary in marks:
                    boundary = _boundary(bodies)
                chosen.add(boundary)
                raw = raw.replace(mark.encode(), boundary.encode())
            return raw
    _short_boundaries(msg, others)
    return _as_bytes(msg)


def _bodies(msg: EmailMessage, others: Sequence[bytes]) -> list[str]:
    bodies = [str(part.get_payload()) for part in msg.walk() if not part.is_multipart()]
    return bodies + [other.decode("utf-8", "replace") for other in others]


def _boundary(bodies: Sequence[str]) -> str:
    """A random boundary of 18 characters found in none of the ``bodies``."""
    boundary = f"=_{secrets.token_hex(8)}"
    while any(boundary in body for body in bodies):
        boundary = f"=_{secrets.token_hex(8)}"
    return boundary


def _short_boundaries(msg: EmailMessage, others: Sequence[bytes] = ()) -> None:
    """Boundaries of 18 characters instead of the stdlib's 35-odd, each written two to five
    times per multipart. "=_" never starts a line of base64 or quoted-printable, and a random
    tail is checked against every body sent as it is, and the ``others`` put in place of a
    stand-in (an attachment's data: a picture's base64 never holds "=_")."""
    bodies = _bodies(msg, others)
    for part in msg.walk():
        if part.is_multipart():
            part.set_boundary(_boundary(bodies))


# The latest attachment parts: every player's mail of a turn carries the same calendar entries.
_ATTACHED: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()


def attachment_part(attachment: Attachment) -> bytes:
    """The attachment's MIME part as the stdlib's add_attachment writes it (``_attach``),
    ending with the CRLF before the next boundary; made once per attachment."""
    params = tuple(sorted((attachment.params or {}).items()))
    key = (attachment.filename, attachment.maintype, attachment.subtype, attachment.data, params)
    return _latest(_ATTACHED, key, lambda: _made_attachment_part(attachment))


def _made_attachment_part(attachment: Attachment) -> bytes:
    part = MIMEPart(policy=_POLICY)
    _attach(part, attachment)
    return _as_bytes(part) + b"\r\n"


def _attach(part: MIMEPart, attachment: Attachment) -> None:
    """Text in UTF-8 with CRLF line ends (a calendar entry) goes as text, so the stdlib sends it
    as it is when it is ASCII in short lines, as an iCalendar file is, rather than in base64, a
    third longer. Any other data goes as bytes in base64, and so does text with a lone CR or LF,
    which the stdlib would rewrite as CRLF."""
    params = dict(attachment.params or {})
    data = attachment.data
    if attachment.maintype == "text":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and data.splitlines() == data.removesuffix(b"\r\n").split(b"\r\n"):
            part.set_content(
                text,
                subtype=attachment.subtype,
                charset="utf-8",
                filename=attachment.filename,
                params=params,
            )
            return
    part.set_content(
        attachment.data,
        maintype=attachment.maintype,
        subtype=attachment.subtype,
        filename=attachment.filename,
        params=params,
    )


def _description(picture: Picture) -> list[str] | None:
    alt = " ".join(picture.alt.split())  # one line: a newline here would forge headers
    return [f"Content-Description: {alt}"] if alt else None


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
