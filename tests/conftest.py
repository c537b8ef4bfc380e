"""Shared fixtures: a runtime per test on SQLite and on the machine's real PostgreSQL."""

from __future__ import annotations

import os
import socket
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

import dkimkeys
import golden
import psycopg
import pytest
from aiosmtpd.controller import Controller
from empty_tables import emptied

from adjudicator import config as configuration
from adjudicator import migrate
from adjudicator.db import Database
from adjudicator.mail import dkim
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime

ROOT = Path(__file__).resolve().parent.parent
TEST_CONFIG = ROOT / "config" / "test.toml"
# The machine's PostgreSQL (trust auth); CI starts it when it is down.
PG_ADMIN = os.environ.get("PBEM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
PG_HOST = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
PG_DATABASE = f"pbem_test_{os.getpid()}"
# Redis databases: each test process (one per pytest-xdist worker, gw0, gw1, …) has a block of
# its own, so tests that empty a database never empty another worker's; PBEM_TEST_REDIS_DB moves
# the whole block, so that two runs on one machine keep apart too.
REDIS_PURPOSES = ("tests", "faults", "procfile", "operations")
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
_REDIS_FIRST = int(os.environ.get("PBEM_TEST_REDIS_DB", "8")) + len(REDIS_PURPOSES) * _WORKER


def redis_url(purpose: str) -> str:
    """The Redis database this test process uses for ``purpose`` (one of REDIS_PURPOSES)."""
    return f"redis://127.0.0.1:6379/{_REDIS_FIRST + REDIS_PURPOSES.index(purpose)}"


REDIS_URL = redis_url("tests")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "golden(path, name): a golden case, from golden.params")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing golden case is reported by its file and name, the place to open and fix."""
    report = yield
    line = golden.where(item)
    if report.failed and line is not None:
        report.sections.append(("golden case", line))
    return report


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server(handler: object, port: int | None = None) -> Iterator[int]:
    """An SMTP server on localhost whose ``handler`` (an aiosmtpd handler, such as a sink that
    keeps what it is sent) answers each mail, for as long as the block runs; its port."""
    port = port or free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, decode_data=False)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


@contextmanager
def fresh_database(name: str) -> Iterator[str]:
    """A fresh database ``name`` on the machine's PostgreSQL, migrated, dropped afterwards; its
    URL. One left by a run that was killed is dropped first."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://{PG_HOST}/{name}"
    try:
        database = Database(url)
        migrate.upgrade(database)
        database.dispose()
        yield url
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database on the real server for this test run, migrated once."""
    with fresh_database(PG_DATABASE) as url:
        yield url


def make_config(tmp_path: Path, database_url: str, **extra: object) -> configuration.Config:
    environ = {"PBEM_CONFIG": str(TEST_CONFIG)}
    values: dict[str, object] = {
        "data_dir": str(tmp_path / "var"),
        "database_url": database_url,
        "broker_url": "memory://localhost/",
        "smtp_url": "",
    }
    values.update(extra)
    return configuration.load(environ=environ, extra=values)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite'}"
    url: str = request.getfixturevalue("postgres_url")
    # Each test starts from empty tables in the shared, already migrated database.
    return emptied(url)


@pytest.fixture(scope="session")
def signers() -> dkimkeys.Signers:
    return dkimkeys.Signers()


@pytest.fixture
def dns(signers: dkimkeys.Signers, monkeypatch: pytest.MonkeyPatch) -> dkimkeys.Signers:
    """DKIM signers whose records the pipeline's lookups find: the one fake, as there is no DNS
    here."""
    monkeypatch.setattr(dkim, "default_dnsfunc", signers.dns)
    return signers


@pytest.fixture
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each new game's seed is the next of 01…01, 02…02, …: the same deal every run (where the
    players add words of their own to JOIN and NEW, as their Message-IDs differ from run to
    run), and still a seed of its own for each game."""
    fixed = iter(bytes([number]) * 32 for number in range(1, 10))
    monkeypatch.setattr(play, "new_seed", lambda: next(fixed))


class Queue:
    """Records what services ask to queue, so a test can run it by hand."""

    def __init__(self) -> None:
        self.items: list[tuple[str, int]] = []

    def __call__(self, task: str, record_id: int) -> None:
        self.items.append((task, record_id))


@pytest.fixture
def runtime(tmp_path: Path, database_url: str) -> Iterator[Runtime]:
    config = make_config(tmp_path, database_url)
    database = Database(config.database_url)
    migrate.upgrade(database)
    built = Runtime(config, database, enqueue=Queue())
    yield built
    database.dispose()
