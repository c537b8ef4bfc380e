"""A turn's mails sent in one task: over one SMTP connection, or into the Maildir with one flush."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import smtp_server
from sqlalchemy import select, update

from adjudicator.models import Game, OutboxMessage
from adjudicator.services.outbound import delivery, relay
from adjudicator.services.record.runtime import Runtime, Task
from adjudicator.services.turns import lifecycle, ticks
from adjudicator.services.turns.lifecycle import GameSettings

PLAYERS = {"france": "a@example.com", "spain": "b@example.com"}
OTHERS = {"france": "c@example.com", "spain": "d@example.com"}


def outbox_ids(runtime: Runtime, players: dict[str, str] = PLAYERS) -> list[int]:
    """Start a 2 de Mayo game: its welcome mails, one a seat, wait in the outbox, unsent."""
    with runtime.db.session() as session:
        before = set(session.scalars(select(OutboxMessage.id)))
    with runtime.db.session() as session:
        game = lifecycle.start_game(session, runtime, GameSettings("2demayo", players, {}, "48h"))
        assert isinstance(game, Game), game
    with runtime.db.session() as session:
        ids = sorted(set(session.scalars(select(OutboxMessage.id))) - before)
    assert len(ids) == len(players)
    return ids


def statuses(runtime: Runtime) -> list[str]:
    with runtime.db.session() as session:
        return list(session.scalars(select(OutboxMessage.status).order_by(OutboxMessage.id)))


@dataclass
class Sink:
    """A relay that keeps what it is sent, and which connection each mail came over; it closes a
    connection (421) at its ``per_connection`` + 1st mail, as relays with such a limit do."""

    per_connection: int = 1000
    refuse: str = ""
    received: list[tuple[str, bytes]] = field(default_factory=list)
    connections: Counter[int] = field(default_factory=Counter)

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if self.connections[id(session)] >= self.per_connection:
            return "421 4.7.0 too many mails on one connection, closing"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address == self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.connections[id(session)] += 1
        self.received.append((envelope.rcpt_tos[0], envelope.original_content))
        return "250 OK"


@pytest.fixture
def sink() -> Iterator[tuple[Sink, int]]:
    handler = Sink()
    with smtp_server(handler) as port:
        yield handler, port


def test_a_turns_mails_go_out_over_one_connection(runtime: Runtime, sink: tuple[Sink, int]) -> None:
    handler, port = sink
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    players = {"france": "a@example.com", "spain": "b@example.com"}
    ids = outbox_ids(runtime, players) + outbox_ids(runtime, OTHERS)
    assert delivery.deliver_many(runtime, ids) == ["sent"] * 4
    assert sorted(to for to, _ in handler.received) == [
        "a@example.com",
        "b@example.com",
        "c@example.com",
        "d@example.com",
    ]
    assert list(handler.connections.values()) == [4]
    assert statuses(runtime) == ["sent"] * 4
    # A copy of the task, or a second worker: nothing sent again.
    assert delivery.deliver_many(runtime, ids) == ["not pending"] * 4
    assert len(handler.received) == 4


@dataclass
class Watching(Sink):
    """A relay that looks, as each mail comes, at what the outbox says of every mail."""

    runtime: Runtime | None = None
    seen: list[list[str]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        assert self.runtime is not None
        self.seen.append(statuses(self.runtime))
        return await super().handle_DATA(server, session, envelope)


def test_each_mail_the_relay_took_is_recorded_sent_before_the_next_is_handed_over(
    runtime: Runtime,
) -> None:
    """A worker that dies halfway through a task leaves only the mail it was handing over to be
    sent again, not those the relay had taken before it."""
    handler = Watching(runtime=runtime)
    with smtp_server(handler) as port:
        runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
        ids = outbox_ids(runtime) + outbox_ids(runtime, OTHERS)
        assert delivery.deliver_many(runtime, ids) == ["sent"] * 4
    assert handler.seen == [["sent"] * n + ["sending"] * (4 - n) for n in range(4)]
    assert statuses(runtime) == ["sent"] * 4


def test_a_dropped_connection_is_opened_again_once_and_nothing_is_lost_or_doubled(
    runtime: Runtime, sink: tuple[Sink, int]
) -> None:
    handler, port = sink
    handler.per_connection = 1  # the relay closes the connection after each mail
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    ids = outbox_ids(runtime) + outbox_ids(runtime, OTHERS)
    assert delivery.deliver_many(runtime, ids) == ["sent"] * 4
    assert len(handler.received) == 4 and list(handler.connections.values()) == [1, 1, 1, 1]


def test_a_dead_relay_fails_each_mail_for_a_later_try(runtime: Runtime) -> None:
    from conftest import free_port

    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{free_port()}")
    ids = outbox_ids(runtime)
    assert delivery.deliver_many(runtime, ids) == ["pending"] * 2
    assert delivery.deliver_many(runtime, ids) == ["not due"] * 2  # backing off
    with runtime.db.session() as session:
        rows = session.scalars(select(OutboxMessage)).all()
        assert all(row.attempts == 1 and "refused" in row.last_error.lower() for row in rows)


def test_a_refused_recipient_bounces_alone(runtime: Runtime, sink: tuple[Sink, int]) -> None:
    handler, port = sink
    handler.refuse = "b@example.com"
    runtime.config = runtime.config.with_overrides(smtp_url=f"smtp://127.0.0.1:{port}")
    ids = outbox_ids(runtime)
    assert delivery.deliver_many(runtime, ids) == ["sent", "bounced"]
    assert [to for to, _ in handler.received] == ["a@example.com"]
    assert list(handler.connections.values()) == [1]  # the refusal kept the connection
    with runtime.db.session() as session:
        bounce = session.scalars(select(OutboxMessage.bounce).where(OutboxMessage.id == ids[1]))
        assert bounce.one().startswith("5.1.1 550")


def test_the_maildir_takes_a_batch_with_one_flush_and_never_duplicates(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = outbox_ids(runtime) + outbox_ids(runtime, OTHERS)
    fsyncs: list[int] = []
    real_fsync = os.fsync

    def counted(descriptor: int) -> None:
        fsyncs.append(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    assert delivery.deliver_many(runtime, ids) == ["sent"] * 4
    folder = runtime.config.outbox_dir
    files = sorted(path.name for path in (folder / "new").iterdir())
    assert len(files) == 4 and list((folder / "tmp").iterdir()) == []
    # One flush of the file system (syncfs) for the files' data, one fsync of new/ for names.
    assert len(fsyncs) == (1 if relay._syncfs() is not None else 5)
    for outbox_id in ids:
        assert sum(f".pbem{outbox_id}." in name for name in files) == 1
    with runtime.db.session() as session:  # as if the worker died after filing them
        session.execute(update(OutboxMessage).values(status="pending"))
    assert delivery.deliver_many(runtime, ids) == ["sent"] * 4
    assert sorted(path.name for path in (folder / "new").iterdir()) == files


def test_one_transaction_queues_its_mails_as_one_task(runtime: Runtime) -> None:
    batches: list[tuple[str, list[int]]] = []
    runtime.enqueue_many = lambda task, record_ids: batches.append((task, record_ids))
    queue: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    queue.clear()
    ids = outbox_ids(runtime)
    assert batches == [(Task.SEND_OUTBOXES, ids)]
    assert [item for item in queue if item[0] == "send_outbox"] == []
    # Without a queue that takes lists, each mail goes as send_outbox.
    runtime.enqueue_many = None
    more = outbox_ids(runtime, OTHERS)
    assert [item for item in queue if item[0] == "send_outbox"] == [
        ("send_outbox", outbox_id) for outbox_id in more
    ]


def test_the_tick_queues_lost_mail_in_batches(runtime: Runtime) -> None:
    from datetime import timedelta

    from adjudicator.models import utcnow

    batches: list[tuple[str, list[int]]] = []
    runtime.enqueue_many = lambda task, record_ids: batches.append((task, record_ids))
    ids = outbox_ids(runtime)
    batches.clear()
    with runtime.db.session() as session:  # their task was lost with the broker
        lost = utcnow() - ticks.waiting_lease(runtime) - timedelta(minutes=1)
        session.execute(update(OutboxMessage).values(created_at=lost))
    assert ticks.tick(runtime).requeued_outbox == ids
    assert batches == [(Task.SEND_OUTBOXES, ids)]


def test_what_counts_as_the_relay_dropping_the_connection() -> None:
    """Tried again on a new connection: a closed connection, a 421 before the data. Never a
    refusal of the mail itself (it would be sent twice, or bounce late)."""
    import smtplib

    assert relay.dropped(smtplib.SMTPServerDisconnected("Connection unexpectedly closed"))
    assert relay.dropped(ConnectionResetError())
    assert relay.dropped(smtplib.SMTPSenderRefused(421, b"closing", "b@x"))
    assert relay.dropped(smtplib.SMTPRecipientsRefused({"a@x": (421, b"closing")}))
    assert not relay.dropped(smtplib.SMTPRecipientsRefused({"a@x": (550, b"no such user")}))
    assert not relay.dropped(smtplib.SMTPSenderRefused(451, b"try later", "b@x"))
    assert not relay.dropped(smtplib.SMTPDataError(554, b"rejected"))
