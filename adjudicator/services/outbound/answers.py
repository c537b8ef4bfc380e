"""What a mail's read-only commands get back (STATUS, HELP, HISTORY, ORDERS), and the other
pieces a turn report and a receipt both show: the lines as read, who has sent orders, who is away.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import LineReport, OrderOutcome
from adjudicator.i18n import N_
from adjudicator.models import Game, Seat
from adjudicator.services.access import private_links
from adjudicator.services.outbound import asks
from adjudicator.services.record import on_file, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands, preferences
from adjudicator.statuses import GameStatus

# A line's status as the receipt names it (email/_lines.*), translated where it is shown.
LINE_STATUSES = (N_("accepted"), N_("rejected"), N_("ignored"))
# A good line of a mail refused as a whole: read, and not acted on (nor kept).
NOT_CARRIED_OUT = N_("understood, not carried out")
# GAMES lists a player's most recent games; the list page has them all.
GAMES_LISTED = 20


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


def carried_out(
    lines: list[dict[str, Any]], outcomes: Sequence[OrderOutcome], seat: str
) -> list[dict[str, Any]]:
    """A resolved mail's lines (``line_json``) as what was done: an accepted line its game says
    it did not carry out reads so, with the game's reason."""
    undone = {
        line: why or outcome.detail
        for outcome in outcomes
        if outcome.seat == seat
        for line, why in outcome.undone
    }
    return [
        {**line, "status": NOT_CARRIED_OUT, "reason": said.anew(undone[line["canonical"]])}
        if line["status"] == "accepted" and line["canonical"] in undone
        else line
        for line in lines
    ]


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
        elif command.word == "GAMES":
            sections.did(command, players_games(session, runtime, seat, lang))
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


def players_games(session: Session, runtime: Runtime, seat: Seat, lang: str) -> str:
    """GAMES: every game the seat's player sits in, what they owe in each (read as the lists
    and the mails read it, ``asks.now_owed``), and their own list's link. Asked only at a seat's
    reply address, which proves the player: which games someone plays is theirs to tell."""
    games = session.scalars(
        select(Game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.player_id == seat.player_id)
        .order_by(Game.last_activity.desc(), Game.id.desc())
        .limit(GAMES_LISTED)
    ).unique()
    with i18n.speaking(lang):  # each game's result in the reader's words
        told = [_game_told(session, game, seat.player_id, lang) for game in games]
    return i18n.gettext(
        "%(games)s. The list, with links: %(url)s",
        lang,
        games="; ".join(told),
        url=private_links.games_url(runtime, seat),
    )


def _game_told(session: Session, game: Game, player_id: int, lang: str) -> str:
    if game.status == GameStatus.FORMING:
        state = i18n.gettext("waiting for players to join", lang)
    elif game.status != GameStatus.ACTIVE:
        state = i18n.gettext("over: %(result)s", lang, result=play.shown_result(game))
    elif game.paused:
        state = i18n.gettext("paused", lang)
    elif asks.owed_by_player(game, asks.now_owed(session, game), player_id):
        state = i18n.gettext("you owe a move", lang)
    else:
        state = i18n.gettext("in play, nothing owed by you", lang)
    title = play.rules_for(game).title
    return i18n.gettext(
        "game %(id)s, %(title)s: %(state)s", lang, id=game.id, title=title, state=state
    )


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
