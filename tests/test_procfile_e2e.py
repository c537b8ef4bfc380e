"""At scale: every Procfile process started for real against PostgreSQL and Redis, then played."""

from __future__ import annotations

import os
import re
import smtplib
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

import psycopg
import pytest
import redis
import requests
from conftest import PG_ADMIN, ROOT, free_port, redis_url
from playbymail import mail_by_smtp, outbox_file, outbox_files
from sqlalchemy import select

from adjudicator.db import Database
from adjudicator.models import InboundMessage, utcnow

DATABASE = f"pbem_scale_{os.getpid()}"
REDIS_DB = redis_url("procfile")


def procfile() -> dict[str, str]:
    entries = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            entries[name.strip()] = command.strip()
    return entries


class Deployment:
    def __init__(self, env: dict[str, str], data_dir: Path, smtp_port: int, web_port: int) -> None:
        self.env, self.data_dir, self.smtp_port, self.web_port = env, data_dir, smtp_port, web_port

    def mail(self, sender: str, to: str, body: str) -> None:
        mail_by_smtp(self.smtp_port, sender, to, body)

    def outbox(self) -> list[str]:
        return [path.read_text(errors="replace") for path in outbox_files(self.data_dir / "outbox")]

    def wait_for_mail(self, count: int, timeout: float = 30) -> str:
        return outbox_file(self.data_dir / "outbox", count, timeout).read_text(errors="replace")


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{DATABASE}"')
    redis.Redis.from_url(REDIS_DB).flushdb()
    host = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
    smtp_port, web_port = free_port(), free_port()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "PBEM_DATABASE_URL": f"postgresql+psycopg://{host}/{DATABASE}",
        "PBEM_BROKER_URL": REDIS_DB,
        "PBEM_DATA_DIR": str(tmp_path / "var"),
        "PBEM_SECRET_KEY": "scale-secret",
        "PBEM_SMTP_PORT": str(smtp_port),
        "PBEM_TICK_SECONDS": "1",
        "PORT": str(web_port),
    }
    env.pop("PBEM_CONFIG", None)
    entries = procfile()
    assert set(entries) == {"release", "web", "worker", "beat", "smtp"}
    release = subprocess.run(
        ["bash", "-c", entries["release"]],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert release.returncode == 0, release.stderr
    processes = [
        subprocess.Popen(
            ["bash", "-c", f"exec {entries[name]}"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / f"{name}.log").open("w"),
        )
        for name in ("web", "worker", "beat", "smtp")
    ]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{web_port}/", timeout=2).raise_for_status()
            smtplib.SMTP("127.0.0.1", smtp_port, timeout=2).quit()
            break
        except (OSError, requests.RequestException):
            time.sleep(0.2)
    yield Deployment(env, tmp_path / "var", smtp_port, web_port)
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(30)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def test_procfile_processes_play_a_game(deployment: Deployment) -> None:
    deployment.mail("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    welcome = deployment.wait_for_mail(1)
    reply_to = re.search(r"^Reply-To: (\S+)", welcome, re.MULTILINE)
    assert reply_to is not None
    deployment.mail("a@example.com", reply_to.group(1), "RETREAT")
    assert "turn 1 resolved" in deployment.wait_for_mail(2)
    page = requests.get(f"http://127.0.0.1:{deployment.web_port}/games/1", timeout=10)
    assert page.status_code == 200 and re.search(r"/games/1/turns/1/[0-9a-f]{20}\.png", page.text)
    # Work the broker never saw (stored while it was away) is found by beat's tick.
    database = Database(deployment.env["PBEM_DATABASE_URL"])
    raw = (
        b"From: b@example.com\r\nTo: new@pbem.localhost\r\nSubject: x\r\n"
        b"Message-ID: <orphan@example.com>\r\n\r\nNEW THERMOPYLES\r\n"
    )
    with database.session() as session:
        session.add(
            InboundMessage(
                dedupe_key="mid:<orphan@example.com>",
                source="test",
                raw=raw,
                size=len(raw),
                envelope_to=["new@pbem.localhost"],
                received_at=utcnow() - timedelta(minutes=5),
            )
        )
    third = deployment.wait_for_mail(3, timeout=30)
    assert "To: b@example.com" in third
    database.dispose()


def test_a_full_2_de_mayo_game_by_mail_at_scale(deployment: Deployment) -> None:
    """Two players (scripted) mail every turn's orders over SMTP until the game ends."""
    from dos_de_mayo_by_mail import dos_de_mayo_game

    from adjudicator import config as configuration
    from adjudicator.demo import ScriptedPlayers
    from adjudicator.models import Game, Turn
    from adjudicator.services.record.runtime import Runtime

    config = configuration.load(environ=deployment.env)
    runtime = Runtime(config, Database(config.database_url))
    game_id = dos_de_mayo_game(runtime, schedule="1h")
    players = ScriptedPlayers(runtime, game_id, pace=0.2, seed=5)
    players.start()
    deadline = time.monotonic() + 120
    status = "active"
    while time.monotonic() < deadline and status == "active":
        time.sleep(0.5)
        with runtime.db.session() as session:
            status = session.get_one(Game, game_id).status
    players.stop.set()
    assert status == "finished", "the game did not end within 2 minutes"
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        turns = session.scalars(select(Turn).where(Turn.game_id == game_id)).all()
        last = max(turn.number for turn in turns)
        assert sorted(turn.number for turn in turns) == list(range(last + 1))
        assert last == 10 or "limit" in game.result, (last, game.result)
        assert {turn.reason for turn in turns[1:]} == {"all-submitted"}
    recipients = ("murat@example.com", "daoiz@example.com")

    def reports_of() -> dict[str, list[EmailMessage]]:
        mails = [message_from_string(raw, policy=policy.default) for raw in deployment.outbox()]
        return {
            player: [m for m in mails if m["To"] == player and m["X-Pbem-Kind"] == "report"]
            for player in recipients
        }

    # The game is finished once its last turn commits; the reports of that turn are delivered
    # by their own task after it, so the last ones may still be on their way.
    settle = time.monotonic() + 30
    found = reports_of()
    while any(len(r) < last for r in found.values()) and time.monotonic() < settle:
        time.sleep(0.2)
        found = reports_of()
    for player in recipients:
        reports = found[player]
        assert len(reports) == last, (player, len(reports))
        body = reports[-1].get_body(preferencelist=("plain",))
        assert body is not None
        text = body.get_content()
        assert "THE GAME IS OVER" in text and "The seed is now revealed" in text
    runtime.db.dispose()
