"""Shared fixtures: a runtime per test on SQLite and on the machine's real PostgreSQL."""

from __future__ import annotations

import os
import socket
from collections.abc import Generator, Iterator
from pathlib import Path

import golden
import psycopg
import pytest
from sqlalchemy import text

from adjudicator import config as configuration
from adjudicator import migrate
from adjudicator.db import Database
from adjudicator.models import Base
from adjudicator.services.runtime import Runtime

ROOT = Path(__file__).resolve().parent.parent
TEST_CONFIG = ROOT / "config" / "test.toml"
# The machine's PostgreSQL (trust auth); CI starts it when it is down.
PG_ADMIN = os.environ.get("PBEM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
PG_DATABASE = f"pbem_test_{os.getpid()}"
REDIS_URL = os.environ.get("PBEM_TEST_REDIS", "redis://127.0.0.1:6379/15")


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


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database on the real server for this test run, migrated once."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{PG_DATABASE}"')
    host_part = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
    url = f"postgresql+psycopg://{host_part}/{PG_DATABASE}"
    database = Database(url)
    migrate.upgrade(database)
    database.dispose()
    yield url
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{PG_DATABASE}" WITH (FORCE)')


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
    database = Database(url)
    with database.engine.begin() as connection:
        tables = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    database.dispose()
    return url


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
