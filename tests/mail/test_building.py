"""Outbound MIME: the built bytes parsed back with the stdlib, as a mail client would."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage, MIMEPart
from email.utils import parsedate_to_datetime

import pytest

from adjudicator.mail.building import Attachment, Headers, Picture, Thread, build, mint_message_id
from adjudicator.mail.reading import MailIn, read

MAP = Picture(
    content_id="map.12.3@pbem.example",
    png=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4,
    alt="Map of Greece, spring 480 BC",
    filename="game-12-turn-3.png",
)
LEGEND = Picture("legend.12.3@pbem.example", b"\x89PNG\r\n\x1a\nlegend", "Legend", "legend.png")
WHEN = datetime(2024, 3, 4, 10, 12, tzinfo=UTC)


def make(
    *,
    html: str | None = '<p>Turn 3</p><img src="cid:map.12.3@pbem.example" alt="map">',
    pictures: Sequence[Picture] = (MAP,),
    text: str = "Turn 3\nA Sparta hold\n",
    subject: str = "[pbem] Game 12: turn 3",
    to: str = "Gorgo <gorgo@example.com>",
    headers: dict[str, str] | None = None,
    date: datetime | None = WHEN,
) -> bytes:
    return build(
        Headers(
            sender="PBEM Judge <judge@pbem.example>",
            to=to,
            subject=subject,
            reply_to="orders+12-spartans-1-942c723b85fb6772@pbem.example",
            date=date,
            others=headers or {},
        ),
        Thread(
            message_id="<pbem.12.3.spartans.turn@pbem.example>",
            in_reply_to="<pbem.12.2.spartans.turn@pbem.example>",
            references=[
                "<pbem.12.1.spartans.turn@pbem.example>",
                "<pbem.12.2.spartans.turn@pbem.example>",
            ],
        ),
        text=text,
        html=html,
        pictures=pictures,
    )


def parse(raw: bytes) -> EmailMessage:
    msg = message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(part: MIMEPart) -> str:
    content = part.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


def test_structure_with_html_and_pictures() -> None:
    msg = parse(make(pictures=(MAP, LEGEND)))
    assert msg.get_content_type() == "multipart/alternative"
    plain, related = msg.iter_parts()
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, *images = related.iter_parts()
    assert html.get_content_type() == "text/html"
    assert [image.get_content_type() for image in images] == ["image/png", "image/png"]
    assert [image["Content-ID"] for image in images] == [
        "<map.12.3@pbem.example>",
        "<legend.12.3@pbem.example>",
    ]
    first = images[0]
    assert first.get_content_disposition() == "inline"
    assert first.get_filename() == "game-12-turn-3.png"
    assert first.get_content() == MAP.png
    assert first["Content-Description"] == MAP.alt


def test_html_cid_references_an_inline_picture() -> None:
    msg = parse(make())
    _, related = msg.iter_parts()
    html = next(related.iter_parts())
    cids = re.findall(r'src="cid:([^"]+)"', text_of(html))
    content_ids = {part["Content-ID"] for part in related.iter_parts() if part["Content-ID"]}
    assert cids == ["map.12.3@pbem.example"]
    assert {f"<{cid}>" for cid in cids} <= content_ids


def test_html_without_pictures_is_a_plain_alternative() -> None:
    msg = parse(make(pictures=()))
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]


def test_text_only_attaches_the_pictures() -> None:
    msg = parse(make(html=None, pictures=(MAP,)))
    assert msg.get_content_type() == "multipart/mixed"
    plain, attachment = msg.iter_parts()
    assert plain.get_content_type() == "text/plain"
    assert text_of(plain) == "Turn 3\nA Sparta hold\n"
    assert attachment.get_content_type() == "image/png"
    assert attachment.get_content_disposition() == "attachment"
    assert attachment.get_filename() == "game-12-turn-3.png"
    assert attachment.get_content() == MAP.png


def test_text_only_without_pictures_is_a_single_part() -> None:
    msg = parse(make(html=None, pictures=()))
    assert not msg.is_multipart()
    assert msg.get_content_type() == "text/plain"
    assert text_of(msg) == "Turn 3\nA Sparta hold\n"


def test_headers() -> None:
    msg = parse(make(headers={"X-Pbem-Game": "12", "List-Help": "<https://pbem.example/help>"}))
    assert msg["From"] == "PBEM Judge <judge@pbem.example>"
    assert msg["To"] == "Gorgo <gorgo@example.com>"
    assert msg["Reply-To"] == "orders+12-spartans-1-942c723b85fb6772@pbem.example"
    assert msg["Subject"] == "[pbem] Game 12: turn 3"
    assert msg["Message-ID"] == "<pbem.12.3.spartans.turn@pbem.example>"
    assert msg["In-Reply-To"] == "<pbem.12.2.spartans.turn@pbem.example>"
    assert msg["References"].split() == [
        "<pbem.12.1.spartans.turn@pbem.example>",
        "<pbem.12.2.spartans.turn@pbem.example>",
    ]
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Auto-Response-Suppress"] == "All"
    assert msg["MIME-Version"] == "1.0"
    assert msg["X-Pbem-Game"] == "12"
    assert "Precedence" not in msg
    assert parsedate_to_datetime(msg["Date"]) == WHEN
    # One of each: duplicated headers confuse threading and some spam filters.
    for name in ("From", "To", "Subject", "Date", "Message-ID", "MIME-Version"):
        assert len(msg.get_all(name) or []) == 1, name
    assert all("MIME-Version" not in part for part in msg.walk() if part is not msg)


def test_optional_threading_headers_are_left_out() -> None:
    raw = build(
        Headers(sender="judge@pbem.example", to="gorgo@example.com", subject="Welcome"),
        Thread("<pbem.12.0.spartans.welcome@pbem.example>"),
        text="hello",
        html=None,
    )
    msg = parse(raw)
    for name in ("Reply-To", "In-Reply-To", "References"):
        assert name not in msg
    assert msg["Date"] is not None


def test_non_ascii_round_trips() -> None:
    subject = "Ход 3 — Partie 12: ordres d'été 🏛"
    text = "Привет, Горго!\nA Thèbes - Platées\n"
    html = "<p>Привет, Горго! Thèbes</p>"
    raw = make(subject=subject, text=text, html=html, to="Горго <gorgo@example.com>", pictures=())
    msg = parse(raw)
    plain, html_part = msg.iter_parts()
    assert msg["Subject"] == subject
    assert msg["To"].addresses[0].display_name == "Горго"
    assert text_of(plain) == text
    assert text_of(html_part).strip() == html


def test_html_travels_as_it_is_with_its_few_other_characters_as_references() -> None:
    html = '<p style="margin:0">Calle de Alcalá, “48h”</p>\n<p>' + "x " * 300 + "</p>\n"
    part = parse(make(html=html, pictures=())).get_body(preferencelist=("html",))
    assert part is not None and part["Content-Transfer-Encoding"] == "7bit"
    assert text_of(part) == html.replace("á", "&#225;").replace("“", "&#8220;").replace(
        "”", "&#8221;"
    )
    too_long = "<p>" + "x" * 1000 + "</p>"  # over a mail line: left to the stdlib
    part = parse(make(html=too_long, pictures=())).get_body(preferencelist=("html",))
    assert part is not None and part["Content-Transfer-Encoding"] == "quoted-printable"
    assert text_of(part).strip() == too_long


def test_boundaries_are_short_and_unique() -> None:
    raw = build(
        Headers(sender="pbem@pbem.localhost", to="a@example.com", subject="turn 3"),
        Thread("<m.3@pbem.localhost>"),
        text="due soon",
        html='<p>due soon</p><img src="cid:map.12.3@pbem.example" alt="map">',
        pictures=[MAP],
        attachments=[Attachment("a.ics", "text", "calendar", b"A\r\n")],
    )
    msg = parse(raw)
    boundaries = [part.get_boundary() for part in msg.walk() if part.is_multipart()]
    assert len(boundaries) == 3 and len(set(boundaries)) == 3
    assert all(b is not None and b.startswith("=_") and len(b) == 18 for b in boundaries)


def test_wire_format_is_crlf_7bit_and_short_lines() -> None:
    raw = make(text="Привет\n" + "x" * 500 + "\n", subject="Ход " * 40)
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert raw.isascii()  # no 8BITMIME needed anywhere on the way
    assert max(len(line) for line in raw.split(b"\r\n")) <= 998


def test_our_own_mail_reads_back_as_automatic() -> None:
    # If a receipt ever comes back to us (a forward loop), it must never be answered.
    mail = read(make())
    assert isinstance(mail, MailIn)
    assert mail.automatic == "Auto-Submitted: auto-generated"
    assert mail.text == "Turn 3\nA Sparta hold\n"


def test_naive_date_is_taken_as_utc_and_aware_dates_keep_their_offset() -> None:
    naive = parse(make(date=datetime(2024, 3, 4, 10, 12)))
    assert parsedate_to_datetime(naive["Date"]) == WHEN
    athens = timezone(timedelta(hours=2))
    aware = parse(make(date=datetime(2024, 3, 4, 12, 12, tzinfo=athens)))
    assert aware["Date"].endswith("+0200")
    assert parsedate_to_datetime(aware["Date"]) == WHEN


def test_missing_date_is_now() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    stamped = parsedate_to_datetime(parse(make(date=None))["Date"])
    assert before <= stamped <= datetime.now(UTC)


@pytest.mark.parametrize("name", ["Message-ID", "auto-submitted", "From", "Content-Type"])
def test_extra_headers_cannot_override_our_own(name: str) -> None:
    with pytest.raises(ValueError, match="set by build"):
        make(headers={name: "x"})


@pytest.mark.parametrize(
    "field",
    [{"subject": "turn 3\r\nBcc: everyone@example.com"}, {"headers": {"X-A": "a\nBcc: b@c"}}],
)
def test_header_injection_is_refused(field: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        make(**field)  # type: ignore[arg-type]


def test_alt_text_cannot_inject_headers() -> None:
    evil = Picture("c@x", b"png", "Map\r\nBcc: everyone@example.com", "map.png")
    msg = parse(make(pictures=(evil,)))
    assert "Bcc" not in msg
    images = [part for part in msg.walk() if part.get_content_type() == "image/png"]
    assert [image["Content-Description"] for image in images] == ["Map Bcc: everyone@example.com"]


# --- Message-IDs ---------------------------------------------------------------------------------

DOT_ATOM_ID = re.compile(
    r"<[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9.-]+>"
)


def test_message_id_is_deterministic_and_readable() -> None:
    first = mint_message_id([12, 3, "spartans", "turn"], "pbem.example")
    assert first == "<pbem.12.3.spartans.turn@pbem.example>"
    assert mint_message_id([12, 3, "spartans", "turn"], "pbem.example") == first


@pytest.mark.parametrize(
    "parts",
    [
        ["spring 480", "Ход"],
        ["a.b", "c"],
        ["a=2Eb"],
        ['<>@"\\ '],
        ["sea-peoples", "x_y"],
    ],
)
def test_message_id_uses_safe_characters_only(parts: list[str]) -> None:
    minted = mint_message_id(parts, "pbem.example")
    assert DOT_ATOM_ID.fullmatch(minted), minted
    assert minted.isascii()
    assert parse(f"Message-ID: {minted}\r\n\r\n".encode())["Message-ID"] == minted


def test_message_ids_of_different_parts_differ() -> None:
    # Escaping, not replacing: parts that look alike once "unsafe" characters go stay distinct.
    variants = [
        ["a.b", "c"],
        ["a", "b.c"],
        ["a", "b", "c"],
        ["a b", "c"],
        ["a-b", "c"],
        ["a=2Eb", "c"],
    ]
    minted = {mint_message_id(parts, "pbem.example") for parts in variants}
    assert len(minted) == len(variants)


@pytest.mark.parametrize("domain", ["", "pbem example", "pbem.example>", "-pbem.example", "a@b"])
def test_message_id_refuses_bad_domains(domain: str) -> None:
    with pytest.raises(ValueError):
        mint_message_id([1], domain)


def test_message_id_refuses_empty_parts() -> None:
    with pytest.raises(ValueError):
        mint_message_id([12, ""], "pbem.example")


def test_attachments_wrap_the_alternative_in_mixed() -> None:
    calendar = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
    raw = build(
        Headers(sender="pbem@pbem.localhost", to="a@example.com", subject="turn 3"),
        Thread("<m.1@pbem.localhost>"),
        text="due soon",
        html="<p>due soon</p>",
        attachments=[
            Attachment("deadline.ics", "text", "calendar", calendar, {"method": "PUBLISH"})
        ],
    )
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    assert message.get_content_type() == "multipart/mixed"
    body = message.get_body(preferencelist=("plain",))
    assert body is not None and body.get_content().strip() == "due soon"
    [attached] = list(message.iter_attachments())
    assert attached.get_filename() == "deadline.ics"
    assert attached.get_content_type() == "text/calendar"
    assert attached.get_param("method") == "PUBLISH"
    assert attached.get_payload(decode=True) == calendar


def attached_alone(data: bytes, subtype: str = "calendar") -> MIMEPart:
    raw = build(
        Headers(sender="pbem@pbem.localhost", to="a@example.com", subject="turn 3"),
        Thread("<m.2@pbem.localhost>"),
        text="due soon",
        html=None,
        attachments=[Attachment("deadline.ics", "text", subtype, data, {"method": "PUBLISH"})],
    )
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    [attached] = list(message.iter_attachments())
    assert attached.get_payload(decode=True) == data
    assert attached.get_content_type() == f"text/{subtype}"
    assert attached.get_filename() == "deadline.ics" and attached.get_param("method") == "PUBLISH"
    return attached


def test_a_calendar_in_ascii_travels_as_it_is_and_other_text_safely() -> None:
    calendar = b"BEGIN:VCALENDAR\r\nSUMMARY:Game 1\\, turn 3\r\nEND:VCALENDAR\r\n"
    assert attached_alone(calendar)["Content-Transfer-Encoding"] == "7bit"
    accented = "BEGIN:VCALENDAR\r\nSUMMARY:Alcalá\r\nEND:VCALENDAR\r\n".encode()
    assert attached_alone(accented)["Content-Transfer-Encoding"] in ("quoted-printable", "base64")
    # A lone CR or LF, and bytes that are not UTF-8, keep every byte in base64.
    for data in (b"A\nB\r\n", b"A\rB\r\n", b"\xff\xfe\r\n", b""):
        assert attached_alone(data)["Content-Transfer-Encoding"] == "base64"
