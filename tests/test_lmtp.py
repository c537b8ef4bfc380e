"""The LMTP listener a Postfix transport hands mail to: tried with smtplib and a real Postfix."""

from __future__ import annotations

import smtplib
import time
from collections.abc import Iterator

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port
from playbymail import compose, drain, sent, text_of
from postfix import private_postfix
from sqlalchemy import select

from adjudicator import smtp
from adjudicator.models import InboundMessage
from adjudicator.services.record.runtime import Runtime


@pytest.fixture
def lmtp(runtime: Runtime) -> Iterator[int]:
    """The service's LMTP listener, started as `pbem serve` starts it; yields its port."""
    port = free_port()
    runtime.config = runtime.config.with_overrides(
        smtp_host="127.0.0.1", smtp_port=free_port(), lmtp_port=port
    )
    listeners = smtp.listeners(runtime)
    assert [type(listener) for listener in listeners] == [Controller, smtp.LMTPController]
    listeners[1].start()  # the SMTP one is tested elsewhere
    yield port
    listeners[1].stop()


def on_the_wire(raw: bytes) -> bytes:
    """CRLF line ends, as a mail client sends (smtplib sends bytes exactly as given)."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def inbound(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def test_lmtp_is_off_unless_a_port_is_set(runtime: Runtime) -> None:
    assert runtime.config.lmtp_port == 0
    assert [type(listener) for listener in smtp.listeners(runtime)] == [Controller]


def test_a_mail_over_lmtp_is_stored_and_answered(runtime: Runtime, lmtp: int) -> None:
    with smtplib.LMTP("127.0.0.1", lmtp, timeout=10) as client:
        assert client.docmd("EHLO", "client.example")[0] == 500  # LHLO only (RFC 2033 4.1)
        refused = client.sendmail(
            "a@example.com",
            ["new@pbem.localhost"],
            on_the_wire(compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES")),
        )
    assert refused == {}
    [record] = inbound(runtime)
    assert (record.source, record.envelope_from) == ("lmtp", "a@example.com")
    assert record.envelope_to == ["new@pbem.localhost"]
    drain(runtime)
    [welcome] = sent(runtime)
    assert welcome["To"] == "a@example.com"
    assert "Your game of Thermopyles has begun" in text_of(welcome)


def test_data_is_answered_once_per_accepted_recipient(runtime: Runtime, lmtp: int) -> None:
    cc = {"Cc": "help@pbem.localhost"}
    raw = on_the_wire(compose("a@example.com", "new@pbem.localhost", "HELP", headers=cc))
    with smtplib.LMTP("127.0.0.1", lmtp, timeout=10) as client:
        assert client.ehlo_or_helo_if_needed() is None and client.does_esmtp
        assert client.mail("a@example.com")[0] == 250
        assert client.rcpt("new@pbem.localhost")[0] == 250
        assert client.rcpt("someone@elsewhere.example")[0] == 550  # not relayed, not counted
        assert client.rcpt("help@pbem.localhost")[0] == 250
        # smtplib reads one reply after the data; the second accepted recipient's is read by hand.
        first = client.data(raw)
        second = client.getreply()
        assert first[0] == second[0] == 250 and first[1] == second[1]
        assert b"accepted as 1" in first[1]
        # Nothing else is owed: the next command's reply is its own, not a stray data reply.
        assert client.noop() == (250, b"OK")
    [record] = inbound(runtime)  # stored once for both recipients
    assert record.envelope_to == ["new@pbem.localhost", "help@pbem.localhost"]


def test_a_refused_message_is_refused_for_each_recipient(runtime: Runtime) -> None:
    runtime.config = runtime.config.with_overrides(max_message_bytes=2000)
    listener = smtp.lmtp_controller(runtime, host="127.0.0.1", port=free_port())
    listener.start()
    try:
        body = "NEW THERMOPYLES\n" + ("x" * 70 + "\n") * 50
        raw = on_the_wire(compose("a@example.com", "new@pbem.localhost", body))
        with smtplib.LMTP("127.0.0.1", listener.port, timeout=10) as client:
            client.ehlo_or_helo_if_needed()
            client.mail("a@example.com")
            client.rcpt("new@pbem.localhost")
            client.rcpt("help@pbem.localhost")
            assert client.data(raw)[0] == 552
            assert client.getreply()[0] == 552
            assert client.noop() == (250, b"OK")
    finally:
        listener.stop()
    assert inbound(runtime) == []


@pytest.mark.slow
def test_mail_through_a_real_postfix_reaches_the_service(runtime: Runtime, lmtp: int) -> None:
    domain = runtime.config.mail_domain
    with private_postfix(free_port(), lmtp, domain) as postfix:
        began = time.monotonic()
        with smtplib.SMTP("127.0.0.1", postfix.port, timeout=30) as client:
            client.sendmail(
                "a@example.com",
                [f"new@{domain}"],
                on_the_wire(compose("a@example.com", f"new@{domain}", "NEW THERMOPYLES")),
            )
        # Postfix logs the delivery after the service has answered it: wait for both.
        while time.monotonic() - began < 30:
            log = postfix.log()
            if inbound(runtime) and "status=sent (250 2.0.0" in log:
                break
            time.sleep(0.05)
    [record] = inbound(runtime)
    assert record.source == "lmtp", log
    assert record.envelope_from == "a@example.com" and record.envelope_to == [f"new@{domain}"]
    assert b"by mx.pbem.test (Postfix)" in record.raw  # it came through Postfix
    assert "relay=127.0.0.1[127.0.0.1]:" in log and "status=sent (250 2.0.0" in log
    drain(runtime)
    [welcome] = sent(runtime)
    assert welcome["To"] == "a@example.com"
    assert "Your game of Thermopyles has begun" in text_of(welcome)
