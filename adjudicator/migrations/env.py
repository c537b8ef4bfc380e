"""Alembic environment: migrations run against the URL the service passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from adjudicator.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations(connection: Connection) -> None:
    # render_as_batch lets ALTER TABLE work on SQLite by copying the table.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    from adjudicator.db import make_engine

    engine = make_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as fresh:
        run_migrations(fresh)
