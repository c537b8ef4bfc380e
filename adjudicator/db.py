"""Database engine and sessions: one code path for SQLite (embedded) and PostgreSQL (scale)."""

from __future__ import annotations

import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import CursorResult, Engine, Executable, create_engine, event, exc
from sqlalchemy.orm import Session, sessionmaker

# A pooled PostgreSQL connection idle this long is pinged before use: a peer gone silently (a
# network cut, no FIN) is only found by asking. A busier one is trusted, after a look at its
# socket that costs no round trip (``_closed_by_server``).
IDLE_PING_SECONDS = 30.0
# The runs of a statement on a connection after which it is prepared there (psycopg's default).
PREPARE_AFTER = 5


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # The web server, SMTP listener and worker threads share the file: wait for locks
        # instead of failing, and let readers work while one writer commits (WAL).
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # Take the write lock at BEGIN so two writers never deadlock upgrading read locks.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    # No pre-ping: it is a round trip per checkout, several per mail and per turn. A statement
    # run a fifth time on a connection is prepared there (psycopg's automatic preparing, one
    # round trip once per statement and connection) and no longer parsed and planned by the
    # server at each run: that was about 40 % of the server's CPU for a mail, and 25 % for a
    # turn, the same few statements run again and again on a worker's few connections.
    engine = create_engine(
        url, pool_size=10, max_overflow=20, connect_args={"prepare_threshold": PREPARE_AFTER}
    )
    _check_liveness(engine)
    return engine


def _check_liveness(engine: Engine) -> None:
    """Hand out only live connections, at no round trip for a connection in use."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["pbem_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        # DisconnectionError makes the pool drop the connection and open another.
        if _closed_by_server(dbapi_connection):
            raise exc.DisconnectionError("the server closed the connection")
        idle_since = record.info.get("pbem_idle_since")
        if idle_since is None or time.monotonic() - idle_since < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise exc.DisconnectionError(f"the ping failed: {error}") from error


def _closed_by_server(dbapi_connection: Any) -> bool:
    """Whether an idle connection is known dead without asking: the server says nothing to an
    idle client unless it is ending the session (a restart, pg_terminate_backend, a timeout),
    so anything waiting on the socket, the FATAL message or the end of the stream, means it
    is gone."""
    if dbapi_connection.closed or dbapi_connection.broken:
        return True
    try:
        socket = dbapi_connection.pgconn.socket
    except Exception:  # psycopg.OperationalError: libpq has no socket any more
        return True
    poll = select.poll()
    poll.register(socket, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poll.poll(0))


def changed(session: Session, statement: Executable) -> int:
    """Run an UPDATE or DELETE and say how many rows it changed (the compare-and-set check)."""
    result = session.execute(statement)
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


class Database:
    """An engine and its session factory; services take one of these."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A unit of work: committed on success, rolled back on any error."""
        session = self.sessions()
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    @contextmanager
    def autocommit(self) -> Iterator[Session]:
        """A session each of whose statements commits by itself, with no BEGIN nor COMMIT
        round trip: for one read, or one write that is whole alone (a compare-and-set UPDATE).
        On SQLite, whose statements cost no round trip, an ordinary unit of work."""
        if not self.is_postgres:
            with self.session() as session:
                yield session
            return
        with self.engine.connect() as connection:
            session = self.sessions(bind=connection.execution_options(isolation_level="AUTOCOMMIT"))
            try:
                yield session
                session.commit()
            finally:
                session.close()

    def dispose(self) -> None:
        self.engine.dispose()
