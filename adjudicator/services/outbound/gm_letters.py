"""Mail to a game's game master: the answer to NEW, the answers to commands, and the notices
that the game has started or is over; in the game master's language (``language``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.building import Picture
from adjudicator.models import Game, OutboxMessage, Player, utcnow
from adjudicator.services.access import panel_links
from adjudicator.services.outbound import asks, settings_shown
from adjudicator.services.outbound.mailer import Letter, Reply, queue
from adjudicator.services.record import play, positions, reasons, subjects
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands
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
        "schedule": _without_zone(game.schedule, game.timezone),
        "timezone": game.timezone,
    }


def _without_zone(schedule: str, zone: str) -> str:
    """The schedule as the game master wrote it, less the zone at its end when that is the
    game's zone, which the letter names beside it ("48h (Europe/Madrid)", not twice)."""
    words = schedule.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1] == zone else schedule


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
        "settings": settings_shown.shown(game),
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


def _first_to_gm(session: Session, game: Game, gm: Player) -> str | None:
    """The Message-ID of the first mail to the game master (the answer to NEW): the thread
    every mail of theirs about the game continues."""
    return session.scalar(
        select(OutboxMessage.message_id)
        .where(OutboxMessage.game_id == game.id, OutboxMessage.to_address == gm.address)
        .order_by(OutboxMessage.id)
        .limit(1)
    )


def _told_apart(game: Game) -> Player | None:
    """The game master to mail of the game's events, if any: not one who plays a seat too,
    whose mail as a player says as much."""
    gm = game.gm
    if gm is None or any(seat.player.address == gm.address for seat in game.seats):
        return None
    return gm


def tell_gm(session: Session, runtime: Runtime, game: Game) -> None:
    """Tell the game master the game has started, or is over and how it went: players' mail
    starts and ends it, so no answer to the GM's own mail would. Once per event (the key); not
    to a GM who plays a seat too, whose mail as a player says as much."""
    gm = _told_apart(game)
    if gm is None:
        return
    rules = play.rules_for(game)
    lang = language(game)
    with i18n.speaking(lang):
        result = play.result_words(session, game)
    event, what, message = _news(game, gm, result)
    first = _first_to_gm(session, game, gm)
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


# GMREPORTS: what the game master is mailed of each turn played; "turn" unless they ask.
REPORTS = {"TURN": "turn", "NONE": "none"}


def choose(game: Game, argument: str, lang: str) -> tuple[bool, str]:
    """GMREPORTS TURN: the game master is mailed each turn's result (the default); NONE: not.
    Whether it was done, and the answer in ``lang``."""
    _ = i18n.translator(lang)
    chosen = REPORTS.get(argument.upper())
    if chosen is None:
        return False, _("write GMREPORTS TURN (each turn's result by mail) or GMREPORTS NONE")
    if game.gm_reports == chosen:
        return False, _(
            "GMREPORTS is already %(choice)s; nothing was changed", choice=argument.upper()
        )
    game.gm_reports = chosen
    if chosen == "turn":
        return True, _("you will be mailed each turn's result, as the players see it")
    return True, _("no more turn results by mail; the archive shows every turn")


def turn_to_gm(session: Session, runtime: Runtime, game: Game, played: Any) -> None:
    """The turn ``played`` (a ``reports.Played``) as every player was shown it, to the game
    master who asked for each turn's result (GMREPORTS TURN, the default): the outcomes every
    player may know, the dice, the public map and the next deadline, never what one seat alone
    sees. Called with each seat's report; sent once per turn row, so a turn played again after
    a rollback is a mail of its own."""
    if game.gm_reports != "turn" or game.gm_player_id is None:
        return
    turn = played.turn
    if turn.id is None:
        session.flush()
    told: set[int] = session.info.setdefault("pbem.gm_turns", set())
    if turn.id in told:
        return
    told.add(turn.id)
    gm = _told_apart(game)
    if gm is None:
        return
    lang = language(game)
    with i18n.speaking(lang):
        extra, picture = _turn_context(session, runtime, game, played, lang)
        first = _first_to_gm(session, game, gm)
        rules = play.rules_for(game)
        words = {"noun": i18n.gettext(rules.turn_noun, lang), "turn": turn.number}
        letter = Letter(
            key=f"game:{game.id}:gm:turn-row:{turn.id}",
            kind="gm",
            to=gm.address,
            subject=subjects.subject(game, rules.title, "gm-turn", lang, **words),
            template="gm_turn",
            context={**_gm_context(session, runtime, game), **extra},
            pictures=[picture] if picture else [],
            reply_to=gm_address(runtime, game),
            in_reply_to=first,
            references=[first] if first else [],
        )
        queue(session, runtime, letter, game)


def _turn_context(
    session: Session, runtime: Runtime, game: Game, played: Any, lang: str
) -> tuple[dict[str, Any], Picture | None]:
    """What ``gm_turn`` shows of a turn, from its public view and public outcomes alone, in
    ``lang`` (the current language)."""
    rules = play.rules_for(game)
    turn, resolution = played.turn, played.resolution
    shot = positions.snapshot(session, rules, turn)
    facts = turn.facts if isinstance(turn.facts, dict) else {}
    zone = (game.gm.timezone if game.gm else "") or game.timezone
    due = game.deadline if game.status == GameStatus.ACTIVE else None
    context = {
        "turn": turn.number,
        "turn_word": i18n.gettext(rules.turn_noun, lang),
        "why": reasons.turn_reason(turn.reason, False, lang),
        "outcomes": [
            f"{rules.seat_title(o.seat)}: {o.order}: {said.anew(o.detail)}"
            for o in resolution.outcomes
            if o.public
        ],
        "defaulted": i18n.listed([rules.seat_title(s) for s in facts.get("defaulted", [])], lang),
        "dice": [
            {"label": rules.chance_words(event.label), "value": event.result[0]}
            for event in resolution.events
            if event.kind == "die"
        ],
        "step_report": rules.step_report(resolution.facts),
        "description": rules.describe(shot.public_view),
        "deadline": i18n.shown(due, zone, utcnow(), lang) if due is not None else None,
        "paused": game.paused,
    }
    picture = _public_map(runtime, game, shot, lang)
    context["picture_cid"] = picture.content_id if picture else None
    context["picture_alt"] = picture.alt if picture else ""
    return context, picture


def _public_map(
    runtime: Runtime, game: Game, shot: positions.Snapshot, lang: str
) -> Picture | None:
    """The map every player is shown of the turn: the stored one in English, else drawn in
    ``lang``."""
    rules, turn = shot.rules, shot.turn
    alt = positions.map_alt(rules, turn.number, None, shot.owed)
    domain = runtime.config.mail_domain
    if lang == i18n.SOURCE:
        png = turn.public_png
        content_id = f"game{game.id}.turn{turn.number}@{domain}"
    else:
        png = rules.render(shot.public_view, None)
        content_id = f"game{game.id}.turn{turn.number}.{lang}@{domain}"
    if not png:
        return None
    return Picture(content_id, png, alt, f"game{game.id}-turn{turn.number}.png")


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
