"""What a mail's read-only commands get back (STATUS, HELP, HISTORY, ORDERS), and the other
pieces a turn report and a receipt both show: the lines as read, who has sent orders, who is away.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import LineReport
from adjudicator.i18n import N_
from adjudicator.models import Game, Seat
from adjudicator.services import commands, on_file, play, preferences
from adjudicator.services.runtime import Runtime

# A line's status as the receipt names it (email/_lines.*), translated where it is shown.
LINE_STATUSES = (N_("accepted"), N_("rejected"), N_("ignored"))


def line_json(line: LineReport) -> dict[str, Any]:
    """A line of a mail as read, its reason and suggestion in the current reader's language
    (written when the mail was read; ``i18n.speaking``); the order itself stays canonical."""
    return {
        "number": line.number,
        "text": line.text,
        "status": line.status.value,
        "canonical": line.canonical,
        "code": line.code,
        "reason": said.anew(line.reason),
        "suggestion": said.anew(line.suggestion),
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
    reply its sections, in the order the player wrote the commands, in the seat's language."""
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    lang = play.language(seat.player, game)
    _ = i18n.translator(lang)
    shown: dict[str, Any] | None = None
    for command in reading.commands:
        if command.word == "STATUS":
            sent = who_sent(session, game, lang)
            sections.did(command, _("the position and the deadline are below") + sent)
        elif command.word == "HISTORY":
            url = f"{runtime.config.base_url}/games/{game.id}"
            sections.did(
                command, _("every turn of game %(id)s, with pictures: %(url)s", id=game.id, url=url)
            )
        elif command.word == "HELP":
            sections.did(
                command, _("how to write orders for %(title)s is below", title=rules.title)
            )
        elif command.word == "ORDERS":
            shown = on_file.orders_on_file(session, game, seat.seat, turn.number + 1, lang)
            sections.did(command, shown["summary"])
    place = {commands.shown(command): index for index, command in enumerate(reading.commands)}
    sections.done.sort(key=lambda entry: place.get(entry.line, len(place)))
    return {
        "sections": sections.json(),
        "help": rules.help_text(game.options) if reading.has("HELP") else "",
        "on_file": shown,
    }


def who_sent(session: Session, game: Game, lang: str = i18n.SOURCE) -> str:
    """Which seats owing orders for the coming turn have a set on file (never what it says), and
    which of those sets have refused lines, as a clause for STATUS in ``lang``; empty for games
    that move on receipt."""
    rules = play.rules_for(game)
    owed = on_file.owed(session, game)
    if not owed.seats:
        return ""
    titles = {seat: rules.seat_title(seat) for seat in sorted(owed.seats)}
    whole = [titles[seat] for seat in titles if owed.seats[seat].filed is on_file.Filed.WHOLE]
    partial = [titles[seat] for seat in titles if seat in owed.incomplete]
    waiting = [titles[seat] for seat in titles if seat in owed.missing]
    parts = []
    if whole:
        parts.append(i18n.gettext("orders on file from %(names)s", lang, names=", ".join(whole)))
    if partial:
        parts.append(
            i18n.gettext(
                "orders on file without a refused line from %(names)s",
                lang,
                names=", ".join(partial),
            )
        )
    if waiting:
        parts.append(i18n.gettext("still waiting for %(names)s", lang, names=", ".join(waiting)))
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
