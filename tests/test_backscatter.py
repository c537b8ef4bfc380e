"""No backscatter: mail to an address nobody uses is refused at RCPT by the real SMTP and LMTP
listeners, and kept unanswered when a webhook provider delivers it anyway."""

from __future__ import annotations

import smtplib
import time
from collections.abc import Iterator

import pytest
from conftest import free_port
from playbymail import compose, drain, sent
from postfix import private_postfix
from sqlalchemy import select

from adjudicator import smtp
from adjudicator.mail import addresses, bounces
from adjudicator.models import InboundMessage
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

DOMAIN = "pbem.localhost"
TOKEN = addresses.seat_token("test-secret-key", 1, "spartans")
FORGED = [f"victim{number}@example.org" for number in range(20)]


@pytest.fixture
def ports(runtime: Runtime) -> Iterator[tuple[int, int]]:
    """The SMTP and LMTP listeners as `pbem serve` starts them, on free ports."""
    runtime.config = runtime.config.with_overrides(
        smtp_host="127.0.0.1", smtp_port=free_port(), lmtp_port=free_port()
    )
    listeners = smtp.listeners(runtime)
    for listener in listeners:
        listener.start()
    yield runtime.config.smtp_port, runtime.config.lmtp_port
    for listener in listeners:
        listener.stop()


def rows(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


TAKEN = [
    f"new@{DOMAIN}",
    f"HELP@{DOMAIN}",
    f"orders+{TOKEN}@{DOMAIN}",
    # The shape is enough at RCPT: a token that does not check out is answered when read.
    f"orders+1-spartans-1-0123456789abcdef@{DOMAIN}",
    f"orders+{addresses.seat_token('test-secret-key', 7, 'gm')}@{DOMAIN}",  # a game master's
    f"{bounces.return_path('test-secret-key', 12, DOMAIN)}",
    f"bounces+12-0123456789@{DOMAIN}",
    f"pbem@{DOMAIN}",  # the From of every mail sent: a player may hit "reply"
    f"postmaster@{DOMAIN}",
]
REFUSED = [
    f"nosuch@{DOMAIN}",
    f"info@{DOMAIN}",
    f"new+x@{DOMAIN}",
    f"orders@{DOMAIN}",
    f"orders+@{DOMAIN}",
    f"orders+hello@{DOMAIN}",
    f"orders+1-spartans-1-xyz@{DOMAIN}",
    f"bounces+12@{DOMAIN}",
    f"bounces+x-0123456789@{DOMAIN}",
]


def test_smtp_and_lmtp_refuse_unknown_local_parts_at_rcpt(
    runtime: Runtime, ports: tuple[int, int]
) -> None:
    smtp_port, lmtp_port = ports
    clients = (smtplib.SMTP("127.0.0.1", smtp_port, timeout=10), smtplib.LMTP())
    clients[1].connect("127.0.0.1", lmtp_port)
    for client in clients:
        with client:
            client.ehlo_or_helo_if_needed()
            assert client.mail("a@example.com")[0] == 250
            for address in TAKEN:
                assert client.rcpt(address)[0] == 250, address
            for address in REFUSED:
                code, text = client.rcpt(address)
                assert code == 550, address
                assert text.startswith(b"5.1.1 no such address") and b"new@" in text
            code, text = client.rcpt("someone@elsewhere.example")
            assert (code, text[:5]) == (550, b"5.7.1")  # still no relaying
    assert rows(runtime) == []


def test_forged_senders_mailing_an_unknown_address_over_smtp_get_nothing(
    runtime: Runtime, ports: tuple[int, int]
) -> None:
    smtp_port, _ = ports
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=10) as client:
        for victim in FORGED:
            raw = compose(victim, f"nosuch@{DOMAIN}", "hello")
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                client.sendmail(victim, [f"nosuch@{DOMAIN}"], raw)
            [(code, _)] = refused.value.recipients.values()
            assert code == 550
    drain(runtime)
    assert rows(runtime) == [] and sent(runtime) == []


def test_a_webhook_keeps_mail_to_an_unknown_address_and_answers_none(runtime: Runtime) -> None:
    web = create_app(runtime).test_client()
    token = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    for victim in FORGED:
        raw = compose(victim, f"nosuch@{DOMAIN}", "hello")
        answer = web.post(f"/inbound/mime?rcpt=nosuch@{DOMAIN}", data=raw, headers=token)
        assert answer.status_code == 202
    drain(runtime)
    stored = rows(runtime)
    assert [(r.sender, r.status) for r in stored] == [(v, "ignored") for v in FORGED]
    assert {r.reason for r in stored} == {f"unknown address nosuch@{DOMAIN}: stored, not answered"}
    assert sent(runtime) == []
    # Postmaster's mail is kept for the operator, and not answered either.
    raw = compose(FORGED[0], f"postmaster@{DOMAIN}", "your server")
    assert web.post(f"/inbound/mime?rcpt=postmaster@{DOMAIN}", data=raw, headers=token).status_code
    drain(runtime)
    assert rows(runtime)[-1].status == "ignored" and sent(runtime) == []


@pytest.mark.slow
def test_a_postfix_in_front_refuses_unknown_addresses_at_its_own_rcpt(
    runtime: Runtime, ports: tuple[int, int]
) -> None:
    """With address verification (docs/operations.md), Postfix asks the LMTP listener first, so
    it refuses what the service refuses instead of accepting it and bouncing to a forged From."""
    _, lmtp_port = ports
    with private_postfix(free_port(), lmtp_port, DOMAIN, verify_recipients=True) as postfix:

        def rcpt(address: str) -> int:
            # The first answer may be 450 while Postfix's probe is still under way.
            began = time.monotonic()
            while True:
                with smtplib.SMTP("127.0.0.1", postfix.port, timeout=30) as client:
                    client.ehlo()
                    client.mail(FORGED[0])
                    code = client.rcpt(address)[0]
                if code != 450 or time.monotonic() - began > 30:
                    return code
                time.sleep(0.2)

        assert rcpt(f"nosuch@{DOMAIN}") == 550, postfix.log()
        assert rcpt(f"help@{DOMAIN}") == 250, postfix.log()
    # Postfix's probes never reach the database: nothing stored, nothing answered.
    assert rows(runtime) == [] and sent(runtime) == []
