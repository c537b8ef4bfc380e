"""The orders on file for a turn: the set that counts per seat, its text, what a seat has sent
(for ORDERS), and whether every seat that owes orders has sent them (which may end the turn
before its deadline)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.models import Game, Submission
from adjudicator.services import play, positions


def current_orders(
    session: Session, game: Game, turn_number: int, whole: bool = False
) -> dict[str, Any]:
    """The latest accepted order set per seat for this turn: the last one received counts.
    ``whole``: only seats whose set was filed with every line accepted (a set filed without its
    refused lines stands at the deadline, but does not make the turn resolve early)."""
    latest: dict[str, Any] = {}
    complete: dict[str, bool] = {}
    for row in play.submissions(session, game.id, turn_number):
        if not row.accepted:
            continue
        latest[row.seat] = row.orders
        complete[row.seat] = all(line.get("status") != "rejected" for line in row.report or [])
    if whole:
        return {seat: orders for seat, orders in latest.items() if complete[seat]}
    return latest


def orders_text_on_file(session: Session, game: Game, seat: str, turn_number: int) -> str | None:
    """The text of the seat's accepted order set for the turn, the one that counts now."""
    sets = _sets_of(session, game, seat, turn_number)
    return next((row.text for row in sets if row.accepted), None)


def everyone_submitted(session: Session, game: Game) -> bool:
    """Every seat owing orders has a set on file, and nobody asked the turn to WAIT."""
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    # The snapshot the mail's reading and its reply share: the state is loaded once a session.
    owed = set(positions.snapshot(session, rules, turn).owed)
    if any(row.wait for row in play.submissions(session, game.id, turn.number + 1)):
        return False
    return bool(owed) and owed <= set(current_orders(session, game, turn.number + 1, whole=True))


def orders_on_file(
    session: Session, game: Game, seat: str, turn_number: int, lang: str = i18n.SOURCE
) -> dict[str, Any]:
    """What the seat has sent for a turn: the last set, whether it was accepted, and the set
    that counts when the last one was refused; its summary in ``lang``."""
    _ = i18n.translator(lang)
    sets = [row for row in _sets_of(session, game, seat, turn_number) if not row.wait]
    counting = next((row for row in sets if row.accepted), None)
    last = sets[0] if sets else None
    if last is None:
        summary = _(
            "no orders on file for turn %(turn)s; the defaults apply if none come", turn=turn_number
        )
    elif last.accepted:
        summary = _("your orders for turn %(turn)s are on file and count (below)", turn=turn_number)
    elif counting is not None:
        summary = _(
            "your last orders for turn %(turn)s were refused; the earlier set below counts",
            turn=turn_number,
        )
    else:
        summary = _(
            "your orders for turn %(turn)s were refused: nothing counts yet", turn=turn_number
        )
    return {
        "turn": turn_number,
        "summary": summary,
        "last": _order_lines(last) if last is not None else [],
        "accepted": bool(last and last.accepted),
        "counting": _order_lines(counting) if counting and counting is not last else [],
    }


def _order_lines(submission: Submission) -> list[str]:
    """The lines of a stored set the game read as orders: greetings and the like left out."""
    read = [line["text"] for line in submission.report if line.get("status") != "ignored"]
    return read or submission.text.splitlines()


def _sets_of(session: Session, game: Game, seat: str, turn_number: int) -> list[Submission]:
    """What a seat sent for a turn, the last first."""
    return [
        row for row in reversed(play.submissions(session, game.id, turn_number)) if row.seat == seat
    ]
