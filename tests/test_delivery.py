"""Sending the outbox: over SMTP to a real server when configured, to the Maildir by default."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port
from playbymail import claimed_welcome, compose, deliver_mail, drain, sent, unsent_welcome
from sqlalchemy import select, update

from adjudicator.models import OutboxMessage, utcnow
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.outbound import delivery, retries
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import ticks


@dataclass
class Sink:
    """An SMTP server that keeps what it is sent: the relay the service hands mail to."""

    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(
            (envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content)
        )
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[Sink, int]]:
    sink, port = Sink(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port, decode_data=False)
    controller.start()
    yield sink, port
    controller.stop()


def test_mail_goes_out_over_smtp_when_configured(runtime: Runtime, relay: tuple[Sink, int]) -> None:
    sink, port = relay
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    outbox_id = unsent_welcome(runtime)
    assert delivery.deliver(runtime, outbox_id) == "sent"
    assert delivery.deliver(runtime, outbox_id) == "not pending"  # a duplicate task sends nothing
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        assert (row.status, row.attempts) == ("sent", 1)
    [(sender, recipients, raw)] = sink.received
    # The envelope sender is the mail's own return path (VERP); see test_bounces.py.
    assert sender.startswith(f"bounces+{outbox_id}-") and recipients == ["a@example.com"]
    assert row.message_id.encode() in raw and b"Auto-Submitted: auto-generated" in raw
    assert sent(runtime) == []  # nothing written to the Maildir


def test_a_failed_send_is_kept_and_retried(runtime: Runtime) -> None:
    port = free_port()  # nothing listens here yet
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    outbox_id = unsent_welcome(runtime)
    assert delivery.deliver(runtime, outbox_id) == "pending"
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        assert row.status == "pending" and row.attempts == 1 and "refused" in row.last_error.lower()
    # Tried again by the tick once the retry is due (one tick after the first failure), not before.
    assert row.claimed_at is not None
    due = retries.next_attempt_at(runtime, row.attempts, row.claimed_at)
    assert due == row.claimed_at + timedelta(seconds=runtime.config.tick_seconds)
    assert retries.pending_ids(runtime, now=due - timedelta(milliseconds=1)) == []
    assert retries.pending_ids(runtime, now=due) == [outbox_id]
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port, decode_data=False)
    controller.start()
    try:
        assert delivery.deliver(runtime, outbox_id) == "not due"  # a copy of the task, too soon
        assert delivery.deliver(runtime, outbox_id, now=due) == "sent"
    finally:
        controller.stop()
    assert len(sink.received) == 1


def test_a_mail_that_keeps_failing_is_parked(runtime: Runtime) -> None:
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{free_port()}")
    outbox_id = unsent_welcome(runtime)
    assert delivery.deliver(runtime, outbox_id) == "pending"
    assert delivery.deliver(runtime, outbox_id) == "not due"  # backing off: one tick, two, four…
    waited = timedelta(0)
    outcomes = ["pending"]
    for attempts in range(1, retries.MAX_ATTEMPTS):
        waited += retries.retry_delay(runtime, attempts)
        # Each retry when it is due, as if the relay had been down all that time.
        outcomes.append(delivery.deliver(runtime, outbox_id, now=utcnow() + waited))
    assert outcomes == ["pending"] * (retries.MAX_ATTEMPTS - 1) + ["failed"]
    # Parked only after 1 + 2 + … + 64 ticks of trying (an hour at the default 30 s tick).
    assert waited == timedelta(seconds=127 * runtime.config.tick_seconds)
    assert retries.pending_ids(runtime) == []


def test_maildir_delivery_never_duplicates(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    assert len(sent(runtime)) == 1
    with runtime.db.session() as session:  # as if the worker died after writing the file
        session.execute(update(OutboxMessage).values(status="pending"))
        outbox_id = session.scalars(select(OutboxMessage.id)).one()
    assert delivery.deliver(runtime, outbox_id) == "sent"
    assert len(sent(runtime)) == 1
    assert list((runtime.config.outbox_dir / "tmp").iterdir()) == []


def test_a_claim_left_by_a_dead_worker_is_sent_again_after_the_sending_lease(
    runtime: Runtime,
) -> None:
    runtime.config = runtime.config.with_overrides(sending_lease_seconds=30)
    outbox_id = unsent_welcome(runtime)
    claimed = utcnow()
    with runtime.db.session() as session:  # claimed by a worker that died before it sent it
        session.execute(update(OutboxMessage).values(status="sending", claimed_at=claimed))
    assert retries.pending_ids(runtime, now=claimed + timedelta(seconds=29)) == []
    assert retries.pending_ids(runtime, now=claimed + timedelta(seconds=31)) == [outbox_id]
    assert delivery.deliver(runtime, outbox_id) == "sent"
    assert len(sent(runtime)) == 1


class Refusing:
    """A relay that refuses every recipient for good, as one that knows the mailbox is gone."""

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"


def test_a_mail_the_relay_refuses_for_good_is_bounced_and_never_tried_again(
    runtime: Runtime,
) -> None:
    port = free_port()
    controller = Controller(Refusing(), hostname="127.0.0.1", port=port, decode_data=False)
    controller.start()
    try:
        runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
        outbox_id = unsent_welcome(runtime)
        assert delivery.deliver(runtime, outbox_id) == "bounced"
        assert delivery.deliver(runtime, outbox_id) == "not pending"
    finally:
        controller.stop()
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        assert (row.status, row.attempts) == ("bounced", 1)
        assert row.bounce == (
            "5.1.1 550 5.1.1 <a@example.com>: Recipient address rejected: User unknown"
        )
        assert "Recipient address rejected" in row.last_error
    assert retries.pending_ids(runtime) == []


def store_new(runtime: Runtime) -> int:
    stored = inbox.store(
        runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"), "test"
    )
    assert isinstance(stored, inbox.Stored)
    return stored.id


def test_the_processing_task_sends_its_reply_itself(
    runtime: Runtime, relay: tuple[Sink, int]
) -> None:
    sink, port = relay
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    queue: list[tuple[str, object]] = runtime.enqueue.items  # type: ignore[attr-defined]
    inbound_id = store_new(runtime)
    queue.clear()
    assert pipeline.process(runtime, inbound_id).status == "done"
    with runtime.db.session() as session:
        row = session.scalars(select(OutboxMessage)).one()
        assert (row.status, row.attempts, row.last_error) == ("sent", 1, "")
        assert row.claimed_at is not None and row.sent_at is not None
    [(sender, recipients, raw)] = sink.received
    assert sender.startswith(f"bounces+{row.id}-") and recipients == ["a@example.com"]
    assert row.message_id.encode() in raw
    assert queue == [], "no send_outbox task is queued for a mail sent in the task"
    # A second sender (a copy of a task, the tick's sweep) finds it claimed and sends nothing.
    assert delivery.deliver(runtime, row.id) == "not pending"
    assert pipeline.process(runtime, inbound_id).reason == "already processed"
    assert len(sink.received) == 1


def test_a_reply_the_processing_task_could_not_send_is_left_to_the_retry_path(
    runtime: Runtime,
) -> None:
    port = free_port()  # the relay is down
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    queue: list[tuple[str, object]] = runtime.enqueue.items  # type: ignore[attr-defined]
    inbound_id = store_new(runtime)
    queue.clear()
    assert pipeline.process(runtime, inbound_id).status == "done"  # processed all the same
    with runtime.db.session() as session:
        row = session.scalars(select(OutboxMessage)).one()
        assert (row.status, row.attempts) == ("pending", 1)
        assert "refused" in row.last_error.lower() and row.claimed_at is not None
    assert queue == []
    due = retries.next_attempt_at(runtime, row.attempts, row.claimed_at)
    # The tick queues its retry when it is due, and the send_outbox task sends it, once.
    assert ticks.tick(runtime, now=due - timedelta(seconds=1)).requeued_outbox == []
    assert ticks.tick(runtime, now=due).requeued_outbox == [row.id]
    assert queue == [("send_outbox", row.id)]
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port, decode_data=False)
    controller.start()
    try:
        queue[:] = [("send_outbox", row.id)] * 2  # and a duplicate of that task
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(delivery, "utcnow", lambda: due)
            drain(runtime)
    finally:
        controller.stop()
    assert len(sink.received) == 1
    with runtime.db.session() as session:
        assert session.get_one(OutboxMessage, row.id).status == "sent"


def test_a_worker_dying_between_commit_and_sending_leaves_the_reply_to_the_tick(
    runtime: Runtime,
) -> None:
    queue: list[tuple[str, object]] = runtime.enqueue.items  # type: ignore[attr-defined]
    outbox_id = claimed_welcome(runtime)  # committed, and the worker gone before sending
    assert [item for item in queue if item[0] == "send_outbox"] == []
    queue.clear()
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        # Written claimed for the worker that was to send it: no other sender takes it.
        assert (row.status, row.attempts, row.claimed_at) == ("sending", 1, row.created_at)
    assert delivery.deliver(runtime, outbox_id) == "not pending"
    assert sent(runtime) == []
    # Its claim is presumed lost once the sending lease is over: the tick queues it, once.
    lease = timedelta(seconds=runtime.config.sending_lease_seconds)
    assert ticks.tick(runtime, now=row.created_at + lease / 2).requeued_outbox == []
    assert ticks.tick(
        runtime, now=row.created_at + lease + timedelta(seconds=1)
    ).requeued_outbox == [outbox_id]
    drain(runtime)
    assert len(sent(runtime)) == 1
    assert delivery.deliver(runtime, outbox_id) == "not pending"
    assert len(sent(runtime)) == 1
