"""VERP return paths on outbound mail, and the delivery reports that come back to them."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from conftest import free_port, smtp_server
from playbymail import compose, deliver_mail, drain, row_count, sent
from postfix import private_postfix
from sqlalchemy import select

from adjudicator import bootstrap, cli, smtp
from adjudicator.core.refusal import Refusal
from adjudicator.mail import bounces
from adjudicator.mail.reading import MailIn, read
from adjudicator.models import InboundMessage, OutboxMessage
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.outbound import delivery
from adjudicator.services.record.runtime import Runtime

FIXTURES = Path(__file__).parent / "mail" / "fixtures"
SECRET, DOMAIN = "test-secret-key", "pbem.localhost"
# The return path the fixtures were written for: outbox row 1 under the test configuration.
FIXTURE_ADDRESS = b"bounces+1-9fdf1e6a08@pbem.localhost"


def fixture(name: str, address: str, message_id: str | None = None) -> bytes:
    """A stored DSN, sent back to address (and given a new Message-ID, to arrive twice)."""
    raw = (FIXTURES / name).read_bytes().replace(FIXTURE_ADDRESS, address.encode())
    if message_id is not None:
        raw = re.sub(rb"(?im)^Message-ID:\s*<[^>]+>", f"Message-ID: {message_id}".encode(), raw)
    return raw


def test_the_fixtures_carry_the_return_path_of_outbox_1() -> None:
    assert bounces.return_path(SECRET, 1, DOMAIN).encode() == FIXTURE_ADDRESS


# --- the address ------------------------------------------------------------------------------


def test_a_return_path_names_its_outbox_row() -> None:
    address = bounces.return_path(SECRET, 4711, DOMAIN)
    local = address.split("@")[0]
    assert re.fullmatch(r"bounces\+4711-[0-9a-f]{10}", local) and len(local) <= 64
    assert bounces.outbox_id(address, DOMAIN, SECRET) == 4711
    # Some MTAs change the case of addresses; angle brackets and display names are shed.
    assert bounces.outbox_id(f"MAILER <{address.upper()}>", DOMAIN, SECRET) == 4711
    assert bounces.return_path(SECRET, 4712, DOMAIN) != address.replace("4711", "4712")


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("bounces+4711-0000000000@pbem.localhost", "does not check out"),
        ("bounces+4711-{mac6}@pbem.localhost", "does not check out"),  # truncated
        ("bounces+4712-{mac}@pbem.localhost", "does not check out"),  # another row's id
        ("bounces+4711-{mac}@other.example", "not our domain"),
        ("bounces+4711@pbem.localhost", "malformed"),
        ("bounces+-{mac}@pbem.localhost", "malformed"),
        ("orders+4711-{mac}@pbem.localhost", "not a bounce address"),
    ],
)
def test_a_return_path_that_is_not_ours_names_no_row(address: str, why: str) -> None:
    mac = bounces.return_path(SECRET, 4711, DOMAIN).split("-")[1].split("@")[0]
    found = bounces.outbox_id(address.format(mac=mac, mac6=mac[:6]), DOMAIN, SECRET)
    assert isinstance(found, Refusal) and why in found.reason
    assert isinstance(bounces.outbox_id(f"bounces+4711-{mac}@{DOMAIN}", DOMAIN, "other"), Refusal)


# --- reading delivery reports ----------------------------------------------------------------


REPORTS = [
    ("dsn_postfix_failed.eml", "failed", "5.1.1", "User unknown", "demaratus@gone.example"),
    (
        "dsn_postfix_delayed.eml",
        "delayed",
        "4.4.1",
        "Connection timed out",
        "xerxes@slow.example",
    ),
    (
        "dsn_gmail_failed.eml",
        "failed",
        "5.1.1",
        "does not exist",
        "leonidas.of.sparta@gmail.com",
    ),
    ("dsn_exchange_failed.eml", "failed", "5.2.2", "mailbox full", "artabanus@contoso.com"),
]


def test_every_dsn_fixture_is_read_here() -> None:
    assert {path.name for path in FIXTURES.glob("dsn_*.eml")} == {name for name, *_ in REPORTS}


@pytest.mark.parametrize(("name", "action", "status", "says", "recipient"), REPORTS)
def test_delivery_reports_are_read(
    name: str, action: str, status: str, says: str, recipient: str
) -> None:
    raw = (FIXTURES / name).read_bytes()
    mail = read(raw)  # what the pipeline sees first: a robot's mail, addressed to a return path
    assert isinstance(mail, MailIn) and mail.automatic is not None
    assert mail.recipients[0] == FIXTURE_ADDRESS.decode()
    report = bounces.read_report(raw)
    assert isinstance(report, bounces.DeliveryReport)
    [found] = report.recipients
    assert (found.action, found.status, found.recipient) == (action, status, recipient)
    assert says in found.diagnostic and not found.diagnostic.lower().startswith(("smtp;", "x-"))
    line = bounces.summary(found)
    assert line.startswith(status + " ") and "\n" not in line and len(line) <= 500


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("gmail_reply.eml", "not a multipart/report"),
        ("vacation_auto_reply.eml", "not a multipart/report"),
        ("binary.eml", ""),
    ],
)
def test_other_mail_is_no_delivery_report(name: str, why: str) -> None:
    found = bounces.read_report((FIXTURES / name).read_bytes())
    assert isinstance(found, Refusal) and why in found.reason


def test_a_read_receipt_is_no_delivery_report() -> None:
    raw = (
        (FIXTURES / "dsn_postfix_failed.eml")
        .read_bytes()
        .replace(b"report-type=delivery-status", b"report-type=disposition-notification")
    )
    assert bounces.read_report(raw) == Refusal(
        "a report of type disposition-notification, not delivery-status"
    )


# --- outbound: the return path goes out with each mail -----------------------------------------


@dataclass
class Sink:
    """An SMTP relay that keeps what it is sent, and can run something before it answers."""

    received: list[tuple[str, bytes]] = field(default_factory=list)
    before_answer: list[Any] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((envelope.mail_from, envelope.original_content))
        for action in self.before_answer:
            action()
        return "250 OK"


@pytest.fixture
def relay(runtime: Runtime) -> Iterator[Sink]:
    """The SMTP relay the runtime hands its mail to, for as long as the test runs."""
    sink = Sink()
    with smtp_server(sink) as port:
        runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
        yield sink


def welcome(runtime: Runtime, player: str = "a@example.com") -> int:
    """A NEW mail processed, so that one welcome to the player waits in the outbox: as if the
    worker had died between the processing's commit and its sending of the welcome."""
    stored = inbox.store(runtime, compose(player, "new@pbem.localhost", "NEW THERMOPYLES"), "test")
    assert isinstance(stored, inbox.Stored)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(delivery, "deliver_written", lambda runtime, outbox_ids: [])
        pipeline.process(runtime, stored.id)
    with runtime.db.session() as session:
        return session.scalars(select(OutboxMessage.id)).one()


def outbox_row(runtime: Runtime, outbox_id: int) -> OutboxMessage:
    with runtime.db.session() as session:
        return session.get_one(OutboxMessage, outbox_id)


def inbound_row(runtime: Runtime, inbound_id: int) -> InboundMessage:
    with runtime.db.session() as session:
        return session.get_one(InboundMessage, inbound_id)


def test_smtp_mail_goes_out_from_its_own_return_path(runtime: Runtime, relay: Sink) -> None:
    outbox_id = welcome(runtime)
    assert delivery.deliver(runtime, outbox_id) == "sent"
    [(mail_from, raw)] = relay.received
    assert mail_from == bounces.return_path(SECRET, outbox_id, DOMAIN)
    assert bounces.outbox_id(mail_from, DOMAIN, SECRET) == outbox_id
    assert b"From: " in raw and b"pbem@pbem.localhost" in raw  # the From header stays ours
    assert b"Return-Path" not in raw  # the final MTA writes that, from the envelope


def test_a_maildir_file_carries_the_return_path(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    [mail] = sent(runtime)
    with runtime.db.session() as session:
        outbox_id = session.scalars(select(OutboxMessage.id)).one()
    assert mail["Return-Path"] == f"<{bounces.return_path(SECRET, outbox_id, DOMAIN)}>"
    [path] = (runtime.config.outbox_dir / "new").iterdir()
    first_line = path.read_bytes().split(b"\n", 1)[0]
    assert first_line.startswith(b"Return-Path: <bounces+")
    assert first_line.endswith(b">\r")  # the message's own line ends (CRLF), not a mix


# --- inbound: the reports that come back --------------------------------------------------------


def sent_welcome(runtime: Runtime) -> tuple[int, str]:
    """A welcome delivered to the Maildir: its outbox id and its return path, as filed."""
    outbox_id = welcome(runtime)
    assert delivery.deliver(runtime, outbox_id) == "sent"
    [mail] = sent(runtime)
    return outbox_id, str(mail["Return-Path"]).strip("<>")


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("dsn_postfix_failed.eml", "5.1.1"),
        ("dsn_gmail_failed.eml", "5.1.1"),
        ("dsn_exchange_failed.eml", "5.2.2"),
    ],
)
@pytest.mark.parametrize("envelope", [True, False], ids=["envelope", "headers-only"])
def test_a_bounce_marks_its_mail_bounced_and_is_never_answered(
    runtime: Runtime, name: str, status: str, envelope: bool
) -> None:
    outbox_id, address = sent_welcome(runtime)
    inbound_id = deliver_mail(runtime, fixture(name, address), [address] if envelope else None)
    record = inbound_row(runtime, inbound_id)
    assert record.status == "ignored" and f"bounce for outbox {outbox_id}:" in record.reason
    row = outbox_row(runtime, outbox_id)
    assert row.status == "bounced" and row.bounce.startswith(status + " ")
    assert row.bounce in record.reason
    assert row_count(runtime, OutboxMessage) == 1 and len(sent(runtime)) == 1  # nothing sent back


def test_a_delay_is_noted_but_the_mail_is_not_bounced(runtime: Runtime) -> None:
    outbox_id, address = sent_welcome(runtime)
    first = deliver_mail(runtime, fixture("dsn_postfix_delayed.eml", address), [address])
    assert inbound_row(runtime, first).reason.startswith(f"delay for outbox {outbox_id}: 4.4.1")
    row = outbox_row(runtime, outbox_id)
    assert row.status == "sent"
    assert (
        row.bounce
        == "delayed: 4.4.1 connect to mx.slow.example[192.0.2.9]:25: Connection timed out"
    )
    deliver_mail(runtime, fixture("dsn_postfix_failed.eml", address), [address])
    assert outbox_row(runtime, outbox_id).status == "bounced"
    # A delay report that arrives after the failure leaves the failure on record.
    late = deliver_mail(
        runtime, fixture("dsn_postfix_delayed.eml", address, "<late@mx>"), [address]
    )
    assert "already bounced" in inbound_row(runtime, late).reason
    row = outbox_row(runtime, outbox_id)
    assert row.status == "bounced" and row.bounce.startswith("5.1.1 550 5.1.1")
    assert row_count(runtime, OutboxMessage) == 1


@pytest.mark.parametrize(
    "mangle",
    [
        lambda a: a.replace("bounces+1-", "bounces+2-"),  # someone else's row
        lambda a: a[:-20] + "0" + a[-19:],  # one character of the mac changed
        lambda a: "bounces+1@pbem.localhost",
    ],
    ids=["other-row", "forged-mac", "no-mac"],
)
def test_a_forged_bounce_changes_nothing_and_is_never_answered(
    runtime: Runtime, mangle: Any
) -> None:
    outbox_id, address = sent_welcome(runtime)
    forged = mangle(address)
    assert forged != address
    inbound_id = deliver_mail(runtime, fixture("dsn_postfix_failed.eml", forged), [forged])
    record = inbound_row(runtime, inbound_id)
    assert record.status == "ignored" and record.reason.startswith("bounce address: ")
    assert outbox_row(runtime, outbox_id).status == "sent"
    assert row_count(runtime, OutboxMessage) == 1


def test_a_person_writing_to_a_return_path_is_not_answered(runtime: Runtime) -> None:
    outbox_id, address = sent_welcome(runtime)
    # Not automatic mail by any header, so without the bounce check it would get a reply.
    person = compose("b@example.com", address, "what is this address?")
    inbound_id = deliver_mail(runtime, person, [address])
    record = inbound_row(runtime, inbound_id)
    assert record.status == "ignored" and f"return path of outbox {outbox_id}" in record.reason
    forged = compose("b@example.com", "bounces+9-0123456789@pbem.localhost", "hello")
    record = inbound_row(runtime, deliver_mail(runtime, forged))
    assert record.status == "ignored" and "does not check out" in record.reason
    assert outbox_row(runtime, outbox_id).status == "sent"
    assert row_count(runtime, OutboxMessage) == 1


def test_a_bounce_that_beats_the_send_is_not_overwritten(runtime: Runtime, relay: Sink) -> None:
    outbox_id = welcome(runtime)
    address = bounces.return_path(SECRET, outbox_id, DOMAIN)

    def bounce_at_once() -> None:  # a relay that bounces before it has answered our DATA
        stored = inbox.store(
            runtime, fixture("dsn_postfix_failed.eml", address), "test", "", [address]
        )
        assert isinstance(stored, inbox.Stored)
        pipeline.process(runtime, stored.id)

    relay.before_answer.append(bounce_at_once)
    assert delivery.deliver(runtime, outbox_id) == "sent"
    row = outbox_row(runtime, outbox_id)
    assert row.status == "bounced" and row.bounce.startswith("5.1.1")
    assert row.sent_at is None


def test_a_bounce_that_beats_the_processing_tasks_own_send_is_not_overwritten(
    runtime: Runtime, relay: Sink
) -> None:
    def bounce_at_once() -> None:  # the welcome is on its way, sent by the task that wrote it
        with runtime.db.session() as session:
            outbox_id = session.scalars(select(OutboxMessage.id)).one()
        address = bounces.return_path(SECRET, outbox_id, DOMAIN)
        stored = inbox.store(
            runtime, fixture("dsn_postfix_failed.eml", address), "test", "", [address]
        )
        assert isinstance(stored, inbox.Stored)
        pipeline.process(runtime, stored.id)

    relay.before_answer.append(bounce_at_once)
    stored = inbox.store(
        runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"), "test"
    )
    assert isinstance(stored, inbox.Stored)
    assert pipeline.process(runtime, stored.id).status == "done"
    assert len(relay.received) == 1
    with runtime.db.session() as session:
        row = session.scalars(select(OutboxMessage)).one()
    assert row.status == "bounced" and row.bounce.startswith("5.1.1")
    assert row.sent_at is None


def test_pbem_mail_outbox_shows_bounces(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    outbox_id, address = sent_welcome(runtime)
    deliver_mail(runtime, fixture("dsn_exchange_failed.eml", address), [address])
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: runtime)
    result = CliRunner().invoke(cli.main, ["mail", "outbox", "--status", "bounced"])
    assert result.exit_code == 0, result.output
    [line] = result.output.splitlines()
    assert line.split()[:1] == [str(outbox_id)] and " bounced " in line
    assert "a@example.com" in line and "| 5.2.2 554 5.2.2 mailbox full" in line
    assert CliRunner().invoke(cli.main, ["mail", "outbox", "--status", "pending"]).output == ""


# --- the real thing: Postfix refuses or bounces our mail ----------------------------------------


class UnknownUsers:
    """A remote MX that knows nobody: it refuses every recipient as Postfix-run servers do."""

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown in local table"


def lmtp_arrivals(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        query = select(InboundMessage).where(InboundMessage.source == "lmtp")
        return list(session.scalars(query.order_by(InboundMessage.id)))


@pytest.mark.slow
def test_a_recipient_the_relay_refuses_is_bounced_at_once(runtime: Runtime) -> None:
    postfix_port = free_port()
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{postfix_port}")
    # Postfix refuses recipients of the error transport while we are still talking to it.
    gone = {"gone.example": "error:5.1.1 mailbox unavailable"}
    with private_postfix(postfix_port, free_port(), DOMAIN, gone):
        outbox_id = welcome(runtime, "leonidas@gone.example")
        assert delivery.deliver(runtime, outbox_id) == "bounced"
    row = outbox_row(runtime, outbox_id)
    assert row.status == "bounced" and row.attempts == 1
    assert row.bounce == (
        "5.1.1 550 5.1.1 <leonidas@gone.example>: Recipient address rejected: mailbox unavailable"
    )
    assert delivery.pending_ids(runtime) == []  # never retried


@pytest.mark.slow
def test_a_real_postfix_bounce_comes_back_over_lmtp(runtime: Runtime) -> None:
    lmtp_port, postfix_port, mx_port = free_port(), free_port(), free_port()
    runtime.config = runtime.config.with_overrides(
        smtp_host="127.0.0.1", lmtp_port=lmtp_port, smtp_url=f"smtp://127.0.0.1:{postfix_port}"
    )
    mx = Controller(
        UnknownUsers(), hostname="127.0.0.1", port=mx_port, server_hostname="mx.gone.example"
    )
    listener = smtp.lmtp_controller(runtime)
    mx.start()
    listener.start()
    # Postfix accepts the mail, then the remote MX refuses it: Postfix writes the DSN.
    gone = {"gone.example": f"smtp:[127.0.0.1]:{mx_port}"}
    try:
        with private_postfix(postfix_port, lmtp_port, DOMAIN, gone) as postfix:
            outbox_id = welcome(runtime, "leonidas@gone.example")
            assert delivery.deliver(runtime, outbox_id) == "sent"
            began = time.monotonic()
            while not lmtp_arrivals(runtime) and time.monotonic() - began < 30:
                time.sleep(0.05)
            log = postfix.log()
    finally:
        listener.stop()
        mx.stop()
    [record] = lmtp_arrivals(runtime)
    address = bounces.return_path(SECRET, outbox_id, DOMAIN)
    assert record.envelope_to == [address], log
    assert record.envelope_from == "<>"  # a bounce comes from the null sender
    assert b"Content-Type: message/delivery-status" in record.raw
    drain(runtime)
    record = inbound_row(runtime, record.id)
    assert record.status == "ignored" and f"bounce for outbox {outbox_id}: 5.1.1" in record.reason
    row = outbox_row(runtime, outbox_id)
    assert row.status == "bounced"
    assert row.bounce.startswith("5.1.1 550 5.1.1 <leonidas@gone.example>: Recipient address")
    assert row_count(runtime, OutboxMessage) == 1  # the bounce was not answered
