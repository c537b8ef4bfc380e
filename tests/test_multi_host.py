"""Beyond one machine: two hosts, each with a folder of its own, one PostgreSQL, one Redis and
an SMTP relay, and one host's worker killed (SIGKILL) in the middle of a deadline storm.

Host "north" runs a web process, a Celery worker and `celery beat`; host "south" a web process, a
Celery worker and the SMTP listener (tests/hosts.py). Game masters start 2 de Mayo games by
mail, their players join and mail their orders, each mail coming in through north's webhook,
south's webhook or south's SMTP listener in turn. Then the deadline of most of the games falls at
once while the players of the others mail their orders (those games are played as soon as both
sets are in) and every storm game's master asks for STATUS; north's worker is killed once a
quarter of the storm is played, with a turn in hand. Checked, at the relay and in the database:
every mail answered once, every turn played once, one report of it to each player, and each
host's pages showing every turn and its picture, whichever host's worker played it.

PBEM_MULTI_HOST_STORM and PBEM_MULTI_HOST_LIVE set the numbers of games (50 and 10).
"""

from __future__ import annotations

import itertools
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
import requests
from conftest import free_port, fresh_database, redis_url, smtp_server
from hosts import (
    DOMAIN,
    Delivered,
    Host,
    Relay,
    compose,
    make_host,
    post_mail,
    ready,
    shared_settings,
    smtp_mail,
    start_beat,
    start_listener,
    start_web,
    start_worker,
)
from waiting import Timeout, wait_for

pytestmark = pytest.mark.slow

STORM = int(os.environ.get("PBEM_MULTI_HOST_STORM", "50"))  # games due at the same moment
LIVE = int(os.environ.get("PBEM_MULTI_HOST_LIVE", "10"))  # games whose orders come in meanwhile
ORDERS = {"france": "16-14 x1", "spain": "9-4"}  # a legal opening set each (tests/test_faults.py)
CHANNELS = ("north-http", "south-http", "south-smtp")
BROKER = redis_url("procfile")
# Short leases, as tests/test_faults.py has them: what a dead worker held is taken over within
# seconds, where the defaults take minutes (docs/operations.md, "Several hosts").
LEASES = {
    "PBEM_TICK_SECONDS": "1",
    "PBEM_CLAIM_LEASE_SECONDS": "4",
    "PBEM_QUEUED_LEASE_SECONDS": "8",
    "PBEM_SENDING_LEASE_SECONDS": "8",
}


@dataclass
class Deployment:
    """The two hosts, the relay, and the test's own view of the database."""

    north: Host
    south: Host
    relay: Relay
    dsn: str
    sent: dict[str, str] = field(default_factory=dict)  # Message-ID -> the channel it came by
    killed: set[str] = field(default_factory=set)
    numbers: Iterator[int] = field(default_factory=itertools.count)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.monitor = psycopg.connect(self.dsn, autocommit=True)

    def mail(self, sender: str, to: str, body: str) -> str:
        """A player's mail, through north's webhook, south's webhook or south's SMTP listener in
        turn; its Message-ID."""
        with self.lock:
            number = next(self.numbers)
            message_id = f"<multi-host.{number}@example.com>"
            channel = CHANNELS[number % len(CHANNELS)]
            self.sent[message_id] = channel
        raw = compose(sender, to, body, message_id)
        if channel == "south-smtp":
            smtp_mail(self.south, sender, to, raw)
        else:
            post_mail(self.north if channel == "north-http" else self.south, sender, to, raw)
        return message_id

    # -- what the relay took -----------------------------------------------------------------

    def to(self, address: str, kind: str) -> list[Delivered]:
        return [m for m in self.relay.taken() if m.to == address and m.kind == kind]

    def reply_address(self, address: str, kind: str) -> str:
        """The Reply-To of the first mail of ``kind`` to ``address``, once it is there."""
        try:
            found = self.wait(f"a mail of kind {kind} to {address}", lambda: self.to(address, kind))
        except Timeout as late:
            kinds = [m.kind for m in self.relay.taken() if m.to == address]
            raise AssertionError(f"{late}; the mails to it: {kinds}") from late
        return str(found[0].header("Reply-To"))

    def answers(self) -> dict[str, set[str]]:
        """For each mail sent, the Message-IDs of the mails answering it (In-Reply-To)."""
        found: dict[str, set[str]] = {message_id: set() for message_id in self.sent}
        for mail in self.relay.taken():
            if mail.header("In-Reply-To") in found:
                found[mail.header("In-Reply-To")].add(mail.message_id)
        return found

    # -- waiting, and the database -------------------------------------------------------------

    def wait(self, what: str, probe: Any, timeout: float = 60, every: float = 0.1) -> Any:
        def checked() -> Any:
            for host in (self.north, self.south):
                host.check_alive(self.killed)
            return probe()

        return wait_for(what, checked, timeout, every)

    def value(self, sql: str, *args: Any) -> Any:
        row = self.monitor.execute(sql, args or None).fetchone()
        return None if row is None else row[0]

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return self.monitor.execute(sql, args or None).fetchall()

    def settled(self) -> bool:
        unread = self.value("SELECT count(*) FROM inbound_messages WHERE status = 'received'")
        unsent = self.value("SELECT count(*) FROM outbox WHERE status <> 'sent'")
        return bool(unread == 0 and unsent == 0)

    def wait_answered(self, timeout: float = 120) -> None:
        """Every mail read and answered, every answer handed to the relay."""
        try:
            self.wait(
                "every mail answered",
                lambda: all(self.answers().values()) and self.settled(),
                timeout,
            )
        except Timeout as late:
            unanswered = [m for m, found in self.answers().items() if not found]
            waiting = self.rows("SELECT id FROM inbound_messages WHERE status = 'received'")
            unsent = self.rows("SELECT id, status, kind FROM outbox WHERE status <> 'sent'")
            raise AssertionError(
                f"{late}: unanswered {unanswered[:10]}, inbound waiting {waiting[:10]},"
                f" outbox unsent {unsent[:10]}"
            ) from late


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    broker = redis.Redis.from_url(BROKER)
    broker.flushdb()
    relay = Relay()
    with (
        fresh_database(f"pbem_hosts_{os.getpid()}") as database_url,
        smtp_server(relay) as relay_port,
    ):
        north_port = free_port()
        site = f"http://127.0.0.1:{north_port}"  # where players reach the site
        shared = {**shared_settings(database_url, BROKER, relay_port, site), **LEASES}
        north = make_host("north", tmp_path, shared, north_port)
        south = make_host("south", tmp_path, shared, free_port())
        for host in (north, south):
            start_web(host)
            start_worker(host, concurrency=2)
        start_beat(north)
        start_listener(south)
        print(f"the hosts' folders and logs: {tmp_path}")  # shown when the test fails
        dsn = database_url.replace("postgresql+psycopg://", "postgresql://")
        deployed = Deployment(north, south, relay, dsn)
        try:
            deployed.wait("both hosts up", lambda: ready(north) and ready(south), 90)
            yield deployed
        finally:
            deployed.monitor.close()
            for host in (north, south):
                host.stop()
    broker.flushdb()  # the dead worker's unacknowledged tasks
    broker.close()


# -- the game masters and players ---------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One game as its three people know it: their addresses and the game's reply addresses."""

    number: int
    storm: bool
    seats: dict[str, str]  # seat -> the player's address
    replies: dict[str, str] = field(default_factory=dict)  # address -> its reply address

    @property
    def gm(self) -> str:
        return f"gm.{self.number}@example.com"


def start_games(deployment: Deployment) -> list[Table]:
    """STORM + LIVE games started by mail: NEW from a game master, then a JOIN from each player
    to the invitation's reply address."""
    tables = []
    for number in range(STORM + LIVE):
        table = Table(number, number < STORM, {s: f"{s}.{number}@example.com" for s in ORDERS})
        early = "no" if table.storm else "yes"  # a storm game waits for its deadline
        new = (
            f"NEW 2DEMAYO\nFRANCE {table.seats['france']}\nSPAIN {table.seats['spain']}\n"
            f"SCHEDULE 48h\nEARLY {early}"
        )
        deployment.mail(table.gm, f"new@{DOMAIN}", new)
        tables.append(table)
    for table in tables:
        for player in table.seats.values():
            table.replies[player] = deployment.reply_address(player, "invitation")
            deployment.mail(player, table.replies[player], "JOIN")
    for table in tables:
        for player in table.seats.values():
            table.replies[player] = deployment.reply_address(player, "start")
        table.replies[table.gm] = deployment.reply_address(table.gm, "gm")
    return tables


def mail_orders(deployment: Deployment, tables: list[Table]) -> None:
    for table in tables:
        for seat, player in table.seats.items():
            deployment.mail(player, table.replies[player], ORDERS[seat])


def test_two_hosts_answer_every_mail_and_play_every_turn_once_while_a_worker_dies(
    deployment: Deployment,
) -> None:
    began = time.monotonic()
    tables = start_games(deployment)
    storm = [table for table in tables if table.storm]
    mail_orders(deployment, storm)
    deployment.wait_answered()
    set_up = time.monotonic() - began
    seats = deployment.rows(
        "SELECT p.address, s.game_id FROM seats s JOIN players p ON p.id = s.player_id"
    )
    games = dict(seats)
    storm_ids = sorted({games[table.seats["france"]] for table in storm})
    assert len(storm_ids) == STORM

    # The storm: every storm game due at once, mail coming in all along, north's worker killed.
    deployment.monitor.execute(
        "UPDATE games SET deadline = now() + interval '1 second' WHERE id = ANY(%s)", (storm_ids,)
    )
    due = time.monotonic() + 1
    failures: list[BaseException] = []

    def meanwhile() -> None:
        try:
            mail_orders(deployment, [table for table in tables if not table.storm])
            for table in storm:
                deployment.mail(table.gm, table.replies[table.gm], "STATUS")
        except BaseException as error:  # the test's thread says what went wrong
            failures.append(error)

    players = threading.Thread(target=meanwhile, name="players")
    players.start()
    played = "SELECT count(*) FROM turns WHERE number = 1 AND game_id = ANY(%s)"
    deployment.wait(
        "a quarter of the storm played, and north's worker playing a turn",
        lambda: (
            deployment.value(played, storm_ids) >= STORM // 4
            and deployment.north.in_flight()["adjudicate"] > 0
        ),
        90,
        every=0.02,
    )
    at_the_kill = kill_north_worker(deployment)
    players.join(90)
    assert not players.is_alive() and not failures, failures
    deployment.wait(
        "every turn played",
        lambda: deployment.value("SELECT count(*) FROM turns WHERE number = 1") == len(tables),
        120,
    )
    deployment.wait_answered()
    storm_seconds = time.monotonic() - due

    check_answered_once(deployment, at_the_kill["sending"])
    check_played_once(deployment, tables, games, at_the_kill["sending"])
    check_pages(deployment, storm_ids)
    unacked = check_health(deployment)
    copies = Counter(mail.message_id for mail in deployment.relay.taken())
    twice = sorted(m for m in at_the_kill["sending"] if copies[m] > 1)
    played_by = {
        host.name: host.log("worker").count(" adjudicated (")
        for host in (deployment.north, deployment.south)
    }
    print(
        f"{len(tables)} games set up in {set_up:.1f} s; {len(deployment.sent)} mails in all, by"
        f" {dict(Counter(deployment.sent.values()))}; the storm's deadline -> every mail"
        f" answered {storm_seconds:.1f} s; turns played by {played_by}; at the kill"
        f" {at_the_kill}, of which the relay took twice {twice}; tasks Redis holds as taken"
        f" at the end: {unacked}"
    )


def kill_north_worker(deployment: Deployment) -> dict[str, Any]:
    """SIGKILL north's worker, and say what was under way at that moment: its tasks taken and
    not finished, the mails being handed to the relay (by either worker), the turns claimed and
    not played, the mails stored and not read."""
    tasks = dict(deployment.north.in_flight())  # asked of the worker just before it dies
    deployment.north.kill("worker")
    deployment.killed.add("north:worker")
    sending = deployment.rows("SELECT message_id FROM outbox WHERE status = 'sending'")
    return {
        "tasks": tasks,
        "sending": {message_id for (message_id,) in sending},
        "claimed": deployment.value(
            "SELECT count(*) FROM games g WHERE claimed_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.game_id = g.id AND t.number = 1)"
        ),
        "unread": deployment.value(
            "SELECT count(*) FROM inbound_messages WHERE status = 'received'"
        ),
    }


def check_answered_once(deployment: Deployment, in_doubt: set[str]) -> None:
    """Each mail stored once, read, and answered by one mail; each mail the relay took once, but
    those being handed over when the worker died (``in_doubt``): the relay may have taken one of
    them just before, and then takes it again from the worker that sends it after the lease."""
    rows = deployment.rows("SELECT dedupe_key, status FROM inbound_messages")
    stored = {key.removeprefix("mid:"): status for key, status in rows}
    assert len(rows) == len(stored) and set(stored) == set(deployment.sent)
    assert set(stored.values()) == {"done"}, Counter(stored.values())
    problems = [
        f"{m} answered by {sorted(a)}" for m, a in deployment.answers().items() if len(a) != 1
    ]
    copies = Counter(mail.message_id for mail in deployment.relay.taken())
    problems += [
        f"{message_id} taken {count} times"
        for message_id, count in copies.items()
        if count > (2 if message_id in in_doubt else 1)
    ]
    outbox = {message_id for (message_id,) in deployment.rows("SELECT message_id FROM outbox")}
    problems += [f"{m} never reached the relay" for m in outbox - set(copies)]
    problems += [f"{m} reached the relay from no outbox row" for m in set(copies) - outbox]
    assert not problems, "\n".join(problems[:30])


def check_played_once(
    deployment: Deployment, tables: list[Table], games: dict[str, int], in_doubt: set[str]
) -> None:
    """Turns 0 and 1 of every game, each once, turn 1 for the reason expected; one report of it
    to each player."""
    turns = Counter(deployment.rows("SELECT game_id, number FROM turns"))
    ids = {games[table.seats["france"]] for table in tables}
    assert [key for key, count in turns.items() if count > 1] == []
    assert set(turns) == {(game_id, number) for game_id in ids for number in (0, 1)}
    reasons = Counter(
        deployment.rows(
            "SELECT t.reason, g.early FROM turns t JOIN games g ON g.id = t.game_id"
            " WHERE t.number = 1"
        )
    )
    assert reasons == {("deadline", False): STORM, ("all-submitted", True): LIVE}, reasons
    for table in tables:
        for player in table.seats.values():
            reports = [m.message_id for m in deployment.to(player, "report")]
            assert len(set(reports)) == 1, (player, reports)
            assert len(reports) == 1 or (len(reports) == 2 and reports[0] in in_doubt), reports


def check_pages(deployment: Deployment, storm_ids: list[int]) -> None:
    """Each host's pages show turns played by either host's worker, and each host serves the
    picture the other's page names."""
    hosts = (deployment.north, deployment.south)
    for game_id in storm_ids[:: max(1, len(storm_ids) // 6)]:
        for host, other in zip(hosts, reversed(hosts), strict=True):
            page = requests.get(f"{host.web}/games/{game_id}/turns/1", timeout=30)
            assert page.status_code == 200, (host.name, game_id)
            picture = re.search(rf"/games/{game_id}/turns/1/[0-9a-f]{{20}}\.png", page.text)
            assert picture is not None, (host.name, game_id)
            drawn = requests.get(other.web + picture.group(0), timeout=30)
            assert drawn.status_code == 200, (other.name, picture.group(0))
            assert drawn.headers["Content-Type"] == "image/png"
            api = requests.get(f"{host.web}/api/games/{game_id}/turns/1", timeout=30)
            assert api.status_code == 200 and api.json()["number"] == 1, api.text[:300]


def check_health(deployment: Deployment) -> dict[str, int]:
    """Each host's /healthz: nothing left to read, send or play. Returns how many tasks Redis
    holds as taken, as each host saw it: the dead worker's, until Redis's visibility timeout
    hands them on, and whatever the live one is running (a tick, once a second)."""
    unacked = {}
    for host in (deployment.north, deployment.south):
        health = requests.get(host.web + "/healthz", timeout=30)
        assert health.status_code == 200, health.text
        found = health.json()
        assert (found["inbound_pending"], found["outbox_pending"], found["due_games"]) == (0, 0, 0)
        unacked[host.name] = int(found["queue_unacked"])
    return unacked
