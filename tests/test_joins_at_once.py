"""Both players' JOIN read at the same moment by two workers, on PostgreSQL: the game starts.

Each worker locks the game's row before reading its seats. The second one to get the lock must
read the seat the first one just filled: a statement that waited for the lock sees the rows it
joins to the locked one as they were when it began, so a game read with its seats in the locking
statement itself stayed "forming" for ever, each JOIN having seen the other seat still open.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from conftest import Queue, make_config
from empty_tables import emptied
from playbymail import compose, deliver_mail, reply_to, sent
from sqlalchemy import select

from adjudicator.db import Database
from adjudicator.models import Game
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.record.runtime import Runtime

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"


@pytest.fixture
def runtime(tmp_path: Path, postgres_url: str) -> Iterator[Runtime]:
    config = make_config(tmp_path, emptied(postgres_url))
    database = Database(config.database_url)
    yield Runtime(config, database, enqueue=Queue())
    database.dispose()


def waiting_for_locks(dsn: str, count: int) -> bool:
    with psycopg.connect(dsn, autocommit=True) as monitor:
        row = monitor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        ).fetchone()
    return row is not None and row[0] >= count


def test_two_joins_read_at_once_start_the_game(runtime: Runtime) -> None:
    new = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", new))
    joins = []
    for player in (FRANCE, SPAIN):
        stored = inbox.store(runtime, compose(player, reply_to(runtime, player), "JOIN"), "test")
        assert isinstance(stored, inbox.Stored)
        joins.append(stored.id)
    dsn = runtime.config.database_url.replace("postgresql+psycopg://", "postgresql://")
    # The test holds the game's row while both workers start, so that both wait for it.
    with psycopg.connect(dsn) as holder:
        holder.execute("SELECT id FROM games FOR UPDATE")
        workers = [
            threading.Thread(target=pipeline.process, args=(runtime, inbound_id))
            for inbound_id in joins
        ]
        for worker in workers:
            worker.start()
        limit = time.monotonic() + 10
        while not waiting_for_locks(dsn, 2) and time.monotonic() < limit:
            time.sleep(0.05)
        assert waiting_for_locks(dsn, 2), "both JOINs should wait for the game's row"
        holder.rollback()
    for worker in workers:
        worker.join(30)
    with runtime.db.session() as session:
        assert session.scalars(select(Game.status)).one() == "active"
    kinds = {(str(m["To"]), str(m["X-Pbem-Kind"])) for m in sent(runtime)}
    assert {(FRANCE, "start"), (SPAIN, "start")} <= kinds, kinds
