"""The service's runtime and its stored rows, as the commands that need a database open them.

Each command imports what it uses, when it runs: the database, the migrations, Celery and the
games' rules cost a second to load, which `pbem mail parse` and `pbem adjudicate` never touch
(tests/test_cli_startup.py holds them to it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from adjudicator.services.record.runtime import Runtime

RowT = TypeVar("RowT")


def load_runtime() -> Runtime:
    from adjudicator import bootstrap  # looked up when called: tests replace bootstrap.runtime

    return bootstrap.runtime()


def stored(session: Session, kind: type[RowT], key: int, missing: str) -> RowT:
    """The row of ``kind`` stored under ``key``; where there is none, the command ends saying
    ``missing``."""
    row = session.get(kind, key)
    if row is None:
        raise click.ClickException(missing)
    return row
