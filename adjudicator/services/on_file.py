"""The orders on file for a turn: the set that counts per seat, its text, and whether every seat
that owes orders has sent them (which may end the turn before its deadline)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.models import Game, Submission
from adjudicator.services import play


def current_orders(
    session: Session, game: Game, turn_number: int, whole: bool = False
) -> dict[str, Any]:
    """The latest accepted order set per seat for this turn: the last one received counts.
    ``whole``: only seats whose set was filed with every line accepted (a set filed without its
    refused lines stands at the deadline, but does not make the turn resolve early)."""
    latest: dict[str, Any] = {}
    complete: dict[str, bool] = {}
    rows = session.scalars(
        select(Submission)
        .where(
            Submission.game_id == game.id,
            Submission.turn_number == turn_number,
            Submission.accepted.is_(True),
        )
        .order_by(Submission.id)
    )
    for row in rows:
        latest[row.seat] = row.orders
        complete[row.seat] = all(line.get("status") != "rejected" for line in row.report or [])
    if whole:
        return {seat: orders for seat, orders in latest.items() if complete[seat]}
    return latest


def orders_text_on_file(session: Session, game: Game, seat: str, turn_number: int) -> str | None:
    """The text of the seat's accepted order set for the turn, the one that counts now."""
    return session.scalars(
        select(Submission.text)
        .where(
            Submission.game_id == game.id,
            Submission.seat == seat,
            Submission.turn_number == turn_number,
            Submission.accepted.is_(True),
        )
        .order_by(Submission.id.desc())
        .limit(1)
    ).first()


def everyone_submitted(session: Session, game: Game) -> bool:
    """Every seat owing orders has a set on file, and nobody asked the turn to WAIT."""
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    owed = set(rules.pending(rules.load(turn.state)))
    waiting = session.scalar(
        select(Submission.id).where(
            Submission.game_id == game.id,
            Submission.turn_number == turn.number + 1,
            Submission.wait.is_(True),
        )
    )
    if waiting is not None:
        return False
    return bool(owed) and owed <= set(current_orders(session, game, turn.number + 1, whole=True))
