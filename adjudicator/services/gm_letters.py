"""Mail to a game's game master: the answer to NEW, the answers to commands, and the notices
that the game has started or is over; in the game master's language (``language``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.building import Picture
from adjudicator.models import Game, OutboxMessage, Player, utcnow
from adjudicator.services import asks, commands, panel_links, play, positions, subjects
from adjudicator.services.mailer import Letter, Reply, queue
from adjudicator.services.runtime import Runtime
from adjudicator.statuses import GameStatus


def language(game: Game) -> str:
    """What the game master reads: their own language, else the game's, else English."""
    return play.language(game.gm, game) if game.gm is not None else i18n.chosen(game.language)


def gm_address(runtime: Runtime, game: Game) -> str:
    """The game master's own reply address: commands sent there act on the game."""
    token = seat_token(runtime.config.secret_key, game.id, "gm", 1)
    return reply_address(token, runtime.config.mail_domain)


def _gm_letter(
    runtime: Runtime,
    game: Game,
    reply: Reply,
    key: str,
    template: str,
    extra: dict[str, Any],
    what: str,
) -> Letter:
    rules = play.rules_for(game)
    return Letter(
        key=key,
        kind="gm",
        to=reply.mail.sender,
        subject=subjects.subject(game, rules.title, what, language(game)),
        template=template,
        context={**_gm_context(reply.session, runtime, game), **extra},
        reply_to=gm_address(runtime, game),
        in_reply_to=reply.mail.message_id,
        references=[reply.mail.message_id] if reply.mail.message_id else [],
    )


def _gm_context(session: Session, runtime: Runtime, game: Game) -> dict[str, Any]:
    lang = language(game)
    with i18n.speaking(lang):
        ask = _ask(session, runtime, game, lang).json()
    return {
        "language": lang,
        "ask": ask,
        "game_id": game.id,
        "title": play.rules_for(game).title,
        "gm_address": gm_address(runtime, game),
        "archive_url": f"{runtime.config.base_url}/games/{game.id}",
        "seats": [
            {
                "seat": seat.seat,
                "title": play.seat_title(game, seat.seat),
                "name": play.display_name(seat.player),
                "address": seat.player.address,
                "joined": bool(seat.joined_at),
            }
            for seat in game.seats
        ],
        "status": game.status,
        "schedule": game.schedule,
        "timezone": game.timezone,
    }


def _ask(session: Session, runtime: Runtime, game: Game, lang: str) -> asks.Ask:
    """Who the game is waiting for, as the game master reads it first (in ``lang``)."""
    zone = (game.gm.timezone if game.gm else "") or game.timezone
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    pending = rules.pending(rules.load(turn.state))
    moment = asks.moment(session, runtime, game, turn, pending, zone, utcnow(), lang)
    return asks.for_gm(rules, game, moment)


def gm_created(reply: Reply, game: Game, guessed: commands.Entry | None = None) -> None:
    """The answer to the game master's NEW: the game formed, the invitations sent; ``guessed``:
    the line saying which language the game master's mail was guessed to be in."""
    session, runtime = reply.session, reply.runtime
    # The welcome carries the first link to the web panel; PANEL mails a new one.
    link = panel_links.issue(session, runtime, game, utcnow())
    panel = {"url": link.url, "hours": link.hours} if isinstance(link, panel_links.Issued) else None
    extra = {
        "panel": panel,
        "sections": commands.Sections(done=[guessed]).json() if guessed else None,
    }
    key = reply.key
    letter = _gm_letter(runtime, game, reply, key, "gm_created", extra, "gm-formed")
    queue(session, runtime, letter, game)


def gm_reply(reply: Reply, game: Game, results: Sequence[Any]) -> None:
    """The answers to the game master's commands, in sections."""
    sections = commands.Sections()
    for result in results:
        entry = commands.Entry(result.line, result.message, result.done)
        if result.section == "not-understood":
            sections.not_understood.append(entry)
        elif result.section == "ignored":
            sections.ignored.append(entry)
        else:
            sections.done.append(entry)
    extra = {"sections": sections.json()}
    key = reply.key
    letter = _gm_letter(reply.runtime, game, reply, key, "gm_reply", extra, "gm-answer")
    queue(reply.session, reply.runtime, letter, game)


def _news(game: Game, master: Player, ended: str) -> tuple[str, str, str]:
    """The event ``tell_gm`` tells of, what the subject calls it, and the sentence saying it, in
    the game master's language; ``ended``: how the game ended, in it."""
    _ = i18n.translator(language(game))
    if game.status == GameStatus.ACTIVE:
        if game.deadline is None:
            return "started", "gm-started", _("every player has joined and the game has started.")
        zone = master.timezone or game.timezone
        when = i18n.shown(game.deadline, zone, utcnow(), language(game))
        noun = _(play.rules_for(game).turn_noun)
        started = _(
            "every player has joined and the game has started; orders for %(noun)s 1 are due "
            "%(when)s.",
            noun=noun,
            when=when,
        )
        return "started", "gm-started", started
    result = ended or _("ended")
    if play.seed_revealed(game):
        over = _(
            "the game is over: %(result)s. The archive shows every turn, and its seed, so every "
            "card and die can be checked.",
            result=result,
        )
    else:
        over = _("the game is over: %(result)s. The archive shows every turn.", result=result)
    return "over", "gm-over", over


def tell_gm(session: Session, runtime: Runtime, game: Game) -> None:
    """Tell the game master the game has started, or is over and how it went: players' mail
    starts and ends it, so no answer to the GM's own mail would. Once per event (the key); not
    to a GM who plays a seat too, whose mail as a player says as much."""
    gm = game.gm
    if gm is None or any(seat.player.address == gm.address for seat in game.seats):
        return
    rules = play.rules_for(game)
    lang = language(game)
    with i18n.speaking(lang):
        result = play.result_words(session, game)
    event, what, message = _news(game, gm, result)
    # In the thread of the GM's own mail: the answer to NEW, the first mail to the GM.
    first = session.scalar(
        select(OutboxMessage.message_id)
        .where(OutboxMessage.game_id == game.id, OutboxMessage.to_address == gm.address)
        .order_by(OutboxMessage.id)
        .limit(1)
    )
    ending, pictures = _ending(session, runtime, game, lang) if event == "over" else ({}, [])
    letter = Letter(
        key=f"game:{game.id}:gm:{event}",
        kind="gm",
        to=gm.address,
        subject=subjects.subject(
            game, rules.title, what, lang, result=subjects.short_result(result)
        ),
        template="gm_notice",
        context={**_gm_context(session, runtime, game), "message": message, "ending": ending},
        pictures=pictures,
        reply_to=gm_address(runtime, game),
        in_reply_to=first,
        references=[first] if first else [],
    )
    queue(session, runtime, letter, game)


def _ending(
    session: Session, runtime: Runtime, game: Game, lang: str
) -> tuple[dict[str, Any], list[Picture]]:
    """What the game master's mail at the game's end shows, as the players' end mails do: the
    last position in words and on the map, and the seed with where to check it, once revealed."""
    rules = play.rules_for(game)
    with i18n.speaking(lang):
        shot = positions.snapshot(session, rules, play.latest_turn(session, game.id))
        shown, picture = positions.public_position(runtime, game, shot)
        noun = i18n.gettext(rules.turn_noun, lang)
    revealed = play.seed_revealed(game)
    return {
        **shown,
        "turn_word": noun,
        "seed": game.seed.hex() if revealed else None,
        "verify_url": f"{runtime.config.base_url}/games/{game.id}/verify",
    }, [picture]
