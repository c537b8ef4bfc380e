"""Whatever bytes arrive, the inbound pipeline stores them and ends on a verdict, never a crash.

Two kinds of input: arbitrary bytes, and mail that is structured but broken (random headers,
random MIME trees, charsets and transfer encodings, addresses at the service's domain including
forged ``orders+`` tokens and real seats of running games, sent by their players or by strangers).
Each goes through ``inbox.store`` then ``pipeline.process``; the pipeline turns any exception into
a "failed: internal error" record, so that reason is what these tests forbid.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, start_dos_de_mayo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playbymail import compose, deliver_mail, reply_to
from sqlalchemy import select

from adjudicator.core.refusal import Refusal
from adjudicator.models import InboundMessage
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.record.runtime import Runtime

DOMAIN = "pbem.localhost"
FINAL = {"done", "ignored", "rejected", "failed"}
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SPARTAN = "leonidas@example.com"


@dataclass(frozen=True)
class World:
    """Running games to aim at: (player address, seat reply address) pairs, one per seat."""

    seats: tuple[tuple[str, str], ...]


@pytest.fixture
def world(runtime: Runtime) -> Iterator[World]:
    # A Thermopyles game (resolves on receipt), a 2 de Mayo game at its first turn, and a game-
    # master game still forming, so fuzzed mail reaches every branch of seat mail.
    deliver_mail(runtime, compose(SPARTAN, f"new@{DOMAIN}", "NEW THERMOPYLES"))
    thermopyles = reply_to(runtime, SPARTAN)
    _, addresses = start_dos_de_mayo(runtime)
    france, spain = addresses[FRANCE], addresses[SPAIN]
    deliver_mail(
        runtime,
        compose(GM, f"new@{DOMAIN}", "NEW 2DEMAYO\nFRANCE a@example.com\nSPAIN b@example.com"),
    )
    gm = reply_to(runtime, GM)
    yield World(((SPARTAN, thermopyles), (FRANCE, france), (SPAIN, spain), (GM, gm)))


def run(runtime: Runtime, raw: bytes, envelope_to: list[str]) -> None:
    """Store, process, and check the record ended on a verdict that is not an internal error."""
    stored = inbox.store(runtime, raw, source="fuzz", envelope_to=envelope_to)
    if isinstance(stored, Refusal):
        assert len(raw) > runtime.config.max_message_bytes
        return
    verdict = pipeline.process(runtime, stored.id)
    # Replies and adjudications are queued; running them is not under test here.
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    with runtime.db.session() as session:
        record = session.scalar(select(InboundMessage).where(InboundMessage.id == stored.id))
        assert record is not None
        # A mail repeating an earlier Message-ID is that mail's copy: the first bytes are kept.
        assert stored.duplicate or record.raw == raw
        status, reason = record.status, record.reason or ""
    assert status in FINAL, (status, reason)
    assert not reason.startswith("internal error"), reason
    assert "internal error" not in verdict.reason, verdict.reason


# --- arbitrary bytes -------------------------------------------------------------------------


@FUZZ
@given(raw=st.binary(max_size=3000), to=st.sampled_from(["", f"new@{DOMAIN}", "x@elsewhere"]))
def test_arbitrary_bytes(runtime: Runtime, raw: bytes, to: str) -> None:
    run(runtime, raw, [to] if to else [])


# --- structured but broken mail ---------------------------------------------------------------

CHARSETS = [
    "utf-8", "us-ascii", "iso-8859-1", "windows-1252", "koi8-r", "iso-2022-jp", "utf-16",
    "utf-7", "unknown-8bit", "x-klingon", "", "utf-8\"", "gb2312", "big5", "rot13", "base64",
]  # fmt: skip
ENCODINGS = ["7bit", "8bit", "binary", "quoted-printable", "base64", "x-uuencode", "bogus", ""]
LINES = [
    "9-14", "16-14 x2", "OFF1-1 x5", "Puerta del Sol -> Calle Mayor", "TAKE MURAT", "DRAW",
    "NODRAW", "PLAY MAMELUKES 16-14-9 x2", "HOLD 15", "FIGHT 17 SUPPORT 1", "F 3 S 9", "RETREAT",
    "DISCARD 12", "STATUS", "HELP", "JOIN", "RESIGN", "WAIT", "ADD", "ORDERS", "END",
    "EXTEND 24h", "PAUSE", "RESUME", "FORCE", "NEW THERMOPYLES", "NEW 2DEMAYO", "FRANCE me",
    "SPAIN x@example.com", "SCHEDULE 1h", "TIMEZONE Mars/Olympus", "REMIND 99999999999999",
    "On Mon, 4 Mar 2024 at 10:12, Someone <a@b.c> wrote:", "> quoted 9-14", "-- ", "From: x",
    "Sent: y", "________________", "FIGHT 99999999999999999999", "9-" + "14-" * 40 + "9",
]  # fmt: skip


# Looks like a seat token ("12-spain-1-3f9a...") but its MAC does not check out.
TOKEN_LIKE = st.from_regex(r"[0-9]{1,3}-[a-z]{1,9}-[0-9]-[0-9a-f]{0,16}", fullmatch=True)


@st.composite
def addresses(draw: st.DrawFn, world: World) -> str:
    garbage = draw(st.text(max_size=40))
    options = [
        f"orders+{garbage}@{DOMAIN}",
        f"orders+{draw(TOKEN_LIKE)}@{DOMAIN}",
        f"new@{DOMAIN}",
        f"help@{DOMAIN}",
        f"{garbage}@{DOMAIN}",
        f"someone@{garbage}",
        draw(st.sampled_from([seat for _, seat in world.seats])),
        draw(st.sampled_from([seat.upper() for _, seat in world.seats])),
    ]
    return draw(st.sampled_from(options))


@st.composite
def header_value(draw: st.DrawFn) -> str:
    plain = draw(st.text(max_size=60))
    charset = draw(st.sampled_from(CHARSETS))
    word = draw(st.text(alphabet="ABCDEFabcdef0123456789=_?+/ ", max_size=30))
    return draw(
        st.sampled_from(
            [plain, f"=?{charset}?{draw(st.sampled_from('QBqbX'))}?{word}?= {plain}", plain + "\n"]
        )
    )


def body_text(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=60)), max_size=12))
    return "\n".join(pieces)


def encode(draw: st.DrawFn, text: str, charset: str, encoding: str) -> bytes:
    try:
        data = text.encode(charset or "utf-8")
    except (LookupError, UnicodeError):
        data = text.encode("utf-8", "surrogatepass")
    if encoding == "base64" and draw(st.booleans()):
        import base64

        data = base64.encodebytes(data)
    elif encoding == "quoted-printable" and draw(st.booleans()):
        import quopri

        data = quopri.encodestring(data)
    if draw(st.booleans()):
        data += draw(st.binary(max_size=20))  # broken padding, stray bytes
    return data


@st.composite
def mime_part(draw: st.DrawFn, depth: int = 0) -> bytes:
    if depth < 3 and draw(st.integers(0, 3)) == 0:
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "report", "digest"]))
        boundary = draw(st.text(alphabet="abc=_-.'()+ 0123", min_size=0, max_size=12))
        children = draw(st.lists(mime_part(depth + 1), max_size=4))
        declared = draw(st.sampled_from([boundary, boundary + "x", ""]))
        head = f'Content-Type: multipart/{subtype}; boundary="{declared}"'
        if subtype == "report":
            head += "; report-type=" + draw(st.sampled_from(["delivery-status", "x", ""]))
        body = b"".join(b"--" + boundary.encode() + b"\n" + child + b"\n" for child in children)
        if draw(st.booleans()):
            body += b"--" + boundary.encode() + b"--\n"
        return head.encode() + b"\n\n" + body
    kind = draw(
        st.sampled_from(
            ["text/plain", "text/html", "text/calendar", "message/rfc822", "image/png", "x/y", ""]
        )
    )
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    params = f"; charset={charset}" if charset else ""
    if draw(st.booleans()):
        params += "; format=flowed" + draw(st.sampled_from(["", "; delsp=yes", "; delsp=no"]))
    text = body_text(draw)
    if kind == "text/html":
        text = "<html><body><div>" + text.replace("\n", "<br>") + "</div><blockquote>"
    head = f"Content-Type: {kind}{params}\nContent-Transfer-Encoding: {encoding}\n"
    if draw(st.booleans()):
        disposition = draw(st.sampled_from(["attachment", "inline", "bogus"]))
        head += f'Content-Disposition: {disposition}; filename="{draw(st.text(max_size=10))}"\n'
    return head.encode("utf-8", "surrogatepass") + b"\n" + encode(draw, text, charset, encoding)


SERIAL = itertools.count()
HEADER_NAMES = [
    "From", "To", "Cc", "Subject", "In-Reply-To", "References", "Date",
    "MIME-Version", "Message-Id", "Auto-Submitted", "Precedence", "Return-Path", "Delivered-To",
    "X-Original-To", "List-Id", "Reply-To", "Sender", "X-Loop", "Content-Type",
]  # fmt: skip


@st.composite
def broken_mail(draw: st.DrawFn, world: World) -> tuple[bytes, list[str]]:
    players = [player for player, _ in world.seats] + ["stranger@example.com"]
    sender = draw(st.sampled_from(players))
    name = draw(header_value())
    headers: list[tuple[str, str]] = [
        ("From", draw(st.sampled_from([sender, f'"{name}" <{sender}>', f"{name} {sender}", name])))
    ]
    for _ in range(draw(st.integers(0, 3))):
        headers.append(("To", draw(addresses(world))))
    for _ in range(draw(st.integers(0, 6))):
        field = draw(st.one_of(st.sampled_from(HEADER_NAMES), st.from_regex(r"[A-Za-z-]{1,12}")))
        headers.append((field, draw(header_value())))
    # Every example is a new mail: a repeated Message-ID would be stored as the earlier one's copy.
    headers.append(("Message-ID", f"<{next(SERIAL)}.{time.monotonic_ns()}@fuzz>"))
    lines = [f"{field}: {value}" for field, value in draw(st.permutations(headers))]
    raw = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n" + draw(mime_part())
    if draw(st.booleans()):
        raw = raw.replace(b"\n", b"\r\n")
    envelope = draw(st.lists(addresses(world), max_size=2))
    return raw, envelope


def test_structured_broken_mail(runtime: Runtime, world: World) -> None:
    @FUZZ
    @given(mail=broken_mail(world))
    def check(mail: tuple[bytes, list[str]]) -> None:
        run(runtime, *mail)

    check()


def test_the_fuzz_setup_reaches_the_games(runtime: Runtime, world: World) -> None:
    # The strategies above are only worth their examples if the seat addresses really play.
    assert len({seat for _, seat in world.seats}) == 4
    for player, seat in world.seats[:3]:
        raw = compose(player, seat, "STATUS")
        stored = inbox.store(runtime, raw, source="fuzz", envelope_to=[seat])
        assert isinstance(stored, inbox.Stored)
        verdict = pipeline.process(runtime, stored.id)
        assert verdict.status == "done" and verdict.game_id is not None, verdict


def test_a_crash_would_be_caught(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    # The check above must be able to fail: make reading raise and see run() refuse it.
    def broken(*_: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline, "handle", broken)
    with pytest.raises(AssertionError, match="internal error"):
        run(runtime, compose(SPARTAN, f"help@{DOMAIN}", "HELP"), [])


def test_corpus_mail_goes_through_too(runtime: Runtime, world: World) -> None:
    corpus = Path(__file__).parent / "mail" / "corpus"
    for path in sorted(corpus.glob("*.eml")):
        run(runtime, path.read_bytes(), [world.seats[0][1]])
