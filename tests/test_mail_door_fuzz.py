"""Hostile mail through the real doors: the SMTP listener on a loopback port, and the webhooks.

Every message (tests/hostile_mail.py) is sent as a sending server or a provider would send it,
then the queued work is run as a worker would. For each one: the door's answer follows the
size limit alone (and SMTP's line length); a message the door took is stored, raw and whole,
before anything reads it; processing ends it answered, refused with a reason, or ignored, never
failed nor left waiting; mail a machine wrote (auto-replies, lists, the null sender) gets no
answer, no answer ever goes to the service's own domain, and every answer written is sent; and
nothing is logged as an error, the listener still answering afterwards.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import smtplib
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from conftest import free_port
from flask.testing import FlaskClient
from hostile_mail import DOMAIN, SPARTAN, STRANGER, Hostile, crlf, hostile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playbymail import compose, deliver_mail, drain, reply_to
from sqlalchemy import func, select

from adjudicator import smtp
from adjudicator.models import InboundMessage, OutboxMessage
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

LIMIT = 48 * 1024  # the configured size limit: small, so that mail at it and past it is quick
MAILGUN_KEY = "key-door-fuzz"
ENDED = {"done", "rejected", "ignored"}
DOOR_FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Doors:
    runtime: Runtime
    smtp_port: int
    web: FlaskClient
    seat: str  # the reply address of a running Thermopyles game, held by SPARTAN


@pytest.fixture
def doors(runtime: Runtime) -> Iterator[Doors]:
    config = runtime.config.with_overrides(
        max_message_bytes=LIMIT,
        smtp_host="127.0.0.1",
        smtp_port=free_port(),
        mailgun_signing_key=MAILGUN_KEY,
        # Every example is read to its end, not cut short as one sender's hundredth mail.
        sender_limit_per_hour=1_000_000,
        unauthenticated_replies_per_hour=1_000_000,
        unknown_sender_reply_hours=0,
    )
    door = Runtime(config, runtime.db, runtime.enqueue)
    deliver_mail(door, compose(SPARTAN, f"new@{DOMAIN}", "NEW THERMOPYLES"))
    listener = smtp.controller(door)
    listener.start()
    try:
        yield Doors(door, config.smtp_port, create_app(door).test_client(), reply_to(door, SPARTAN))
    finally:
        listener.stop()


def last_outbox_id(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return int(session.scalar(select(func.max(OutboxMessage.id))) or 0)


def inbound_count(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return int(session.scalar(select(func.count()).select_from(InboundMessage)) or 0)


def stored_before_processing(doors: Doors, inbound_id: int, mail: Hostile, source: str) -> None:
    """The door's yes means the message is on file, exactly as sent, and queued, unread."""
    runtime = doors.runtime
    with runtime.db.session() as session:
        row = session.get_one(InboundMessage, inbound_id)
        assert (row.status, row.source, row.raw) == ("received", source, mail.raw)
    assert ("process_inbound", inbound_id) in runtime.enqueue.items  # type: ignore[attr-defined]


def ended_well(doors: Doors, inbound_id: int, mail: Hostile, machine: str) -> None:
    """Run the queued work; the message ends on a verdict, and only people are answered."""
    runtime = doors.runtime
    before = last_outbox_id(runtime)
    drain(runtime)
    with runtime.db.session() as session:
        row = session.get_one(InboundMessage, inbound_id)
        status, reason = row.status, row.reason
        answers = list(session.scalars(select(OutboxMessage).where(OutboxMessage.id > before)))
    assert status in ENDED and reason, (status, reason)
    for answer in answers:
        assert answer.status == "sent", (answer.status, answer.last_error)
        assert not answer.to_address.lower().endswith("@" + DOMAIN), answer.to_address
        assert answer.to_address.isprintable() and "@" in answer.to_address, answer.to_address
    if machine:
        assert status == "ignored" or reason.startswith("unreadable"), (machine, status, reason)
    if machine or status == "ignored":
        assert answers == [], (machine, reason, [a.to_address for a in answers])
    if status == "done":
        assert answers, reason  # done means answered


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    caplog.clear()
    assert not errors, [r.getMessage() for r in errors]


# --- the SMTP listener ------------------------------------------------------------------------


def through_smtp(doors: Doors, mail: Hostile) -> int | None:
    """Send as a sending server does; the id the listener's 250 names, or None when refused."""
    with smtplib.SMTP("127.0.0.1", doors.smtp_port, timeout=30) as client:
        assert client.ehlo()[0] == 250
        assert client.mail(mail.mail_from)[0] == 250
        taken = [address for address in mail.rcpt if client.rcpt(address)[0] == 250]
        if not taken:
            client.rset()
            return None
        code, text = client.data(mail.raw)
        assert client.noop()[0] == 250  # the session goes on, whatever the data was
    too_big, too_long = len(mail.raw) > LIMIT, mail.long_line
    if too_big or too_long:
        expected = {552} if not too_long else {500} if not too_big else {500, 552}
        assert code in expected, (code, text, len(mail.raw))
        return None
    assert code == 250, (code, text)
    return int(text.decode().rsplit(" ", 1)[1])


def test_hostile_mail_through_the_smtp_listener(
    doors: Doors, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    began = time.monotonic()

    @DOOR_FUZZ
    @given(mail=hostile(doors.seat, LIMIT))
    def check(mail: Hostile) -> None:
        count = inbound_count(doors.runtime)
        inbound_id = through_smtp(doors, mail)
        if inbound_id is None:
            assert inbound_count(doors.runtime) == count  # refused: nothing kept
        else:
            stored_before_processing(doors, inbound_id, mail, "smtp")
            ended_well(doors, inbound_id, mail, mail.automatic or ("null sender" * mail.null))
        no_errors_logged(caplog)

    check()
    print(f"SMTP door: {time.monotonic() - began:.1f} s")


# --- the provider webhooks --------------------------------------------------------------------


def mailgun_body(mail: Hostile) -> tuple[bytes, str]:
    """A Mailgun route's forward() to a URL ending in mime, signed as Mailgun signs it."""
    timestamp, token = str(int(time.time())), uuid.uuid4().hex + "0123456789abcdef01"
    signature = hmac.new(MAILGUN_KEY.encode(), (timestamp + token).encode(), hashlib.sha256)
    fields = {
        "timestamp": timestamp.encode(),
        "token": token.encode(),
        "signature": signature.hexdigest().encode(),
        "recipient": ",".join(mail.rcpt).encode(),
        "sender": b"" if mail.null else mail.mail_from.encode(),
        "body-mime": mail.raw,
    }
    boundary = "xYzZY" + uuid.uuid4().hex
    body = b""
    for name, value in fields.items():
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        body += value + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def through_webhook(doors: Doors, mail: Hostile, mailgun: bool) -> int | None:
    """Post as the provider does; the stored id, or None when refused for its size."""
    if mailgun:
        body, content_type = mailgun_body(mail)
        answer = doors.web.post("/inbound/mailgun/mime", data=body, content_type=content_type)
        codes = (200, 406)
    else:
        token = {"Authorization": f"Bearer {doors.runtime.config.inbound_token}"}
        query = urlencode([("rcpt", address) for address in mail.rcpt])
        answer = doors.web.post(f"/inbound/mime?{query}", data=mail.raw, headers=token)
        codes = (202, 413)
    if len(mail.raw) > LIMIT:
        assert answer.status_code == codes[1], answer.get_json()
        return None
    assert answer.status_code == codes[0], answer.get_json()
    return int(answer.get_json()["id"])


def test_hostile_mail_through_the_webhooks(doors: Doors, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    began = time.monotonic()

    @DOOR_FUZZ
    @given(mail=hostile(doors.seat, LIMIT), mailgun=st.booleans())
    def check(mail: Hostile, mailgun: bool) -> None:
        count = inbound_count(doors.runtime)
        inbound_id = through_webhook(doors, mail, mailgun)
        if inbound_id is None:
            assert inbound_count(doors.runtime) == count
        else:
            source = "mailgun" if mailgun else "http"
            stored_before_processing(doors, inbound_id, mail, source)
            # A provider's envelope may not tell the null sender: the headers must say it.
            ended_well(doors, inbound_id, mail, mail.automatic)
        no_errors_logged(caplog)

    check()
    print(f"webhooks: {time.monotonic() - began:.1f} s")


# --- what the fuzz found, as plain examples ---------------------------------------------------


def smtp_example(doors: Doors, raw: bytes, to: str, mail_from: str = SPARTAN) -> tuple[str, str]:
    """One message through the listener and the worker: its final (status, reason); it must
    have been stored before it was read."""
    mail = Hostile(crlf(raw), mail_from, (to,), "", mail_from == "<>")
    inbound_id = through_smtp(doors, mail)
    assert inbound_id is not None
    stored_before_processing(doors, inbound_id, mail, "smtp")
    drain(doors.runtime)
    with doors.runtime.db.session() as session:
        row = session.get_one(InboundMessage, inbound_id)
        return row.status, row.reason


NEW_GAME = f"From: {STRANGER}\nTo: new@{DOMAIN}\nSubject: a game\n\nNEW THERMOPYLES\n".encode()


def test_mail_from_the_null_sender_is_never_answered(doors: Doors) -> None:
    # A bounce or an out-of-office sent with MAIL FROM:<> and a person's From line: answering
    # it is how mail loops start (RFC 5321 4.5.5).
    count = last_outbox_id(doors.runtime)
    status, reason = smtp_example(doors, NEW_GAME, f"new@{DOMAIN}", mail_from="<>")
    assert (status, reason) == ("ignored", "automatic mail, never answered (the null sender <>)")
    assert last_outbox_id(doors.runtime) == count
    # The same mail from a real envelope sender starts its game.
    again = NEW_GAME.replace(b"Subject: a game", b"Subject: a game again")
    assert smtp_example(doors, again, f"new@{DOMAIN}")[0] == "done"
    assert last_outbox_id(doors.runtime) > count


@pytest.mark.parametrize("local", ["pbem", "new", "help", "orders+1-spartans-1-00"])
def test_mail_from_the_service_s_own_domain_is_never_answered(doors: Doors, local: str) -> None:
    # Forged, or a loop: the answer would be mail the service sends to itself.
    count = last_outbox_id(doors.runtime)
    raw = f"From: {local}@{DOMAIN}\nTo: help@{DOMAIN}\nSubject: help\n\nHELP\n".encode()
    status, reason = smtp_example(doors, raw, f"help@{DOMAIN}")
    assert status == "ignored" and f"From: {local}@{DOMAIN}, the service's own" in reason
    assert last_outbox_id(doors.runtime) == count


def test_a_second_auto_submitted_header_still_marks_a_machine(doors: Doors) -> None:
    # The first says "no", the second "auto-replied": the check errs towards a machine.
    count = last_outbox_id(doors.runtime)
    raw = b"Auto-Submitted: no\nAuto-Submitted: auto-replied\n" + NEW_GAME
    status, reason = smtp_example(doors, raw, f"new@{DOMAIN}")
    assert (status, reason) == (
        "ignored",
        "automatic mail, never answered (Auto-Submitted: auto-replied)",
    )
    assert last_outbox_id(doors.runtime) == count


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (f"To: help@{DOMAIN}\nSubject: who am I\n\nHELP\n".encode(), "no From address"),
        (f"From: <>\nTo: help@{DOMAIN}\n\nHELP\n".encode(), "no From address"),
    ],
    ids=["no From", "From <>"],
)
def test_mail_no_one_can_be_answered_for_is_refused_not_parked(
    doors: Doors, raw: bytes, why: str
) -> None:
    # Reading it again would not help: it is refused with its reason, not left "failed".
    assert smtp_example(doors, raw, f"help@{DOMAIN}") == ("rejected", f"unreadable: {why}")


def test_a_related_part_whose_boundary_never_comes_does_not_stop_the_reading(
    doors: Doors,
) -> None:
    # The standard library's body search raises on it (AttributeError): the mail was parked as
    # an internal failure, the HELP after it never read.
    raw = (
        f'From: {SPARTAN}\nTo: help@{DOMAIN}\nContent-Type: multipart/mixed; boundary="o"\n\n'
        '--o\nContent-Type: multipart/related; boundary="never"\n\nnothing here\n'
        "--o\nContent-Type: text/plain\n\nHELP\n--o--\n"
    ).encode()
    assert smtp_example(doors, raw, f"help@{DOMAIN}") == ("done", "help sent")


def test_a_subject_of_a_megabyte_is_read_in_moments(runtime: Runtime) -> None:
    # The standard library's header parser takes time growing with the square of a field's
    # length: a Subject of 1 MB held a worker for about a minute, one at the 10 MB limit for hours.
    config = runtime.config.with_overrides(smtp_host="127.0.0.1", smtp_port=free_port())
    door = Runtime(config, runtime.db, runtime.enqueue)
    folded = b"\r\n ".join([b"=?utf-8?q?help?= " * 50] * 1200)
    raw = crlf(f"From: {SPARTAN}\nTo: help@{DOMAIN}\nSubject: ".encode() + folded + b"\n\nHELP\n")
    assert len(raw) > 1_000_000
    listener = smtp.controller(door)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", config.smtp_port, timeout=60) as client:
            assert client.sendmail(SPARTAN, [f"help@{DOMAIN}"], raw) == {}
    finally:
        listener.stop()
    began = time.process_time()
    drain(door)
    assert time.process_time() - began < 5  # CPU seconds: well under one on an idle machine
    with door.db.session() as session:
        [row] = session.scalars(select(InboundMessage)).all()
        assert (row.status, row.reason) == ("done", "help sent")
        assert row.subject.startswith("helphelp") and row.raw == raw
