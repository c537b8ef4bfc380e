"""The database round trips of the two hot paths on PostgreSQL, counted on the wire: processing
one order mail (the ``process_inbound`` task, which sends its reply itself: the claim and the
record of that sending are counted with it) and playing one turn (the ``adjudicate`` task).

Each trip is a wait on the network, on a server many workers share; a lazy load or a check
added in passing costs one per mail or per turn, unseen in any other test. So every trip is
counted as libpq sends it (its protocol trace: one per simple Query, one per Sync of the
extended protocol, which is how psycopg sends BEGIN, COMMIT, ROLLBACK, the pool's pings and
every statement), and a failure lists them in order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dos_de_mayo_by_mail import DOS, FRANCE, SPAIN, position, start_dos_de_mayo
from playbymail import compose, drain
from psycopg.pq import Trace
from sqlalchemy import event, select, text, update

from adjudicator import db
from adjudicator.models import Game, OutboxMessage, Player, Turn
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.record import reasons
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines

# Round trips at most, per order mail and per turn.
BUDGET = 14


@dataclass
class Traced:
    """One connection's libpq trace: the file it writes, and how far it was read."""

    pgconn: Any
    path: Path
    read: int = 0


@dataclass
class Wire:
    """The protocol messages every connection of an engine sends, from libpq's own trace."""

    folder: Path
    traced: list[Traced] = field(default_factory=list)
    opened: int = 0

    def connected(self, dbapi_connection: Any, _record: Any) -> None:
        self.opened += 1
        path = self.folder / f"trace-{len(self.traced)}.txt"
        path.touch()
        traced = Traced(dbapi_connection.pgconn, path)
        self._trace(traced)
        self.traced.append(traced)

    def _trace(self, traced: Traced) -> None:
        # libpq writes through a buffered stream of its own: a new one on each (re)start.
        traced.pgconn.trace(os.open(traced.path, os.O_WRONLY | os.O_APPEND))
        traced.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)

    def flushed(self) -> None:
        """Everything sent so far is in the files (untracing flushes libpq's stream)."""
        for traced in self.traced:
            if traced.pgconn.status == 0:  # CONNECTION_OK: a closed one has nothing to add
                traced.pgconn.untrace()
                self._trace(traced)

    def take(self) -> list[str]:
        """The round trips sent since the last ``take``: each as the statement it carried."""
        self.flushed()
        trips: list[str] = []
        for number, traced in enumerate(self.traced):
            data = traced.path.read_text(errors="replace")
            new, traced.read = data[traced.read :], len(data)
            trips += [f"[connection {number}] {trip}" for trip in _trips(new)]
        return trips


def _trips(trace: str) -> list[str]:
    """A trace's round trips: a simple Query each, or what went before each Sync."""
    trips: list[str] = []
    carried: list[str] = []
    for line in trace.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or parts[0] != "F":
            continue
        kind, rest = parts[2], parts[3].strip() if len(parts) > 3 else ""
        if kind == "Query":
            trips.append(rest[:200])
        elif kind == "Parse":
            carried.append(rest[:200])
        elif kind == "Bind" and not carried:
            carried.append("prepared " + rest[:60])
        elif kind == "Sync":
            trips.append(" ; ".join(carried) or "Sync")
            carried = []
    return trips


@pytest.fixture
def wire(runtime: Runtime, tmp_path: Path) -> Wire:
    """The runtime's connections traced from their first message on."""
    traces = tmp_path / "traces"
    traces.mkdir()
    found = Wire(traces)
    event.listen(runtime.db.engine, "connect", found.connected)
    runtime.db.engine.dispose()  # the migration's connections were opened untraced
    return found


@dataclass
class Counted:
    trips: list[str] = field(default_factory=list)
    opened: int = 0


@contextmanager
def counting(wire: Wire) -> Iterator[Counted]:
    wire.take()
    opened = wire.opened
    counted = Counted()
    yield counted
    counted.trips = wire.take()
    counted.opened = wire.opened - opened


def account(what: str, counted: Counted) -> tuple[int, str]:
    """The round trips counted, and a page that lists them: what a reader needs to see what
    crept in."""
    listed = "\n".join(f"  {number:2}. {trip}" for number, trip in enumerate(counted.trips, 1))
    # A new connection's start-up is trips of its own, sent before its trace begins.
    total = len(counted.trips) + counted.opened
    page = f"{what}: {total} round trips ({counted.opened} new connections)\n{listed}"
    print(page)
    return total, page


def process_one(runtime: Runtime, wire: Wire, sender: str, to: str, body: str) -> Counted:
    """Store a player's mail, then process it as the process_inbound task does, counted."""
    stored = inbox.store(runtime, compose(sender, to, body), source="test", envelope_to=[])
    assert isinstance(stored, inbox.Stored)
    queued: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    queued.remove(("process_inbound", stored.id))
    with counting(wire) as counted:
        verdict = pipeline.process(runtime, stored.id)
    assert verdict.status == "done" and verdict.reason == "orders stored", verdict
    with runtime.db.session() as session:
        reply = session.scalars(
            select(OutboxMessage).where(OutboxMessage.key == f"inbound:{stored.id}:reply")
        ).one()
        assert reply.status == "sent", "the reply is sent, and its round trips counted, here"
    assert ("send_outbox", reply.id) not in queued
    return counted


def adjudicate_one(runtime: Runtime, wire: Wire, game_id: int, late: bool) -> Counted:
    """Play the game's turn as the adjudicate task does (past its deadline if ``late``)."""
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    now = deadline + timedelta(seconds=1) if late else None
    queued: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    if ("adjudicate", game_id) in queued:
        queued.remove(("adjudicate", game_id))
    with counting(wire) as counted:
        done = deadlines.adjudicate(runtime, game_id, now=now)
    assert isinstance(done, deadlines.Adjudicated), done
    assert done.why == (reasons.DEADLINE if late else reasons.ALL_SUBMITTED), done
    return counted


def legal_orders(runtime: Runtime, game_id: int, seat: str) -> str:
    written = DOS.orders_text(next(iter(DOS.legal_orders(position(runtime, game_id), seat))))
    assert written is not None
    return written


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
@pytest.mark.parametrize("france_reads", ["en", "ru"])
def test_an_order_mail_and_a_turn_stay_within_their_round_trips(
    runtime: Runtime, wire: Wire, france_reads: str
) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    # A reader of another language is shown the turn's map drawn anew in theirs, for no trip
    # more (the stored English one is never read for them).
    with runtime.db.session() as session:
        session.execute(
            update(Player).where(Player.address == FRANCE).values(language=france_reads)
        )
    counted: dict[str, Counted] = {}
    body = "TAKE MURAT\n16-14 x1\nDRAW"
    counted["the first order mail"] = process_one(runtime, wire, FRANCE, addresses[FRANCE], body)
    drain(runtime)
    body = "9-14\nNODRAW"
    counted["the last order mail"] = process_one(runtime, wire, SPAIN, addresses[SPAIN], body)
    queued: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    assert ("adjudicate", game_id) in queued, "the last orders start the turn early"
    counted["a turn with every order in"] = adjudicate_one(runtime, wire, game_id, late=False)
    drain(runtime)
    body = legal_orders(runtime, game_id, "france")
    counted["an order mail of turn 2"] = process_one(runtime, wire, FRANCE, addresses[FRANCE], body)
    drain(runtime)
    counted["a turn at its deadline"] = adjudicate_one(runtime, wire, game_id, late=True)
    drain(runtime)
    over = [page for total, page in map(account, counted, counted.values()) if total > BUDGET]
    assert not over, f"over the budget of {BUDGET} round trips:\n" + "\n".join(over)
    # The new turn's map is in memory when its reports are written: none reads it back.
    trips = [trip for c in counted.values() for trip in c.trips]
    read = [trip for trip in trips if "public_png" in trip and "INSERT INTO turns" not in trip]
    assert not read, read


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_turns_picture_is_stored_as_is_and_read_only_when_asked(runtime: Runtime) -> None:
    with runtime.db.engine.connect() as connection:
        storage = connection.execute(
            text(
                "SELECT attstorage FROM pg_attribute"
                " WHERE attrelid = 'turns'::regclass AND attname = 'public_png'"
            )
        ).scalar()
    assert storage == "e", "PNG bytes do not compress: STORAGE EXTERNAL spares the attempt"
    game_id, _ = start_dos_de_mayo(runtime)
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id)).one()
        assert "public_png" not in turn.__dict__, "the picture is loaded with every turn read"
        assert turn.public_png.startswith(b"\x89PNG")


def backend(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return int(session.scalar(text("SELECT pg_backend_pid()")) or 0)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_pooled_connection_the_server_ended_is_never_handed_out(
    runtime: Runtime, wire: Wire
) -> None:
    """No ping per checkout, and still no dead connection used: the server's farewell on the
    idle socket is seen before the connection is handed out."""
    ended = backend(runtime)
    dsn = runtime.config.database_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (ended,))
        for _ in range(100):
            gone = admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (ended,))
            if gone.fetchone() is None:
                break
            time.sleep(0.05)
    assert backend(runtime) != ended
    assert wire.opened == 2


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_connection_idle_for_long_is_pinged_before_use(
    runtime: Runtime, wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A peer gone without a word (a network cut) is found only by asking: a connection idle
    for long is pinged; one just used is not."""
    backend(runtime)
    with counting(wire) as fresh:
        backend(runtime)
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)
    with counting(wire) as idle:
        backend(runtime)
    assert len(idle.trips) == len(fresh.trips) + 1, (fresh.trips, idle.trips)
    assert idle.trips[0].endswith('";"'), idle.trips
