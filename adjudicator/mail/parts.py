"""A mail's pictures and attached files as MIME parts, each made once for every mail that
carries it: a turn's picture and its calendar entries are the same in every player's mail.

The stdlib would parse a part's headers and encode the picture again for every mail, and write
its lines one by one, some 5 ms a mail. A part is made here once, as the stdlib writes it, and
``build`` puts a ``StandIn`` in its place, replaced by the part once the mail is written.
"""

from __future__ import annotations

import binascii
import hashlib
import secrets
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from email.message import EmailMessage, MIMEPart

from adjudicator.core.recent import Recent
from adjudicator.mail.writing import BASE64_BYTES, POLICY, as_bytes


@dataclass(frozen=True)
class Picture:
    """A PNG shown in the HTML (as <img src="cid:content_id">) or attached to the text mail."""

    content_id: str  # without angle brackets
    png: bytes
    alt: str
    filename: str


@dataclass(frozen=True)
class Attachment:
    """A file attached to the mail, e.g. the next deadline as text/calendar."""

    filename: str
    maintype: str
    subtype: str
    data: bytes
    params: Mapping[str, str] | None = None


class StandIn:
    """A part's place in the message while the stdlib builds it: a part of one random line,
    then the part as made already, headers and body, put where that part was. The stand-in's
    line is 32 random characters: found once, where it was put."""

    def __init__(self, made: bytes) -> None:
        self.made = made
        self.token = f"pbem-picture-{secrets.token_hex(16)}"
        self.part = EmailMessage(policy=POLICY)
        self.part.set_payload(self.token)

    def replaced(self, raw: bytes) -> bytes:
        # A part without headers is written as an empty line and its body.
        placed = b"\r\n" + self.token.encode() + b"\r\n"
        assert raw.count(placed) == 1
        return raw.replace(placed, self.made)


# The latest parts made, as a worker mails one turn at a time. A picture's are keyed by its
# digest and headers: each player's mail of a turn carries the same picture. Keyed by the bytes
# themselves, so a picture is never mistaken for another.
PARTS_KEPT = 16
PICTURE_PARTS: Recent[tuple[bytes, str, str, str, str], bytes] = Recent(PARTS_KEPT)
ATTACHMENT_PARTS: Recent[Hashable, bytes] = Recent(PARTS_KEPT)


def picture_part(picture: Picture, disposition: str) -> bytes:
    """The picture's MIME part as the stdlib writes it, headers and base64 (lines of 76
    characters, CRLF), ending with the CRLF before the next boundary; made once per picture."""
    digest = hashlib.blake2b(picture.png, digest_size=16).digest()
    key = (digest, picture.content_id, picture.alt, picture.filename, disposition)
    return PICTURE_PARTS.get(key, lambda: _made_picture_part(picture, disposition))


def _made_picture_part(picture: Picture, disposition: str) -> bytes:
    # The headers as the stdlib writes them for the picture (they do not depend on its bytes),
    # then its base64 as the stdlib encodes it, 57 bytes a line of 76 characters
    # (BASE64_BYTES), without the stdlib's writing it out line by line.
    part = MIMEPart(policy=POLICY)
    part.set_content(
        b"",
        maintype="image",
        subtype="png",
        cid=f"<{picture.content_id}>" if disposition == "inline" else None,
        disposition=disposition,
        filename=picture.filename,
        headers=_description(picture),
    )
    png, step = picture.png, BASE64_BYTES
    lines = (binascii.b2a_base64(png[i : i + step]) for i in range(0, len(png), step))
    return as_bytes(part) + b"".join(lines).replace(b"\n", b"\r\n") + b"\r\n"


def _description(picture: Picture) -> list[str] | None:
    alt = " ".join(picture.alt.split())  # one line: a newline here would forge headers
    return [f"Content-Description: {alt}"] if alt else None


def attachment_part(attachment: Attachment) -> bytes:
    """The attachment's MIME part as the stdlib's add_attachment writes it (``_attach``),
    ending with the CRLF before the next boundary; made once per attachment."""
    params = tuple(sorted((attachment.params or {}).items()))
    key = (attachment.filename, attachment.maintype, attachment.subtype, attachment.data, params)
    return ATTACHMENT_PARTS.get(key, lambda: _made_attachment_part(attachment))


def _made_attachment_part(attachment: Attachment) -> bytes:
    part = MIMEPart(policy=POLICY)
    _attach(part, attachment)
    return as_bytes(part) + b"\r\n"


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
