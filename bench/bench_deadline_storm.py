"""A deadline storm: BENCH_GAMES games of 2 de Mayo (default 1,000) sharing one deadline.

PostgreSQL (a fresh database on 127.0.0.1:5432) and Redis (a redis-server of its own on a free
loopback port; or BENCH_REDIS_URL), and two worker processes, each
`celery -A workers.app worker --concurrency 1` (prefork, one pool child each).

The games are made through the services (lifecycle.start_game, in two processes); their welcome
mails are marked sent without delivery, so the outbox Maildir starts empty. Every game's deadline
is set to the same moment; at that moment one `pbem.adjudicate` per game is queued. Measured:
from the deadline to the last of the 2×N turn reports in the Maildir (and to the last turn
written). In the same run, the same two workers take a no-op task per game: `pbem.send_outbox`
with an id that does not exist (one UPDATE that matches nothing; "not pending"), queued the same
way. Prints both times, their ratio and reports per second (aim: every report out within 60 s
at 1,000 games on a 2-core machine).

    .venv/bin/python bench/bench_deadline_storm.py          # BENCH_GAMES=50 for a quick run
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import redis
from celery import Celery
from sqlalchemy import func, select, text

from adjudicator import config as configuration
from adjudicator import migrate
from adjudicator.db import Database
from adjudicator.models import Game, OutboxMessage, Turn
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.turns.lifecycle import GameSettings

GAMES = int(os.environ.get("BENCH_GAMES", "1000"))
WORKERS = 2  # processes, --concurrency 1 each
PG_ADMIN = os.environ.get("PBEM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
DATABASE = "pbem_bench_storm"
BIN = Path(sys.executable).parent
WAIT = 600.0  # seconds: the longest any phase may take before the run gives up


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(folder: Path, database_url: str, broker_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "PBEM_DATABASE_URL": database_url,
        "PBEM_BROKER_URL": broker_url,
        "PBEM_DATA_DIR": str(folder / "var"),
        "PBEM_SECRET_KEY": "bench-storm",
        "PBEM_LOG_LEVEL": "WARNING",
    }
    env.pop("PBEM_CONFIG", None)
    return env


def make_games(job: tuple[dict[str, str], range]) -> int:
    """Games for the numbers in the range, through the service; welcome mails left unsent."""
    env, numbers = job
    config = configuration.load(environ=env)
    database = Database(config.database_url)
    runtime = Runtime(config, database)  # no queue: nothing is sent
    for n in numbers:
        with database.session() as session:
            game = lifecycle.start_game(
                session,
                runtime,
                GameSettings(
                    "2demayo",
                    {"france": f"france.{n}@example.com", "spain": f"spain.{n}@example.com"},
                    {},
                    "48h",
                    "UTC",
                ),
            )
            assert isinstance(game, Game), game
    database.dispose()
    return len(numbers)


class Workers:
    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.processes = []
        for n in range(1, WORKERS + 1):
            command = [str(BIN / "celery"), "-A", "workers.app", "worker", "-n", f"storm{n}@%h"]
            command += ["--concurrency", "1", "--loglevel=INFO", "--without-gossip"]
            command += ["--without-mingle", "--without-heartbeat"]
            self.processes.append(
                subprocess.Popen(
                    command,
                    env=env,
                    cwd=folder,
                    stdout=(folder / f"worker{n}.log").open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        until(lambda: all(" ready." in self.log(n) for n in range(1, WORKERS + 1)), 60, "ready")

    def log(self, n: int) -> str:
        return (self.folder / f"worker{n}.log").read_text(errors="replace")

    def done(self, task: str) -> int:
        pattern = re.compile(rf"Task pbem\.{task}\[[^\]]+\] (?:succeeded|raised)")
        return sum(len(pattern.findall(self.log(n))) for n in range(1, WORKERS + 1))

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


def until(condition: object, timeout: float, what: str, every: float = 0.01) -> None:
    limit = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > limit:
            raise SystemExit(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(every)


def noop_round(client: Celery, workers: Workers, count: int, first_id: int) -> float:
    """Seconds from queueing ``count`` no-op tasks to the last one finished."""
    before = workers.done("send_outbox")
    started = time.time()
    for n in range(count):
        client.send_task("pbem.send_outbox", args=[first_id + n])
    until(lambda: workers.done("send_outbox") >= before + count, WAIT, "the no-op tasks")
    return time.time() - started


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="pbem-storm-"))
    redis_server = None
    broker_url = os.environ.get("BENCH_REDIS_URL", "")
    if not broker_url:
        port = free_port()
        redis_server = subprocess.Popen(
            [
                *("redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--daemonize", "no", "--dir", str(folder)),
            ],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        broker_url = f"redis://127.0.0.1:{port}/0"
        until(lambda: _answers(broker_url), 10, "redis-server")
    redis.Redis.from_url(broker_url).flushdb()
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{DATABASE}"')
    host = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
    database_url = f"postgresql+psycopg://{host}/{DATABASE}"
    env = environment(folder, database_url, broker_url)
    database = Database(database_url)
    migrate.upgrade(database)
    workers = None
    client = Celery("bench-storm", broker=broker_url, set_as_current=False)
    client.conf.task_serializer = "json"
    try:
        started = time.monotonic()
        chunks = [(env, range(i, GAMES, 2)) for i in range(2)]
        with multiprocessing.get_context("fork").Pool(2) as pool:
            made = sum(pool.map(make_games, chunks))
        assert made == GAMES
        with database.session() as session:  # the welcome mails: skipped, never delivered
            session.execute(text("UPDATE outbox SET status = 'sent', sent_at = now()"))
        setup = time.monotonic() - started
        workers = Workers(folder, env)
        noop_round(client, workers, 50, 10**12)  # warm-up: each worker's runtime, connections

        noop = noop_round(client, workers, GAMES, 2 * 10**12)

        maildir = folder / "var" / "outbox" / "new"
        shutil.rmtree(folder / "var" / "outbox", ignore_errors=True)
        deadline = datetime.now(UTC) + timedelta(seconds=1)
        with database.session() as session:
            session.execute(text("UPDATE games SET deadline = :d"), {"d": deadline})
            game_ids = list(session.scalars(select(Game.id).order_by(Game.id)))
        time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()))
        for game_id in game_ids:
            client.send_task("pbem.adjudicate", args=[game_id])
        queued = (datetime.now(UTC) - deadline).total_seconds()

        def reports() -> int:
            return len(os.listdir(maildir)) if maildir.is_dir() else 0

        until(lambda: reports() >= 2 * GAMES, WAIT, "the turn reports", every=0.05)
        last_file = max(path.stat().st_mtime for path in maildir.iterdir())
        storm = last_file - deadline.timestamp()
        with database.session() as session:
            last_turn = session.scalar(select(func.max(Turn.created_at)).where(Turn.number == 1))
            turns = session.scalar(select(func.count()).select_from(Turn).where(Turn.number == 1))
            extra = session.scalar(select(func.count()).select_from(Turn).where(Turn.number > 1))
            sent = session.scalar(
                select(func.count())
                .select_from(OutboxMessage)
                .where(OutboxMessage.kind == "report", OutboxMessage.status == "sent")
            )
        assert turns == GAMES and extra == 0 and sent == 2 * GAMES, (turns, extra, sent)
        assert reports() == 2 * GAMES, reports()
        assert last_turn is not None
        print(
            f"deadline storm: {GAMES} games of 2 de Mayo, PostgreSQL + Redis, "
            f"{WORKERS} worker processes x --concurrency 1, {os.cpu_count()} CPUs"
        )
        rows = [
            ("setup: games made through the services (2 processes)", setup, "s"),
            (f"{GAMES} adjudicate tasks queued", queued, "s"),
            ("deadline -> last turn written", _since(last_turn, deadline), "s"),
            (f"deadline -> last of {2 * GAMES} reports in the Maildir", storm, "s"),
            (f"same workers: {GAMES} no-op tasks (send_outbox, no such row)", noop, "s"),
            ("ratio storm / no-op", storm / noop, "x"),
        ]
        for label, value, unit in rows:
            print(f"  {label:<60} {value:8.2f} {unit}")
        print(
            f"  {2 * GAMES / storm:6.1f} reports/s, {GAMES / storm:6.1f} turns/s   "
            f"(aim: all reports out within 60 s: {'met' if storm <= 60 else 'NOT met'})"
        )
    finally:
        if workers is not None:
            workers.stop()
        client.close()
        database.dispose()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        if redis_server is not None:
            redis_server.kill()
            redis_server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _since(moment: datetime, start: datetime) -> float:
    return (moment - start).total_seconds()


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.RedisError:
        return False


if __name__ == "__main__":
    main()
