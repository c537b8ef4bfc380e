"""The picture part built once and put in place: the mail is the very one the stdlib would
build picture by picture, and a picture is encoded once however many mails carry it."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from email import message_from_bytes, policy, quoprimime
from email.message import EmailMessage

import pytest

from adjudicator.mail import boundaries, building, parts, writing
from adjudicator.mail.building import Attachment, Headers, Picture, Thread, build

WHEN = datetime(2024, 3, 4, 10, 12, tzinfo=UTC)
# Bytes of every value, and more than one base64 line's worth, ending mid-line.
MAP = Picture("game1.turn3@pbem.example", bytes(range(256)) * 97 + b"end", "Map of Madrid", "m.png")
LEGEND = Picture("legend@pbem.example", b"\x89PNG\r\n\x1a\nlegend", "", "legend.png")
CALENDAR = Attachment(
    "deadline.ics", "text", "calendar", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", {"method": "X"}
)
# Calendar entries and a file that goes as bytes: each part, too, made once and put in place.
CANCEL = Attachment("cancelled.ics", "text", "calendar", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR", {})
FILE = Attachment("log.bin", "application", "octet-stream", bytes(range(256)) * 3)
_POLICY = policy.SMTP.clone(cte_type="7bit")


def stdlib_build(
    html: str | None, pictures: Sequence[Picture], attachments: Sequence[Attachment] = (CALENDAR,)
) -> bytes:
    """The mail as the stdlib alone builds it, each picture attached as bytes: what ``build``
    made before it put pre-built picture parts in place."""
    msg = EmailMessage(policy=_POLICY)
    for name, value in (
        ("From", "judge@pbem.example"),
        ("To", "gorgo@example.com"),
        ("Subject", "turn 3"),
        ("Date", "Mon, 04 Mar 2024 10:12:00 +0000"),
        ("Message-ID", "<m.3@pbem.example>"),
        ("Auto-Submitted", "auto-generated"),
        ("X-Auto-Response-Suppress", "All"),
        ("MIME-Version", "1.0"),
    ):
        msg[name] = value
    msg.set_content("Turn 3\n", subtype="plain", charset="utf-8")
    target = msg
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8", cte="7bit")
        found = msg.get_body(preferencelist=("html",))
        assert isinstance(found, EmailMessage)
        target = found
    for picture in pictures:
        add = target.add_related if html is not None else target.add_attachment
        extra = {"cid": f"<{picture.content_id}>", "disposition": "inline"} if html else {}
        description = [f"Content-Description: {picture.alt}"] if picture.alt else None
        add(picture.png, "image", "png", filename=picture.filename, headers=description, **extra)
    for attachment in attachments:
        if attachment.maintype == "text":
            msg.add_attachment(
                attachment.data.decode(),
                subtype=attachment.subtype,
                filename=attachment.filename,
                params=dict(attachment.params or {}),
            )
        else:
            msg.add_attachment(
                attachment.data,
                attachment.maintype,
                attachment.subtype,
                filename=attachment.filename,
            )
    for part in msg.walk():
        if part is not msg:
            del part["MIME-Version"]
    boundaries.short_boundaries(msg)  # the boundaries' lengths decide where headers fold
    return msg.as_bytes()


def ours(
    html: str | None, pictures: Sequence[Picture], attachments: Sequence[Attachment] = (CALENDAR,)
) -> bytes:
    return build(
        Headers("judge@pbem.example", "gorgo@example.com", "turn 3", date=WHEN),
        Thread("<m.3@pbem.example>"),
        text="Turn 3\n",
        html=html,
        pictures=pictures,
        attachments=attachments,
    )


def same_boundaries(raw: bytes) -> bytes:
    """Each boundary named by the order it first appears in, so two builds compare."""
    names: dict[bytes, bytes] = {}
    found = re.findall(rb'boundary="([^"]+)"', raw)
    for boundary in found:
        names.setdefault(boundary, b"boundary-%d" % len(names))
    for boundary, name in names.items():
        raw = raw.replace(boundary, name)
    return raw


@pytest.mark.parametrize("html", ["<p>Turn 3</p>", None], ids=["html", "text-only"])
@pytest.mark.parametrize("pictures", [(MAP,), (MAP, LEGEND), ()], ids=["one", "two", "none"])
def test_the_mail_is_the_stdlibs_own_byte_for_byte(
    html: str | None, pictures: Sequence[Picture]
) -> None:
    assert same_boundaries(ours(html, pictures)) == same_boundaries(stdlib_build(html, pictures))


@pytest.mark.parametrize("html", ["<p>Turn 3</p>", None], ids=["html", "text-only"])
@pytest.mark.parametrize(
    "attachments", [(CALENDAR, CANCEL), (FILE,), ()], ids=["entries", "bytes", "none"]
)
def test_attachments_are_the_stdlibs_own_byte_for_byte(
    html: str | None, attachments: Sequence[Attachment]
) -> None:
    for _ in range(2):  # made, then put in place again from what was made
        built = ours(html, (MAP,), attachments)
        assert same_boundaries(built) == same_boundaries(stdlib_build(html, (MAP,), attachments))


def test_a_picture_is_encoded_once_for_every_mail_that_carries_it() -> None:
    first = parts.picture_part(MAP, "inline")
    for _ in range(3):
        ours("<p>Turn 3</p>", (MAP,))
    assert parts.picture_part(MAP, "inline") is first
    # Kept by the picture's bytes: another picture under the same Content-ID is its own part.
    other = Picture(MAP.content_id, MAP.png + b"!", MAP.alt, MAP.filename)
    assert parts.picture_part(other, "inline") != first
    key = (hashlib.blake2b(MAP.png, digest_size=16).digest(), MAP.content_id)
    assert any(cached[:2] == key for cached in parts.PICTURE_PARTS)


def test_quoted_printable_length_is_the_stdlibs() -> None:
    samples = [bytes(range(256)), "Alcalá · Puerta del Sol = 14".encode(), b"", b"plain text"]
    for data in samples:
        assert building.quoted_length(data) == quoprimime.body_length(data)


def test_a_body_holding_a_boundary_mark_gets_boundaries_set_the_stdlibs_way() -> None:
    """The marks written in place of boundaries are replaced in the bytes only where nothing
    else holds them: a text that does is sent as it is, under boundaries of its own."""
    text = "=_0000000000000000 and =_0000000000000001\n"
    raw = build(
        Headers("judge@pbem.example", "gorgo@example.com", "turn 3", date=WHEN),
        Thread("<m.3@pbem.example>"),
        text=text,
        html="<p>Turn 3</p>",
        pictures=(MAP,),
        attachments=(CALENDAR,),
    )
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    body = parsed.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content().replace("\r\n", "\n") == text
    boundaries = re.findall(rb'boundary="([^"]+)"', raw)
    assert len(boundaries) == 3 and not any(b"=_000000000000000" in found for found in boundaries)


@pytest.mark.parametrize("payload", ["a\r\nb\rc\nd", "a\n\n", "", "\r\r\n\n", "end\r\n"])
def test_a_message_is_written_as_the_stdlib_writes_it(payload: str) -> None:
    """Bodies' line ends made the policy's at once: the very bytes of ``as_bytes``."""
    msg = EmailMessage(policy=writing.POLICY)
    msg["Subject"] = "turn 3"
    msg.set_content("Turn 3\n")
    msg.add_attachment("x", filename="x.txt")
    for part in msg.iter_attachments():
        part.set_payload(payload)
    assert writing.as_bytes(msg) == msg.as_bytes()
