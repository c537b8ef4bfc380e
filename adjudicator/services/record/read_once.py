"""Rows a transaction reads once: the latest turn of a game and the submissions for a turn.

A mail's steps and a turn's reports each ask for these a dozen times, and each query is a round
trip to the database. So the rows read are kept in ``session.info``, by model, for the rest of
the transaction, and stay what the query would find: a flush that changes one drops those of
its model (the query decides again), one that adds a turn or a submission adds it to those
kept, and the end of the transaction (or of a savepoint) drops them all.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from adjudicator.models import Submission, Turn

_KEY = "pbem_read_once"


def kept(session: Session, model: type[Turn | Submission]) -> dict[Any, Any]:
    """The rows of ``model`` this transaction read, by what they were read for; the caller
    adds what it reads. Pending changes are flushed first, as the query would have done."""
    if session.autoflush and _touched(session, model):
        session.flush()
    memo: dict[type, dict[Any, Any]] = session.info.setdefault(_KEY, {})
    if _touched(session, model):  # in a no_autoflush block: the query would not see them
        memo.pop(model, None)
    return memo.setdefault(model, {})


def _touched(session: Session, model: type) -> bool:
    return any(
        isinstance(row, model)
        for rows in (session.new, session.dirty, session.deleted)
        for row in rows
    )


@event.listens_for(Session, "before_flush")
def _changed(session: Session, _context: Any, _instances: Any) -> None:
    # A turn or submission changed (a turn rolled back): read again.
    memo: dict[type, dict[Any, Any]] = session.info.get(_KEY, {})
    for model in (Turn, Submission):
        if any(isinstance(row, model) for row in (*session.dirty, *session.deleted)):
            memo.pop(model, None)


@event.listens_for(Session, "after_flush")
def _added(session: Session, _context: Any) -> None:
    # After the INSERTs, while ``session.new`` still names what was added. A live turn added is
    # its game's latest (the next number, or the first), whether or not the game's was read.
    memo: dict[type, dict[Any, Any]] = session.info.setdefault(_KEY, {})
    latest, sets = memo.setdefault(Turn, {}), memo.get(Submission, {})
    for row in sorted(session.new, key=_id):
        if isinstance(row, Turn) and row.rolled_back_at is None:
            latest[row.game_id] = row
        elif isinstance(row, Submission) and (row.game_id, row.turn_number) in sets:
            sets[(row.game_id, row.turn_number)].append(row)


def _id(row: object) -> int:
    found = getattr(row, "id", None)
    return found if isinstance(found, int) else 0


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    # Each flush runs in a subtransaction of its own: its end is no end of what was read.
    if transaction.parent is None or transaction.nested:
        session.info.pop(_KEY, None)
