"""What a mail's read-only commands get back (STATUS, HELP, HISTORY, ORDERS), and the other
pieces a turn report and a receipt both show: the lines as read, who has sent orders, who is away.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from adjudicator.core.contract import LineReport
from adjudicator.models import Game, Seat
from adjudicator.services import commands, play, preferences
from adjudicator.services.on_file import orders_on_file
from adjudicator.services.runtime import Runtime
from adjudicator.statuses import GameStatus


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
    if rules.resolves_on_receipt or game.status != GameStatus.ACTIVE:
        return ""
    turn = play.latest_turn(session, game.id)
    owed = sorted(rules.pending(rules.load(turn.state)))
    sent = play.seats_with_orders(session, game.id, turn.number + 1)
    if not owed:
        return ""
    have = [rules.seat_title(seat) for seat in owed if seat in sent]
    waiting = [rules.seat_title(seat) for seat in owed if seat not in sent]
    parts = []
    if have:
        parts.append("orders on file from " + ", ".join(have))
    if waiting:
        parts.append("still waiting for " + ", ".join(waiting))
    return "; " + "; ".join(parts)


def away(game: Game, now: datetime) -> list[dict[str, str]]:
    """The seats whose players are on vacation now, for the turn report."""
    return [
        {
            "seat": play.seat_title(game, seat.seat),
            "until": preferences.vacation_text(seat.player, seat.player.timezone or game.timezone)
            or "",
        }
        for seat in game.seats
        if preferences.on_vacation(seat.player, now)
    ]
