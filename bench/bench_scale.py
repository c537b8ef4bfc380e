"""The scale configuration, started locally and driven with bounded load from loopback.

Starts what the Procfile runs at scale, each a real process with PBEM_* settings: gunicorn with
--web-workers workers, --celery-workers `celery worker` processes (by default the two-core row
of docs/operations.md's sizing table: 2 and 1 of concurrency 3), one `celery beat`, the SMTP
listener (`pbem smtp`), a redis-server of its own on a free loopback port and a fresh PostgreSQL
database made for the run; outbound mail goes to a Maildir in a temporary folder. Then:

a) an inbound burst: --mails mails (default 10,000) to --inbound-games games (half Thermopyles,
   half 2 de Mayo; more games when needed to keep every sender under the hourly limit), every
   other one POSTed to /inbound/mime and the rest sent over SMTP (--clients connections each).
   Checked: every mail stored (one inbound row per Message-ID), every mail answered exactly once
   (one Maildir file whose In-Reply-To is its Message-ID). Measured: mails/s accepted and
   answered, and send -> reply written (the Maildir file's mtime), p50/p90/p99.
   Halfway through it, the deadline of --mid-games games of 2 de Mayo (default 500) passes:
   measured, deadline -> their last report, while the burst goes on (bench/scale_mid.py).
b) a deadline storm: --games games of 2 de Mayo (default 5,000) whose deadlines all fall at the
   same moment; beat's tick finds them. Measured: deadline -> last report in the Maildir, games/s.

Each phase also reports the CPU seconds each group of processes spent in it (bench/scale_cpu.py),
so that where the two cores go is measured, not guessed.
Figures go to --out (default bench/results/scale-<UTC time>/): results.json, summary.txt,
latency.png (the send -> reply histogram), storm.png (reports out over time), the process logs.
Everything started is stopped and the database dropped at the end, also on Ctrl-C or failure.
Exit status 1 when a check failed. The summary ends with the targets (bench/scale_mid.py).
--against DIR runs the same bench against another checkout's tree, then this one, in turn, and
writes a comparison with ratios (bench/scale_compare.py).

    .venv/bin/python bench/bench_scale.py --mails 400 --games 200     # a quick run
    .venv/bin/python bench/bench_scale.py                              # the full run
    .venv/bin/python bench/bench_scale.py --against /tmp/pbem-before   # before and after

The storm's games are copies, made in SQL, of a few games made by the services (each copy with
its own players, reply addresses and chance stream); the burst's games are made by the services.
Setup skips the welcome mails, so the Maildir holds only what the run is measuring.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import json
import math
import multiprocessing
import os
import re
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import redis
import scale_cpu
import scale_mid

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PG_ADMIN = os.environ.get("PBEM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
TOKEN = "scale-bench-inbound-token"
SECRET = "scale-bench-secret"
DOMAIN = "pbem.localhost"
SENDER_LIMIT = 60  # config/default.toml's sender_limit_per_hour: the run stays under it
TEMPLATES = 8  # storm games made by the services; the rest are copies of these
FILE_ID = re.compile(r"\.pbem(\d+)\.")
ORDERS = {"france": "16-14 x1"}  # a legal opening order set (tests/test_faults.py)


# -- small helpers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


STARTED = time.monotonic()


def note(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:7.1f} s] {text}", file=sys.stderr, flush=True)


class Abort(Exception):
    """The run cannot go on (a process died, a wait ran out)."""


def until(what: str, probe: Callable[[], Any], timeout: float, every: float = 0.1) -> Any:
    limit = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > limit:
            raise Abort(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(every)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile of sorted ``values``."""
    if not values:
        return float("nan")
    rank = max(1, math.ceil(share * len(values)))
    return values[rank - 1]


class Progress:
    """One stderr line, rewritten in place on a terminal and every 10 s otherwise."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total = label, total
        self.started = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.last_plain = 0.0

    def show(self, done: int, detail: str = "") -> None:
        elapsed = time.monotonic() - self.started
        share = done / self.total if self.total else 1.0
        bar = "#" * int(share * 30)
        line = f"{self.label} [{bar:<30}] {done}/{self.total} {elapsed:6.1f} s {detail}"
        if self.tty:
            sys.stderr.write("\r" + line[:150].ljust(150))
            sys.stderr.flush()
        elif elapsed - self.last_plain >= 10:
            self.last_plain = elapsed
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


# -- the run's settings and its processes -------------------------------------------------------


@dataclass
class Plan:
    mails: int
    games: int
    inbound_games: int
    web_workers: int
    celery_workers: int
    concurrency: int
    clients: int
    tick_seconds: int
    timeout: float
    out: Path
    mid_games: int = 0
    tree: Path = ROOT  # the service's code: this checkout's, or another's (--against)


@dataclass
class Site:
    """Where everything of this run lives."""

    folder: Path
    database: str
    database_url: str
    dsn: str
    broker_url: str
    web_port: int
    smtp_port: int
    env: dict[str, str] = field(default_factory=dict)

    @property
    def maildir(self) -> Path:
        return self.folder / "var" / "outbox" / "new"


class Processes:
    """The started processes, each in its own session so a Ctrl-C reaches only the harness."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.started: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        log = (self.site.folder / f"{name}.log").open("wb")
        self.started[name] = subprocess.Popen(
            command,
            env=env or self.site.env,
            cwd=self.site.folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self, name: str) -> str:
        path = self.site.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def check_alive(self) -> None:
        for name, process in self.started.items():
            if process.poll() is not None:
                tail = "\n".join(self.log(name).splitlines()[-15:])
                raise Abort(f"{name} exited with {process.returncode}:\n{tail}")

    def stop(self) -> None:
        """Everything but Redis first (the workers finish their tasks), then Redis."""
        last = [p for name, p in self.started.items() if name == "redis"]
        first = [p for name, p in self.started.items() if name != "redis"]
        self._stop(first)
        self._stop(last)

    def _stop(self, group: list[subprocess.Popen[bytes]]) -> None:
        for process in group:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
        limit = time.monotonic() + 20
        for process in group:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.1, limit - time.monotonic()))
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # what is left of its group (pool children)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)

    def pids(self) -> dict[str, int]:
        return {name: process.pid for name, process in self.started.items()}

    def mark(self) -> dict[str, int]:
        """Where each worker's log ends now."""
        return {
            name: (self.site.folder / f"{name}.log").stat().st_size
            for name in self.started
            if name.startswith("worker")
        }

    def tasks(self, since: dict[str, int]) -> dict[str, dict[str, Any]]:
        """Celery task runs since ``since``, per task: runs, seconds (total, longest), results."""
        pattern = re.compile(
            r"Task pbem\.(\w+)\[[^\]]+\] (?:succeeded in ([0-9.]+)s: (.*?)(?: \(cpu ([0-9.]+)s\))?$"
            r"|raised)",
            re.MULTILINE,
        )
        found: dict[str, dict[str, Any]] = {}
        for name, offset in since.items():
            with (self.site.folder / f"{name}.log").open("rb") as handle:
                handle.seek(offset)
                text = handle.read().decode(errors="replace")
            for task, seconds, said, cpu in pattern.findall(text):
                entry = found.setdefault(
                    task,
                    {"runs": 0, "seconds": 0.0, "cpu": 0.0, "longest_s": 0.0, "results": Counter()},
                )
                entry["runs"] += 1
                entry["seconds"] += float(seconds or 0)
                entry["cpu"] += float(cpu or 0)  # the task's own CPU (workers/costs.py)
                entry["longest_s"] = max(entry["longest_s"], float(seconds or 0))
                if task != "tick":
                    entry["results"][said.strip("'\"") or "raised"] += 1
        for entry in found.values():
            entry["seconds"] = round(entry["seconds"], 1)
            entry["cpu"] = round(entry["cpu"], 3)
            entry["longest_s"] = round(entry["longest_s"], 2)
            entry["results"] = dict(entry["results"])
        return found


def start_service(plan: Plan, site: Site, processes: Processes) -> None:
    """The Procfile's processes with the plan's numbers of workers."""
    redis_port = int(site.broker_url.rsplit(":", 1)[1].split("/")[0])
    processes.start(
        "redis",
        [
            *("redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""),
            *("--appendonly", "no", "--daemonize", "no", "--dir", str(site.folder)),
        ],
    )
    until("redis-server", lambda: _answers(site.broker_url), 15)
    processes.start(
        "web",
        [
            str(BIN / "gunicorn"),
            *("--workers", str(plan.web_workers), "--bind", f"127.0.0.1:{site.web_port}"),
            *("--log-level", "warning", "adjudicator.wsgi:app"),
        ],
    )
    for n in range(1, plan.celery_workers + 1):
        processes.start(
            f"worker{n}",
            [
                *(str(BIN / "celery"), "-A", "workers.app", "worker", "--loglevel=INFO"),
                *("--concurrency", str(plan.concurrency), "-n", f"scale{n}@%h"),
                # As the Procfile runs them: no events between workers, which nothing reads.
                *("--without-heartbeat", "--without-gossip", "--without-mingle"),
            ],
        )
    processes.start("beat", [str(BIN / "celery"), "-A", "workers.app", "beat", "--loglevel=INFO"])
    processes.start("smtp", [str(BIN / "pbem"), "smtp"])

    def ready() -> bool:
        processes.check_alive()
        workers = all(
            " ready." in processes.log(f"worker{n}") for n in range(1, plan.celery_workers + 1)
        )
        return workers and _web_answers(site.web_port) and _smtp_answers(site.smtp_port)

    until("the service to start", ready, 90, every=0.3)


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def _web_answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        # /healthz, not the game list: that one grows with the games set up, and under load
        # it outlasted gunicorn's timeout before the run had even begun.
        connection.request("GET", "/healthz")
        status = connection.getresponse().status
        connection.close()
        return status == 200
    except OSError:
        return False


def _smtp_answers(port: int) -> bool:
    try:
        smtplib.SMTP("127.0.0.1", port, timeout=5).quit()
        return True
    except (OSError, smtplib.SMTPException):
        return False


# -- setup: games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatAddress:
    game_id: int
    game: str
    seat: str
    player: str
    reply_to: str


def _no_welcome(*_args: Any, **_kwargs: Any) -> None:
    """Setup skips the welcome mails: the Maildir then holds only what the run measures."""


def make_games(job: tuple[dict[str, str], str, list[int]]) -> list[list[SeatAddress]]:
    """Games through the services, in a pool process; a list of seat addresses per game."""
    env, kind, numbers = job
    from adjudicator import config as configuration
    from adjudicator.db import Database
    from adjudicator.games import registry
    from adjudicator.models import Game
    from adjudicator.services.outbound import reports
    from adjudicator.services.record import play
    from adjudicator.services.record.runtime import Runtime
    from adjudicator.services.turns import lifecycle
    from adjudicator.services.turns.lifecycle import GameSettings

    reports.game_started = _no_welcome
    config = configuration.load(environ=env)
    database = Database(config.database_url)
    runtime = Runtime(config, database)  # no queue: nothing is sent
    made = []
    for n in numbers:
        with database.session() as session:
            if kind == "thermopyles":
                rules = registry.get("thermopyles")
                assert rules is not None
                player = play.player_for(session, f"leonidas.{n}@example.com")
                game = play.create_game(session, runtime, rules, {rules.seats[0]: player}, {})
            else:
                game = lifecycle.start_game(
                    session,
                    runtime,
                    GameSettings(
                        "2demayo",
                        {
                            "france": f"france.{kind}{n}@example.com",
                            "spain": f"spain.{kind}{n}@example.com",
                        },
                        {},
                        "48h",
                        "UTC",
                    ),
                )
            assert isinstance(game, Game), game
            made.append(
                [
                    SeatAddress(
                        game.id,
                        game.game_key,
                        seat.seat,
                        seat.player.address,
                        play.seat_address(runtime, game, seat),
                    )
                    for seat in game.seats
                ]
            )
    database.dispose()
    return made


def _default_signals() -> None:
    """Pool processes end as pool processes do, not through the harness's own handlers."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def in_pool(env: dict[str, str], counts: dict[str, int]) -> dict[str, list[list[SeatAddress]]]:
    """``counts[kind]`` games of each kind, made by two processes."""
    jobs = [(env, kind, list(range(i, n, 2))) for kind, n in counts.items() for i in range(2)]
    with multiprocessing.get_context("fork").Pool(2, initializer=_default_signals) as pool:
        parts = pool.map(make_games, jobs, chunksize=1)
    made: dict[str, list[list[SeatAddress]]] = {kind: [] for kind in counts}
    for (_, kind, _), part in zip(jobs, parts, strict=True):
        made[kind] += part
    return made


def copy_games(dsn: str, templates: list[int], copies: int) -> list[int]:
    """``copies`` new games in SQL, each a copy of one template game (turn 0, seats) with its own
    players, reply-address keys and chance stream. Returns the new game ids."""
    if copies <= 0:
        return []
    with psycopg.connect(dsn) as connection:

        def columns(table: str) -> list[str]:
            rows = connection.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s"
                " AND table_schema = current_schema() ORDER BY ordinal_position",
                (table,),
            ).fetchall()
            return [row[0] for row in rows if row[0] != "id"]

        def insert(table: str, alias: str, source: str, overrides: dict[str, str]) -> None:
            names = columns(table)
            chosen = ", ".join(overrides.get(name, f"{alias}.{name}") for name in names)
            connection.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} {source}")

        count = len(templates)
        connection.execute(
            "CREATE TEMP TABLE clone_map (g int PRIMARY KEY, template bigint, game_id bigint)"
        )
        connection.execute(
            "INSERT INTO clone_map (g, template) SELECT g, (%s::bigint[])[g %% %s + 1]"
            " FROM generate_series(1, %s) g",
            (templates, count, copies),
        )
        insert(
            "games",
            "t",
            "FROM clone_map m JOIN games t ON t.id = m.template",
            {"thread_id": "'clone:' || m.g", "created_at": "now()", "last_activity": "now()"},
        )
        connection.execute(
            "UPDATE clone_map m SET game_id = g.id FROM games g WHERE g.thread_id = 'clone:' || m.g"
        )
        connection.execute(
            "UPDATE games g SET stream = 'game-' || g.id,"
            " thread_id = '<game.' || g.id || '.start@" + DOMAIN + ">'"
            " FROM clone_map m WHERE g.id = m.game_id"
        )
        address = "s.seat || '.storm' || m.g || '@example.com'"
        insert(
            "players",
            "p",
            "FROM clone_map m JOIN seats s ON s.game_id = m.template"
            " JOIN players p ON p.id = s.player_id",
            {"address": address, "created_at": "now()"},
        )
        insert(
            "seats",
            "s",
            "FROM clone_map m JOIN seats s ON s.game_id = m.template"
            f" JOIN players p ON p.address = {address}",
            {"game_id": "m.game_id", "player_id": "p.id"},
        )
        insert(
            "turns",
            "t",
            "FROM clone_map m JOIN turns t ON t.game_id = m.template",
            {"game_id": "m.game_id", "created_at": "now()"},
        )
        ids = [row[0] for row in connection.execute("SELECT game_id FROM clone_map ORDER BY g")]
        connection.commit()
    return ids


# -- the load ------------------------------------------------------------------------------------


@dataclass
class Mail:
    index: int
    channel: str  # "http" or "smtp"
    sender: str
    to: str
    message_id: str
    raw: bytes
    sent: float = 0.0  # wall clock: the send began
    accepted: float = 0.0  # wall clock: 202 or 250 received
    tries: int = 0
    error: str = ""


CHATTER = (
    "Thanks for the last report, the picture came through fine.\n"
    "Sending this one from the train, so forgive the brevity.\n"
)
QUOTE = "".join(f"> {line}\n" for line in ("On the last turn you wrote:", "", "Orders received."))


def compose(index: int, seat: SeatAddress, turn_of_seat: int) -> Mail:
    if seat.game == "thermopyles":
        body = "RETREAT NODRAW" if turn_of_seat % 8 == 7 else "STATUS"
    elif seat.seat == "france" and turn_of_seat % 2 == 0:
        body = ORDERS["france"]
    else:
        body = "STATUS"  # never orders from Spain: no turn resolves early during the burst
    message = EmailMessage()
    message["From"], message["To"] = seat.player, seat.reply_to
    message["Subject"] = f"Re: [pbem #{seat.game_id}] orders"
    message_id = f"<scale.{index}.{os.getpid()}@example.com>"
    message["Message-ID"] = message_id
    message["Date"] = "Tue, 01 Dec 2026 00:00:00 +0000"
    message.set_content(f"{body}\n\n{CHATTER}\n{QUOTE}\n-- \nA player of game {seat.game_id}\n")
    channel = "http" if index % 2 == 0 else "smtp"
    return Mail(index, channel, seat.player, seat.reply_to, message_id, message.as_bytes())


def plan_mails(count: int, games: list[list[SeatAddress]]) -> list[Mail]:
    """Round robin over the games, and over each game's seats in turn."""
    per_seat: Counter[str] = Counter()
    mails = []
    for index in range(count):
        seats = games[index % len(games)]
        seat = seats[(index // len(games)) % len(seats)]
        mails.append(compose(index, seat, per_seat[seat.player]))
        per_seat[seat.player] += 1
    assert max(per_seat.values()) <= SENDER_LIMIT, "a sender over the hourly limit"
    return mails


class Sender:
    """--clients HTTP clients and --clients SMTP clients, each sending its next mail when the
    last one was accepted (load bounded by the number of clients)."""

    def __init__(self, site: Site, mails: list[Mail], clients: int) -> None:
        self.site, self.clients = site, clients
        self.queues = {
            channel: iter([m for m in mails if m.channel == channel])
            for channel in ("http", "smtp")
        }
        self.lock = threading.Lock()
        self.done = 0
        self.failures: list[str] = []
        self.threads = [
            threading.Thread(target=target, daemon=True, name=f"{target.__name__}-{n}")
            for target in (self.http_client, self.smtp_client)
            for n in range(clients)
        ]

    def next(self, channel: str) -> Mail | None:
        with self.lock:
            return next(self.queues[channel], None)

    def finished(self, mail: Mail, error: str = "") -> None:
        with self.lock:
            self.done += 1
            if error:
                mail.error = error
                self.failures.append(f"{mail.message_id} ({mail.channel}): {error}")

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def alive(self) -> bool:
        return any(thread.is_alive() for thread in self.threads)

    def http_client(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.site.web_port, timeout=60)
        while (mail := self.next("http")) is not None:
            error = ""
            for _ in range(3):
                mail.tries += 1
                mail.sent = time.time()
                try:
                    connection.request(
                        "POST",
                        f"/inbound/mime?rcpt={quote(mail.to)}&from={quote(mail.sender)}",
                        body=mail.raw,
                        headers={
                            "Authorization": f"Bearer {TOKEN}",
                            "Content-Type": "message/rfc822",
                        },
                    )
                    response = connection.getresponse()
                    answer = response.read()
                    if response.status == 202:
                        mail.accepted, error = time.time(), ""
                        break
                    error = f"HTTP {response.status} {answer[:200]!r}"
                except (OSError, http.client.HTTPException) as problem:
                    error = f"{type(problem).__name__}: {problem}"
                    connection.close()
                    time.sleep(0.2)
            self.finished(mail, error)
        connection.close()

    def smtp_client(self) -> None:
        client: smtplib.SMTP | None = None
        while (mail := self.next("smtp")) is not None:
            error = ""
            for _ in range(3):
                mail.tries += 1
                try:
                    if client is None:
                        client = smtplib.SMTP("127.0.0.1", self.site.smtp_port, timeout=60)
                    mail.sent = time.time()
                    client.sendmail(mail.sender, [mail.to], mail.raw)
                    mail.accepted, error = time.time(), ""
                    break
                except (OSError, smtplib.SMTPException) as problem:
                    error = f"{type(problem).__name__}: {problem}"
                    with contextlib.suppress(Exception):
                        if client is not None:
                            client.close()
                    client = None
                    time.sleep(0.2)
            self.finished(mail, error)
        if client is not None:
            with contextlib.suppress(Exception):
                client.quit()


# -- watching the service ------------------------------------------------------------------------


class Monitor:
    """The harness's own read-only view of the database and the Maildir."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.connection = psycopg.connect(site.dsn, autocommit=True)
        # The service's own backends, less this connection's: the harness is not the service.
        self.backends = scale_cpu.Backends(site.dsn, {self.connection.info.backend_pid})

    def cpu(self, processes: Processes) -> dict[str, float]:
        """CPU seconds so far of each group of processes (scale_cpu.snapshot)."""
        return scale_cpu.snapshot(processes.pids(), self.backends)

    def value(self, sql: str, *args: Any) -> Any:
        row = self.connection.execute(sql, args or None).fetchone()
        return row[0] if row else None

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return self.connection.execute(sql, args or None).fetchall()

    def files(self) -> int:
        folder = self.site.maildir
        return len(os.listdir(folder)) if folder.is_dir() else 0

    def unsettled(self) -> tuple[int, int]:
        """Inbound mail not yet processed, and outbox mail not yet sent."""
        unread = self.value("SELECT count(*) FROM inbound_messages WHERE status = 'received'")
        unsent = self.value("SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending')")
        return int(unread), int(unsent)

    def maildir_files(self) -> dict[int, Path]:
        folder = self.site.maildir
        found: dict[int, Path] = {}
        duplicates = []
        for path in folder.iterdir() if folder.is_dir() else []:
            match = FILE_ID.search(path.name)
            if match is None:
                continue
            outbox_id = int(match.group(1))
            if outbox_id in found:
                duplicates.append(outbox_id)
            found[outbox_id] = path
        if duplicates:
            raise Abort(f"two Maildir files for outbox rows {duplicates[:10]}")
        return found

    def close(self) -> None:
        self.backends.close()
        self.connection.close()


def headers_of(path: Path) -> Any:
    with path.open("rb") as handle:
        head = handle.read(32768)
    end = head.find(b"\r\n\r\n")
    end = end if end >= 0 else head.find(b"\n\n")
    return BytesHeaderParser(policy=default_policy).parsebytes(head[: end if end >= 0 else None])


def wait_settled(
    label: str,
    monitor: Monitor,
    processes: Processes,
    total: int,
    done: Callable[[], int],
    detail: Callable[[], str],
    finished: Callable[[], bool],
    timeout: float,
) -> None:
    """Show progress until ``finished``; give up after ``timeout`` or 180 s without progress."""
    progress = Progress(label, total)
    limit = time.monotonic() + timeout
    last, last_change = -1, time.monotonic()
    try:
        while True:
            processes.check_alive()
            count = done()
            progress.show(count, detail())
            if count != last:
                last, last_change = count, time.monotonic()
            if finished():
                progress.show(done(), detail())
                return
            now = time.monotonic()
            if now > limit or now - last_change > 180:
                raise Abort(f"{label}: stuck at {count}/{total} ({detail()})")
            time.sleep(0.5)
    finally:
        progress.close()


# -- the two phases -----------------------------------------------------------------------------


def burst(
    plan: Plan,
    site: Site,
    processes: Processes,
    monitor: Monitor,
    mails: list[Mail],
    mid: scale_mid.MidDeadline,
) -> dict[str, Any]:
    mark = processes.mark()
    cpu_before = monitor.cpu(processes)
    sender = Sender(site, mails, plan.clients)
    started = time.time()
    sender.start()
    count = len(mails)

    def detail() -> str:
        unread, unsent = monitor.unsettled()
        stored = monitor.value("SELECT count(*) FROM inbound_messages")
        return f"sent {sender.done} stored {stored} waiting {unread} unsent {unsent}"

    def finished() -> bool:
        mid.poll(sender.done)
        if sender.alive() or not mid.settled():
            return False
        stored = monitor.value("SELECT count(*) FROM inbound_messages")
        return stored >= count - len(sender.failures) and monitor.unsettled() == (0, 0)

    wait_settled(
        "burst: replies", monitor, processes, count, monitor.files, detail, finished, plan.timeout
    )
    settled = time.time()
    cpu = scale_cpu.spent(cpu_before, monitor.cpu(processes))
    problems: list[str] = [f"not accepted: {line}" for line in sender.failures[:20]]
    # Stored: one inbound row per Message-ID sent.
    rows = monitor.rows("SELECT dedupe_key, status, reason FROM inbound_messages")
    by_key = {key: (status, reason) for key, status, reason in rows}
    statuses = Counter(status for status, _ in by_key.values())
    missing = [m.message_id for m in mails if "mid:" + m.message_id not in by_key]
    if missing:
        problems.append(f"{len(missing)} mails not stored, e.g. {missing[:5]}")
    if len(rows) != count:
        problems.append(f"{len(rows)} inbound rows for {count} mails")
    odd = Counter(
        reason for status, reason in by_key.values() if status not in ("done",)
    ).most_common(5)
    if odd:
        problems.append(f"inbound not done: {dict(statuses)}; reasons {odd}")
    # Answered exactly once: one Maildir file whose In-Reply-To is the mail's Message-ID.
    created = dict(monitor.rows("SELECT id, created_at FROM outbox"))
    replies: dict[str, list[tuple[int, float]]] = {}
    kinds: Counter[str] = Counter()
    files = monitor.maildir_files()
    mid_reports = mid.report_ids()
    for outbox_id, path in files.items():
        if outbox_id in mid_reports:
            continue  # the mid-burst deadline's reports: scale_mid checks them
        headers = headers_of(path)
        kinds[str(headers.get("X-Pbem-Kind", ""))] += 1
        answering = str(headers.get("In-Reply-To", "") or "").strip()
        replies.setdefault(answering, []).append((outbox_id, path.stat().st_mtime))
    unanswered = [m.message_id for m in mails if m.message_id not in replies]
    twice = [m.message_id for m in mails if len(replies.get(m.message_id, [])) > 1]
    sent_ids = {m.message_id for m in mails}
    strays = sum(len(found) for key, found in replies.items() if key not in sent_ids)
    if unanswered:
        problems.append(f"{len(unanswered)} mails never answered, e.g. {unanswered[:5]}")
    if twice:
        problems.append(f"{len(twice)} mails answered more than once, e.g. {twice[:5]}")
    if strays:
        problems.append(f"{strays} Maildir files answer no mail of the burst")
    latencies, queued = [], []
    for mail in mails:
        found = replies.get(mail.message_id)
        if found and mail.sent:
            outbox_id, written = found[0]
            latencies.append(written - mail.sent)
            queued.append(created[outbox_id].timestamp() - mail.sent)
    latencies.sort()
    queued.sort()
    accept = sorted(m.accepted - m.sent for m in mails if m.accepted)
    last_accept = max((m.accepted for m in mails if m.accepted), default=started)
    last_reply = max((w for found in replies.values() for _, w in found), default=settled)
    per_channel = {
        channel: sum(1 for m in mails if m.channel == channel and m.accepted)
        for channel in ("http", "smtp")
    }
    tasks = processes.tasks(mark)
    return {
        "mails": count,
        "games": len({m.to for m in mails}),
        "by_channel": per_channel,
        "clients_per_channel": plan.clients,
        "stored": count - len(missing),
        "inbound_status": dict(statuses),
        "answered_once": count - len(unanswered) - len(twice),
        "unanswered": len(unanswered),
        "answered_twice": len(twice),
        "reply_kinds": dict(kinds),
        "seconds_to_accept_all": last_accept - started,
        "seconds_to_last_reply": last_reply - started,
        "accepted_per_second": count / max(1e-9, last_accept - started),
        "answered_per_second": count / max(1e-9, last_reply - started),
        "accept_ms": _quantiles(accept),
        "send_to_reply_queued_ms": _quantiles(queued),
        "send_to_reply_written_ms": _quantiles(latencies),
        "latencies_s": latencies,
        "tasks_run": dict(tasks),
        "cpu_s": cpu,
        "per_mail": scale_cpu.per_item(cpu, tasks, count),
        "problems": problems,
        "mid": mid.result(files),
    }


def storm(
    plan: Plan, site: Site, processes: Processes, monitor: Monitor, game_ids: list[int]
) -> dict[str, Any]:
    mark = processes.mark()
    cpu_before = monitor.cpu(processes)
    before = set(monitor.maildir_files())
    count = len(game_ids)
    # Made with no deadline (nothing to remind, nothing due); now the deadline of every one of
    # them passes at the same moment, and beat's next tick finds them all due.
    deadline = monitor.value(
        "UPDATE games SET deadline = now() WHERE id = ANY(%s) RETURNING deadline", game_ids
    )

    def turns() -> int:
        return int(
            monitor.value(
                "SELECT count(*) FROM turns WHERE number = 1 AND game_id = ANY(%s)", game_ids
            )
        )

    def finished() -> bool:
        return turns() >= count and monitor.unsettled() == (0, 0)

    def detail() -> str:
        return f"turns {turns()}/{count} reports out {monitor.files() - len(before)}/{2 * count}"

    wait_settled(
        "storm: reports",
        monitor,
        processes,
        2 * count,
        lambda: monitor.files() - len(before),
        detail,
        finished,
        plan.timeout,
    )
    cpu = scale_cpu.spent(cpu_before, monitor.cpu(processes))
    problems: list[str] = []
    numbers = Counter(
        game_id
        for game_id, number in monitor.rows(
            "SELECT game_id, number FROM turns WHERE game_id = ANY(%s)", game_ids
        )
        if number >= 0
    )
    wrong = [g for g in game_ids if numbers[g] != 2]
    if wrong:
        problems.append(f"{len(wrong)} games without exactly turns 0 and 1, e.g. {wrong[:5]}")
    reports = monitor.rows(
        "SELECT id, game_id, to_address, status FROM outbox"
        " WHERE kind = 'report' AND game_id = ANY(%s)",
        game_ids,
    )
    per_seat = Counter((game_id, to) for _, game_id, to, _ in reports)
    if len(reports) != 2 * count or any(n != 1 for n in per_seat.values()):
        problems.append(f"{len(reports)} reports for {count} games (want one per seat)")
    files = monitor.maildir_files()
    absent = [row[0] for row in reports if row[0] not in files]
    if absent:
        problems.append(f"{len(absent)} reports without a Maildir file")
    others = set(files) - before - {row[0] for row in reports}
    if others:
        problems.append(f"{len(others)} other mails written during the storm")
    written = sorted(files[row[0]].stat().st_mtime for row in reports if row[0] in files)
    first_turn, last_turn = monitor.rows(
        "SELECT min(created_at), max(created_at) FROM turns WHERE number = 1 AND game_id = ANY(%s)",
        game_ids,
    )[0]
    base = deadline.timestamp()
    to_last = (written[-1] - base) if written else float("nan")
    tasks = processes.tasks(mark)
    return {
        "games": count,
        "reports": len(written),
        "tick_seconds": plan.tick_seconds,
        "deadline_to_first_turn_s": (first_turn.timestamp() - base) if first_turn else None,
        "deadline_to_last_turn_s": (last_turn.timestamp() - base) if last_turn else None,
        "deadline_to_last_report_s": to_last,
        "games_per_second": count / to_last if written else 0.0,
        "reports_per_second": len(written) / to_last if written else 0.0,
        "report_times_s": [w - base for w in written],
        "tasks_run": dict(tasks),
        "cpu_s": cpu,
        "per_game": scale_cpu.per_item(cpu, tasks, count),
        "problems": problems,
    }


def _quantiles(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "p50": percentile(ms, 0.50),
        "p90": percentile(ms, 0.90),
        "p99": percentile(ms, 0.99),
        "max": ms[-1] if ms else float("nan"),
    }


# -- figures ---------------------------------------------------------------------------------------


def chart(
    path: Path,
    title: str,
    xlabel: str,
    ylabel: str,
    bars: list[float],
    x_max: float,
    marks: dict[str, float],
) -> None:
    """A bar chart with Pillow: ``bars`` spread evenly over 0 .. ``x_max``, vertical ``marks``."""
    from PIL import Image, ImageDraw, ImageFont

    width, height, left, right, top, bottom = 900, 460, 80, 30, 50, 60
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.load_default(size=14)
    except TypeError:  # an old Pillow without the scalable default font
        font = ImageFont.load_default()
    plot_w, plot_h = width - left - right, height - top - bottom
    y_max = max(bars) if bars and max(bars) > 0 else 1.0
    draw.text((left, 15), title, fill="black", font=font)
    draw.line([(left, top), (left, top + plot_h), (left + plot_w, top + plot_h)], fill="black")
    step = plot_w / max(1, len(bars))
    for n, value in enumerate(bars):
        h = plot_h * value / y_max
        x0 = left + n * step
        draw.rectangle([x0 + 1, top + plot_h - h, x0 + step - 1, top + plot_h], fill="#4a7ab5")
    for k in range(6):
        x = left + plot_w * k / 5
        draw.line([(x, top + plot_h), (x, top + plot_h + 5)], fill="black")
        draw.text((x - 15, top + plot_h + 8), f"{x_max * k / 5:.3g}", fill="black", font=font)
        y = top + plot_h - plot_h * k / 5
        draw.line([(left - 5, y), (left, y)], fill="black")
        draw.text(
            (5, y - 8), f"{y_max * k / 5:.{0 if y_max >= 10 else 2}f}", fill="black", font=font
        )
    draw.text((left + plot_w / 2 - 60, height - 25), xlabel, fill="black", font=font)
    draw.text((5, top - 22), ylabel, fill="black", font=font)
    for n, (label, at) in enumerate(marks.items()):
        if 0 <= at <= x_max:
            x = left + plot_w * at / x_max
            draw.line([(x, top), (x, top + plot_h)], fill="#c0392b", width=2)
            wide = draw.textlength(label, font=font)
            at_x = x + 4 if x + 4 + wide < width - 5 else x - 4 - wide
            at_y = top + 4 + 18 * n
            draw.rectangle([at_x - 2, at_y, at_x + wide + 2, at_y + 16], fill="white")
            draw.text((at_x, at_y), label, fill="#c0392b", font=font)
    image.save(path)


def histogram(values: list[float], bins: int, x_max: float) -> list[float]:
    counts = [0.0] * bins
    for value in values:
        counts[min(bins - 1, max(0, int(value / x_max * bins)))] += 1
    return counts


def figures(out: Path, result: dict[str, Any]) -> None:
    burst = result.get("burst")
    if burst and burst["latencies_s"]:
        latencies = burst["latencies_s"]
        x_max = max(1e-3, percentile(latencies, 0.999)) * 1.05
        quant = burst["send_to_reply_written_ms"]
        chart(
            out / "latency.png",
            f"send -> reply written, {len(latencies)} mails (last bin: everything above)",
            "seconds",
            "mails",
            histogram(latencies, 60, x_max),
            x_max,
            {
                f"p50 {quant['p50']:.0f} ms": quant["p50"] / 1000,
                f"p99 {quant['p99']:.0f} ms": quant["p99"] / 1000,
            },
        )
    storm_result = result.get("storm")
    if storm_result and storm_result["report_times_s"]:
        times = storm_result["report_times_s"]
        x_max = max(1e-3, times[-1]) * 1.02
        counts = histogram(times, 60, x_max)
        cumulative = list(itertools.accumulate(counts))
        chart(
            out / "storm.png",
            f"deadline storm: reports written, {storm_result['games']} games",
            "seconds after the deadline",
            "reports",
            cumulative,
            x_max,
            {"last report": times[-1]},
        )


def _task_lines(tasks: dict[str, dict[str, Any]]) -> list[str]:
    """Celery task runs in the phase: how many, worker seconds, what they returned."""
    lines = []
    for task, entry in sorted(tasks.items()):
        said = sorted(entry["results"].items(), key=lambda item: -item[1])[:3]
        results = "; ".join(f"{n} {text[:40]}" for text, n in said)
        lines.append(
            f"  task {task}: {entry['runs']} runs, {entry['seconds']:.0f} s in all,"
            f" longest {entry['longest_s']:.1f} s" + (f" ({results})" if results else "")
        )
    return lines


def summary(result: dict[str, Any]) -> str:
    plan = result["plan"]
    lines = [
        f"scale run {result['started']}: {os.cpu_count()} CPUs, load before {result['load']}",
        f"  gunicorn {plan['web_workers']} workers, {plan['celery_workers']} celery workers x"
        f" --concurrency {plan['concurrency']}, beat (tick {plan['tick_seconds']} s), pbem smtp,"
        " redis-server, PostgreSQL",
        f"  setup: {result['setup']['inbound_games']} burst games and"
        f" {result['setup']['storm_games']} storm games in {result['setup']['seconds']:.1f} s",
    ]
    burst_result = result.get("burst")
    if burst_result:
        q, a = burst_result["send_to_reply_written_ms"], burst_result["accept_ms"]
        lines += [
            f"a) inbound burst: {burst_result['mails']} mails to {burst_result['games']} seats"
            f" ({burst_result['by_channel']['http']} HTTP /inbound/mime,"
            f" {burst_result['by_channel']['smtp']} SMTP; {plan['clients']} clients each)",
            f"  stored {burst_result['stored']}/{burst_result['mails']},"
            f" answered exactly once {burst_result['answered_once']}/{burst_result['mails']}"
            f" (unanswered {burst_result['unanswered']}, twice {burst_result['answered_twice']})",
            f"  accepted {burst_result['accepted_per_second']:.1f} mails/s"
            f" (all in {burst_result['seconds_to_accept_all']:.1f} s; accept p50 {a['p50']:.0f} ms,"
            f" p99 {a['p99']:.0f} ms)",
            f"  answered {burst_result['answered_per_second']:.1f} mails/s"
            f" (last reply after {burst_result['seconds_to_last_reply']:.1f} s)",
            f"  send -> reply written: p50 {q['p50']:.0f} ms, p90 {q['p90']:.0f} ms,"
            f" p99 {q['p99']:.0f} ms, max {q['max']:.0f} ms",
            *_task_lines(burst_result["tasks_run"]),
            *scale_cpu.lines(
                burst_result.get("cpu_s", {}),
                burst_result["tasks_run"],
                burst_result["mails"],
                "mail",
            ),
        ]
    storm_result = result.get("storm")
    if storm_result:
        lines += [
            f"b) deadline storm: {storm_result['games']} games of 2 de Mayo due at once,"
            f" {storm_result['reports']} reports",
            f"  deadline -> first turn {storm_result['deadline_to_first_turn_s']:.1f} s,"
            f" -> last turn {storm_result['deadline_to_last_turn_s']:.1f} s,"
            f" -> last report {storm_result['deadline_to_last_report_s']:.1f} s",
            f"  {storm_result['games_per_second']:.1f} games/s,"
            f" {storm_result['reports_per_second']:.1f} reports/s",
            *_task_lines(storm_result["tasks_run"]),
            *scale_cpu.lines(
                storm_result.get("cpu_s", {}),
                storm_result["tasks_run"],
                storm_result["games"],
                "game",
            ),
        ]
    mid = result.get("mid")
    if mid and mid.get("games"):
        turn, report = mid.get("deadline_to_last_turn_s"), mid.get("deadline_to_last_report_s")
        lines.append(
            f"a') a deadline halfway through the burst: {mid['games']} games of 2 de Mayo,"
            f" deadline -> last turn {turn if turn is None else round(turn, 1)} s,"
            f" -> last report {report if report is None else round(report, 1)} s"
        )
    lines += scale_mid.target_lines(result)
    problems = result["problems"]
    lines.append("checks: " + ("all passed" if not problems else f"{len(problems)} FAILED"))
    lines += [f"  - {problem}" for problem in problems]
    return "\n".join(lines)


# -- the run ---------------------------------------------------------------------------------------


def _configured_tick() -> int:
    """The service's own tick interval (config/default.toml), which the run measures."""
    with (ROOT / "config" / "default.toml").open("rb") as handle:
        return int(tomllib.load(handle)["tick_seconds"])


def options(argv: list[str] | None = None) -> tuple[Plan, Path | None]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=int(os.environ.get("BENCH_MAILS", 10_000)))
    parser.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", 5_000)))
    parser.add_argument("--inbound-games", type=int, default=200)
    # By default the layout docs/operations.md gives for two cores: 2 gunicorn workers and one
    # worker process of concurrency 3. Measured: with 4 web and 2 x 2 pool processes every task
    # cost about a quarter more CPU (they only contend); a third pool process costs no more CPU
    # per item than two and works while the others wait on the database or the disk.
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--celery-workers", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=3, help="per celery worker")
    parser.add_argument("--clients", type=int, default=4, help="per channel (HTTP, SMTP)")
    parser.add_argument(
        "--tick-seconds", type=int, default=_configured_tick(), help="default: the config's"
    )
    parser.add_argument("--timeout", type=float, default=3600, help="per phase, seconds")
    parser.add_argument("--mid-games", type=int, default=500, help="deadline mid-burst")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--against", type=Path, default=None, help="another checkout's tree")
    parser.add_argument("--tree", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.celery_workers < 1 or args.web_workers < 1 or min(args.mails, args.games) < 0:
        parser.error("worker counts must be positive and counts not negative")
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = args.out or ROOT / "bench" / "results" / f"scale-{stamp}"
    return Plan(
        mails=args.mails,
        games=args.games,
        inbound_games=args.inbound_games,
        web_workers=args.web_workers,
        celery_workers=args.celery_workers,
        concurrency=args.concurrency,
        clients=args.clients,
        tick_seconds=args.tick_seconds,
        timeout=args.timeout,
        out=out,
        mid_games=args.mid_games if args.mails else 0,
        tree=args.tree.resolve(),
    ), args.against


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGTERM and SIGHUP end the run like Ctrl-C: through the finally blocks."""

    def stop(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def make_site(folder: Path, tree: Path) -> Site:
    database = f"pbem_scale_{os.getpid()}"
    host = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
    site = Site(
        folder=folder,
        database=database,
        database_url=f"postgresql+psycopg://{host}/{database}",
        dsn=f"postgresql://{host}/{database}",
        broker_url=f"redis://127.0.0.1:{free_port()}/0",
        web_port=free_port(),
        smtp_port=free_port(),
    )
    site.env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PBEM_")},
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "PYTHONPATH": str(tree),
        "PBEM_DATABASE_URL": site.database_url,
        "PBEM_BROKER_URL": site.broker_url,
        "PBEM_DATA_DIR": str(folder / "var"),
        "PBEM_SECRET_KEY": SECRET,
        "PBEM_INBOUND_TOKEN": TOKEN,
        "PBEM_MAIL_DOMAIN": DOMAIN,
        "PBEM_SMTP_URL": "",
        "PBEM_SMTP_PORT": str(site.smtp_port),
        "PBEM_WEB_PORT": str(site.web_port),
        "PBEM_BASE_URL": f"http://127.0.0.1:{site.web_port}",
        "PBEM_LOG_LEVEL": "WARNING",
    }
    return site


def setup_games(plan: Plan, site: Site) -> tuple[list[list[SeatAddress]], list[int], list[int]]:
    """The burst's games (through the services), the storm's and the mid-burst deadline's
    (mostly copies)."""
    # Enough burst games that no sender mails more than the hourly limit allows.
    needed = math.ceil(plan.mails / (SENDER_LIMIT * 0.9))
    count = min(plan.mails, max(plan.inbound_games, needed))
    timed = plan.games + plan.mid_games
    made = in_pool(
        site.env,
        {"thermopyles": count // 2, "b": count - count // 2, "t": min(TEMPLATES, timed)},
    )
    burst_games = made["thermopyles"] + made["b"]
    storm_ids: list[int] = []
    if timed:
        templates = [game[0].game_id for game in made["t"]]
        storm_ids = templates + copy_games(site.dsn, templates, timed - len(templates))
        with psycopg.connect(site.dsn, autocommit=True) as connection:
            connection.execute("UPDATE games SET deadline = NULL WHERE id = ANY(%s)", (storm_ids,))
    # The mid-burst games are the last copies: the storm's are the first --games.
    mid_ids, storm_ids = storm_ids[plan.games :], storm_ids[: plan.games]
    with psycopg.connect(site.dsn, autocommit=True) as connection:
        # Nothing made during setup is mailed (start_game's own mails, if any).
        connection.execute("UPDATE outbox SET status = 'sent', sent_at = now()")
    return burst_games, storm_ids, mid_ids


def run(plan: Plan) -> int:
    import adjudicator
    from adjudicator import migrate
    from adjudicator.db import Database

    # The migrations and the game setup are the service tree's own (PYTHONPATH, set by
    # scale_compare for another tree): a run must not mix two trees' code.
    imported = Path(adjudicator.__file__).resolve().parent.parent
    if imported != plan.tree:
        print(f"the service tree is {plan.tree} but adjudicator comes from {imported}")
        return 2
    folder = Path(tempfile.mkdtemp(prefix="pbem-scale-"))
    site = make_site(folder, plan.tree)
    processes = Processes(site)
    monitor: Monitor | None = None
    result: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "cpus": os.cpu_count(),
        "plan": {k: str(v) if isinstance(v, Path) else v for k, v in vars(plan).items()},
        "tree": str(plan.tree),
        "problems": [],
    }
    plan.out.mkdir(parents=True, exist_ok=True)
    status = 1
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{site.database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{site.database}"')
        database = Database(site.database_url)
        migrate.upgrade(database)
        database.dispose()
        note(f"scale run: folder {folder}, database {site.database}")
        began = time.monotonic()
        burst_games, storm_ids, mid_ids = setup_games(plan, site)
        mails = plan_mails(plan.mails, burst_games) if plan.mails else []
        result["setup"] = {
            "inbound_games": len(burst_games),
            "storm_games": len(storm_ids),
            "mid_games": len(mid_ids),
            "seconds": time.monotonic() - began,
        }
        note(f"setup done: {len(burst_games)} + {len(storm_ids)} games")
        site.env["PBEM_TICK_SECONDS"] = str(plan.tick_seconds)
        start_service(plan, site, processes)
        note("the service is up")
        monitor = Monitor(site)
        if mails:
            mid = scale_mid.MidDeadline(monitor, mid_ids, len(mails))
            result["burst"] = burst(plan, site, processes, monitor, mails, mid)
            result["mid"] = result["burst"].pop("mid")
            result["problems"] += result["burst"]["problems"] + result["mid"]["problems"]
            note("burst done")
        if storm_ids:
            result["storm"] = storm(plan, site, processes, monitor, storm_ids)
            result["problems"] += result["storm"]["problems"]
            note("storm done")
        status = 0 if not result["problems"] else 1
    except Abort as error:
        result["problems"].append(f"aborted: {error}")
    except KeyboardInterrupt:
        result["problems"].append("interrupted")
        print("\ninterrupted: tearing down", file=sys.stderr)
        status = 130
    finally:
        if monitor is not None:
            monitor.close()
        processes.stop()
        note("processes stopped")
        logs = plan.out / "logs"
        logs.mkdir(exist_ok=True)
        for path in folder.glob("*.log"):
            shutil.copy(path, logs / path.name)
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(PG_ADMIN, autocommit=True) as admin,
        ):
            admin.execute(f'DROP DATABASE IF EXISTS "{site.database}" WITH (FORCE)')
        shutil.rmtree(folder, ignore_errors=True)
        result["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
        if "setup" in result:
            figures(plan.out, result)
            text = summary(result)
        else:
            text = "scale run: no figures\n" + "\n".join(result["problems"])
        (plan.out / "results.json").write_text(json.dumps(result, indent=1, default=str) + "\n")
        (plan.out / "summary.txt").write_text(text + "\n")
        print(text)
        print(f"figures in {plan.out}")
    return status


def main(argv: list[str] | None = None) -> int:
    plan, against = options(argv)
    if against is not None:
        import scale_compare

        arguments = sys.argv[1:] if argv is None else argv
        return scale_compare.run_both(Path(__file__).resolve(), arguments, against, plan.out)
    with interruptible():
        return run(plan)


if __name__ == "__main__":
    sys.exit(main())
