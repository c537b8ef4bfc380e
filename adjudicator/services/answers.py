"""What a mail's read-only commands get back (STATUS, HELP, HISTORY, ORDERS), and the other
pieces a turn report and a receipt both show: the lines as read, who has sent orders, who is away.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.core.contract import LineReport
from adjudicator.models import Game, Seat, Submission
from adjudicator.services import commands, play, preferences
from adjudicator.services.runtime import Runtime


def line_json(line: LineReport) -> dict[str, Any]:
    return {
        "number": line.number,
        "text": line.text,
        "status": line.status.value,
        "canonical": line.canonical,
        "code": line.code,
        "reason": line.reason,
        "suggestion": line.suggestion,
    }


def command_context(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    reading: commands.Reading,
    sections: commands.Sections,
) -> dict[str, Any]:
    """Answer the commands that only read the game (STATUS, HELP, HISTORY, ORDERS) and give the
    reply its sections, in the order the player wrote the commands."""
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    on_file = None
    for command in reading.commands:
        if command.word == "STATUS":
            sections.did(
                command, "the position and the deadline are below" + who_sent(session, game)
            )
        elif command.word == "HISTORY":
            url = f"{runtime.config.base_url}/games/{game.id}"
            sections.did(command, f"every turn of game {game.id}, with pictures: {url}")
        elif command.word == "HELP":
            sections.did(command, f"how to write orders for {rules.title} is below")
        elif command.word == "ORDERS":
            on_file = orders_on_file(session, game, seat.seat, turn.number + 1)
            sections.did(command, on_file["summary"])
    place = {commands.shown(command): index for index, command in enumerate(reading.commands)}
    sections.done.sort(key=lambda entry: place.get(entry.line, len(place)))
    return {
        "sections": sections.json(),
        "help": rules.help_text(game.options) if reading.has("HELP") else "",
        "on_file": on_file,
    }


def who_sent(session: Session, game: Game) -> str:
    """Which seats owing orders for the coming turn have a set on file (never what it says),
    as a clause for STATUS; empty for games that move on receipt."""
    rules = play.rules_for(game)
    if rules.resolves_on_receipt or game.status != "active":
        return ""
    turn = play.latest_turn(session, game.id)
    owed = sorted(rules.pending(rules.load(turn.state)))
    sent = play.seats_with_orders(session, game.id, turn.number + 1)
    if not owed:
        return ""
    have = [seat for seat in owed if seat in sent]
    waiting = [seat for seat in owed if seat not in sent]
    parts = []
    if have:
        parts.append("orders on file from " + ", ".join(have))
    if waiting:
        parts.append("still waiting for " + ", ".join(waiting))
    return "; " + "; ".join(parts)


def orders_on_file(session: Session, game: Game, seat: str, turn_number: int) -> dict[str, Any]:
    """What the seat has sent for a turn: the last set, whether it was accepted, and the set
    that counts when the last one was refused."""
    sets = session.scalars(
        select(Submission)
        .where(
            Submission.game_id == game.id,
            Submission.seat == seat,
            Submission.turn_number == turn_number,
            Submission.wait.is_(False),
        )
        .order_by(Submission.id.desc())
    ).all()
    counting = next((row for row in sets if row.accepted), None)
    last = sets[0] if sets else None
    if last is None:
        summary = f"no orders on file for turn {turn_number}; the defaults apply if none come"
    elif last.accepted:
        summary = f"your orders for turn {turn_number} are on file and count (below)"
    elif counting is not None:
        summary = (
            f"your last orders for turn {turn_number} were refused; the earlier set below counts"
        )
    else:
        summary = f"your orders for turn {turn_number} were refused: nothing counts yet"
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


def away(game: Game, now: datetime) -> list[dict[str, str]]:
    """The seats whose players are on vacation now, for the turn report."""
    return [
        {
            "seat": seat.seat,
            "until": preferences.vacation_text(seat.player, seat.player.timezone or game.timezone)
            or "",
        }
        for seat in game.seats
        if preferences.on_vacation(seat.player, now)
    ]
