"""Empty every table of a database the test run already migrated, so each test starts afresh."""

from __future__ import annotations

from sqlalchemy import text

from adjudicator.db import Database
from adjudicator.models import Base


def emptied(url: str) -> str:
    """``url``, its tables emptied and their ids starting again from 1."""
    database = Database(url)
    with database.engine.begin() as connection:
        tables = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    database.dispose()
    return url
