"""What the service tells players about their game: the position and deadline every game mail
carries, the welcome, the turn report; built from stored facts and views. Answers to a mail are
in ``replies``, mail to the game master in ``gm_letters``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from email.utils import parseaddr
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n, limits
from adjudicator.core import said
from adjudicator.core.chance import Contribution
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import OrderReport, Resolution
from adjudicator.i18n import N_
from adjudicator.mail.building import Attachment
from adjudicator.mail.calendar import CANCEL, PUBLISH, Entry, deadline_event, withdrawal
from adjudicator.models import Game, Seat, Turn, utcnow
from adjudicator.services.access.private_links import check_url, games_url
from adjudicator.services.outbound import asks, settings_shown
from adjudicator.services.outbound.answers import away, carried_out, command_context, line_json
from adjudicator.services.outbound.gm_letters import tell_gm, turn_to_gm
from adjudicator.services.outbound.mailer import Letter, queue, thread_headers
from adjudicator.services.record import dice, play, reasons, rollbacks, subjects, transitions
from adjudicator.services.record.positions import position, snapshot
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands
from adjudicator.statuses import GameStatus


def deadline_context(game: Game, seat: Seat, now: datetime) -> dict[str, Any]:
    """The deadline as this player reads it: their zone, UTC, and how long from now."""
    if game.deadline is None or game.status != GameStatus.ACTIVE:
        return {"deadline": None}
    zone = seat.player.timezone or game.timezone
    return {
        "deadline": i18n.shown(game.deadline, zone, now, play.language(seat.player, game)),
        "deadline_utc": f"{game.deadline:%Y-%m-%d %H:%M} UTC",
        "paused": game.paused,
    }


def calendar_uid(runtime: Runtime, game: Game, turn: int) -> str:
    """A turn's calendar entry keeps this UID however often its deadline moves."""
    return f"game-{game.id}-turn-{turn}@{runtime.config.mail_domain}"


def _calendar_summary(game: Game, turn: int, lang: str = i18n.SOURCE) -> str:
    return i18n.gettext(
        "%(title)s, game %(id)s: orders for turn %(turn)s due",
        lang,
        title=play.rules_for(game).title,
        id=game.id,
        turn=turn,
    )


@dataclass(frozen=True)
class Overtaken:
    """A turn's calendar entry made stale: the turn was played before its deadline, or will
    not be played under it (the game ended, or the turn before it was rolled back)."""

    turn: int
    deadline: datetime
    # Above every SEQUENCE sent for the entry: a calendar ignores a cancel that is not newer.
    sequence: int


def overtaken(game: Game, turn: int, now: datetime) -> Overtaken | None:
    """Turn ``turn``'s entry, to withdraw, when the deadline it announced is still ahead; call
    before the next deadline opens. None once that deadline has come: the entry is simply over,
    and a cancel would strike a past event from the calendar's history."""
    if game.deadline is None or game.deadline <= now:
        return None
    return Overtaken(turn, game.deadline, game.deadline_sequence + 1)


def deadline_calendar(
    runtime: Runtime,
    game: Game,
    turn: int,
    now: datetime,
    overtaken: Overtaken | None = None,
    lang: str = i18n.SOURCE,
) -> list[Attachment]:
    """The next deadline as a calendar entry whose UID stays put while SEQUENCE follows moves,
    then the cancel of the entry a turn played early left behind; its words in ``lang``.

    METHOD belongs to the whole VCALENDAR, so each is a text/calendar part of its own. The next
    deadline comes first: a client that acts on one calendar part only takes the one that
    matters, and at worst keeps the stale entry, as it would have without the cancel."""
    organizer = parseaddr(runtime.config.from_address)[1] or None
    parts = []
    if game.deadline is not None and game.status == GameStatus.ACTIVE:
        entry = Entry(
            uid=calendar_uid(runtime, game, turn),
            sequence=game.deadline_sequence,
            deadline=game.deadline,
            summary=_calendar_summary(game, turn, lang),
            zone=game.timezone,
            organizer=organizer,
        )
        data = deadline_event(
            entry,
            description=i18n.gettext(
                "Reply to your game's mail with your orders for turn %(turn)s.", lang, turn=turn
            ),
            url=f"{runtime.config.base_url}/games/{game.id}",
            stamp=now,
        )
        parts.append(
            Attachment(
                f"game{game.id}-turn{turn}-deadline.ics",
                "text",
                "calendar",
                data,
                {"method": PUBLISH},
            )
        )
    if overtaken is not None:
        entry = Entry(
            uid=calendar_uid(runtime, game, overtaken.turn),
            sequence=overtaken.sequence,
            deadline=overtaken.deadline,
            summary=_calendar_summary(game, overtaken.turn, lang),
            zone=game.timezone,
            organizer=organizer,
        )
        data = withdrawal(entry, stamp=now)
        parts.append(
            Attachment(
                f"game{game.id}-turn{overtaken.turn}-cancelled.ics",
                "text",
                "calendar",
                data,
                {"method": CANCEL},
            )
        )
    return parts


def calendar_once(
    session: Session,
    runtime: Runtime,
    game: Game,
    turn: int,
    when: tuple[datetime, Overtaken | None],
    lang: str = i18n.SOURCE,
) -> list[Attachment]:
    """``deadline_calendar``, made once per session for the same deadline and language: every
    seat's mail of a turn carries the same entries (stamped when the first was made), in its
    reader's words."""
    now, stale = when
    memo: dict[tuple[Any, ...], list[Attachment]] = session.info.setdefault("pbem.calendars", {})
    key = (game.id, turn, game.status, game.deadline, game.deadline_sequence, stale, lang)
    if key not in memo:
        memo[key] = deadline_calendar(runtime, game, turn, now, stale, lang)
    return memo[key]


# The games' turn nouns (Rules.turn_noun), which a mail in another language says in its own.
TURN_NOUNS = (N_("turn"), N_("step"))


def game_context(runtime: Runtime, game: Game, seat: Seat) -> dict[str, Any]:
    rules = play.rules_for(game)
    revealed = play.seed_revealed(game)
    language = play.language(seat.player, game)
    return {
        "language": language,
        "game_id": game.id,
        "title": rules.title,
        # What NEW takes to start another game of it (a title may hold spaces; a key never).
        "game_key": game.game_key,
        "seat": seat.seat,
        "seat_title": rules.seat_title(seat.seat),
        "commitment": game.commitment,
        "sides_by_lot": game.sides_by_lot and game.status == GameStatus.FORMING,
        # A game of one player: its help names no command that waits for, joins or tells others.
        "solo": len(rules.seats) == 1,
        "challenge": game.challenge.name if game.challenge else None,
        "challenge_deadline": game.challenge.deadline if game.challenge else None,
        "reply_address": play.seat_address(runtime, game, seat),
        "archive_url": f"{runtime.config.base_url}/games/{game.id}",
        "help_url": f"{runtime.config.base_url}/help/{game.game_key}",
        "check_url": check_url(runtime, game, seat),
        "games_url": games_url(runtime, seat),
        "status": game.status,
        "on_receipt": rules.resolves_on_receipt,
        "turn_noun": rules.turn_noun,
        # The noun in the reader's language, for the templates written in it (_deadline).
        "turn_word": i18n.gettext(rules.turn_noun, language),
        "schedule": game.schedule,
        "seed": game.seed.hex() if revealed else None,
        "verify_url": f"{runtime.config.base_url}/games/{game.id}/verify",
    }


@dataclass(frozen=True)
class SeatLetter:
    """What a mail to a seat's player is, before the seat's own address, position and deadline
    are added: its outbox key, kind and template, what it is as its subject names it
    (subjects.PHRASES) with the ``words`` the subject fills in, and the template's ``extra``
    context: a value that is a function is called in the reader's language (a text the rules
    write, which another seat may read in another language)."""

    key: str
    kind: str
    template: str
    what: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    words: Mapping[str, Any] = field(default_factory=dict)
    # Fixed for the mail that starts the game's thread (the first welcome); every other one's
    # is minted from its key.
    message_id: str | None = None
    # The map, a good half of a mail's bytes, travels with the mails that show a new position
    # (the welcome, turn reports, the game's end); one whose position the player already has
    # (a receipt, a reminder) names the mail with the map instead.
    map: bool = True


@dataclass(frozen=True)
class Played:
    """A turn just played: its snapshot, and the resolution that made it (the moves its picture
    shows, the outcomes and dice its report lists)."""

    turn: Turn
    resolution: Resolution[Any]


def mail_seat(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    letter: SeatLetter,
    *,
    played: Played | None = None,
    replying_to: str | None = None,
    overtaken: Overtaken | None = None,
) -> None:
    """Queue ``letter`` to a seat's player showing its position: the turn just ``played``, else
    the latest; ``replying_to``: the player's mail it answers; ``overtaken``: the entry of a turn
    played before its deadline, withdrawn in this mail."""
    lang = play.language(seat.player, game)
    with i18n.speaking(lang):
        rules = play.rules_for(game)
        turn = played.turn if played else play.latest_turn(session, game.id)
        facts = played.resolution.facts if played else None
        shot = snapshot(session, rules, turn)
        context, picture = position(runtime, rules, game, seat, shot, facts, drawn=letter.map)
        owed = shot.owed
        now = utcnow()
        context.update(deadline_context(game, seat, now))
        zone = seat.player.timezone or game.timezone
        moment = asks.moment(session, runtime, game, turn, owed, zone, now, lang)
        context["ask"] = asks.for_seat(rules, game, seat, moment).json()
        in_reply_to, references = thread_headers(game, replying_to)
        words = {
            "noun": i18n.gettext(rules.turn_noun, lang),
            "turn": turn.number,
            "next": turn.number + 1,
            "owes": context["owes"],
            "result": subjects.short_result(moment.result),
            **letter.words,
        }
        mail = Letter(
            key=letter.key,
            kind=letter.kind,
            to=seat.player.address,
            subject=subjects.subject(game, rules.title, letter.what, lang, **words),
            template=letter.template,
            context={
                **game_context(runtime, game, seat),
                "result": moment.result,  # how the game ended, in the reader's language
                **context,
                **{k: v() if callable(v) else v for k, v in letter.extra.items()},
            },
            pictures=[picture] if picture else [],
            attachments=calendar_once(
                session, runtime, game, turn.number + 1, (now, overtaken), lang
            ),
            reply_to=play.seat_address(runtime, game, seat),
            # A mail with a fixed Message-ID starts the thread (answering at most the player's own
            # mail); every other one continues it.
            in_reply_to=replying_to if letter.message_id else in_reply_to,
            references=([replying_to] if replying_to else []) if letter.message_id else references,
            message_id=letter.message_id,
            # Lets a player's mail client file and filter each game's mail together.
            headers={
                "List-Id": (
                    f"{rules.title} game {game.id} <game-{game.id}.{runtime.config.mail_domain}>"
                )
            },
        )
        queue(session, runtime, mail, game)


def mail_all_seats(
    session: Session,
    runtime: Runtime,
    game: Game,
    letter: SeatLetter,
    overtaken: Overtaken | None = None,
) -> None:
    """The same news to every seat, each with its own position; its key gets the seat added."""
    session.flush()
    for seat in game.seats:
        each = replace(letter, key=f"{letter.key}:{seat.seat}")
        mail_seat(session, runtime, game, seat, each, overtaken=overtaken)


@dataclass(frozen=True)
class Answering:
    """The player's mail that a seat's mail answers, sections and all: the JOIN that started the
    game, answered by its player's welcome; or the orders that played a turn, answered by its
    turn report, which also answers the mail's commands (``reading``) and shows its order lines
    (``report``, as sifted for the reply)."""

    seat: Seat
    message_id: str | None
    sections: commands.Sections
    reading: commands.Reading | None = None
    report: OrderReport | None = None


def game_started(
    session: Session, runtime: Runtime, game: Game, answering: Answering | None = None
) -> None:
    rules = play.rules_for(game)
    for index, seat in enumerate(game.seats):
        answers = answering is not None and answering.seat.id == seat.id
        letter = SeatLetter(
            key=f"game:{game.id}:start:{seat.seat}",
            kind="start",
            template="game_started",
            what="started",
            # The help is linked, not attached: the player's HELP mail brings it in full.
            extra={
                "sections": answering.sections.json() if answering and answers else None,
                "variant": functools.partial(rules.variant_text, game.options),
                "primer": rules.primer,
                "settings": settings_shown.shown(game),
                "contributions": contribution_lines(game, play.language(seat.player, game)),
            },
            # The first seat's welcome is the thread's root; the others reply to it.
            message_id=game.thread_id if index == 0 else None,
        )
        replying_to = answering.message_id if answering and answers else None
        mail_seat(session, runtime, game, seat, letter, replying_to=replying_to)
    tell_gm(session, runtime, game)


# Marked for translation where they are used (_): the extractor reads N_ as a marker alone.
_SOURCES = {dice.MESSAGE_ID: N_("Message-ID"), dice.MAIL_DIGEST: N_("SHA-256 digest")}


def contribution_lines(game: Game, language: str = i18n.SOURCE) -> list[str]:
    """What each player added to the dice, in seat order, as the start mail lists it in
    ``language``: once the seed is revealed, these and the seed recompute every draw."""
    _ = i18n.translator(language)
    rules = play.rules_for(game)
    lines = []
    for data in game.contributions:
        given = Contribution.from_json(data)
        name = limits.name(str(data.get("by") or ""))  # as any name is shown
        title = i18n.localized(rules.seat_title(given.seat), language)
        if game.sides_by_lot:  # the seats were dealt after the words, so say whose they are
            who = _("%(name)s (invited as %(seat)s)", name=name or _("the player"), seat=title)
        else:
            who = f"{title} ({name})" if name and len(rules.seats) > 1 else name or title
        source = _(_SOURCES[given.source]) if given.source in _SOURCES else ""
        if len(rules.seats) == 1:  # the start mail goes to that player alone
            lines.append(
                _('your words "%(words)s"', words=given.words)
                if given.source == dice.WORDS
                else _(
                    "no words from you, so your mail's %(source)s %(value)s",
                    source=source,
                    value=given.words,
                )
            )
        elif given.source == dice.WORDS:
            lines.append(f'{who}: "{given.words}"')
        else:
            lines.append(
                _(
                    "%(who)s: no words, so their mail's %(source)s %(value)s",
                    who=who,
                    source=source,
                    value=given.words,
                )
            )
    return lines


def outcome_lines(
    resolution: Resolution[Any], seat: str, several: bool, title: Callable[[str], str] = str
) -> list[str]:
    """Every result this seat may know: all of its own, and the others' public ones, each named
    by its seat's ``title`` where there are several, in the current reader's language (the
    detail was written when the turn was resolved)."""
    lines = []
    for outcome in resolution.outcomes:
        if outcome.seat != seat and not outcome.public:
            continue
        detail = said.anew(outcome.detail)
        lines.append(f"{title(outcome.seat)}: {outcome.order}: {detail}" if several else detail)
    return lines


def turn_report(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    played: Played,
    answering: Answering | None = None,
    overtaken: Overtaken | None = None,
) -> None:
    """The turn ``played``, as this seat sees it; ``answering``: the seat's mail whose orders
    played it, when it moved on receipt."""
    lang = play.language(seat.player, game)
    with i18n.speaking(lang):
        rules = play.rules_for(game)
        turn, resolution = played.turn, played.resolution
        answers = (
            command_context(session, runtime, game, seat, answering.reading, answering.sections)
            if answering is not None and answering.reading is not None
            else {"sections": None, "help": "", "on_file": None}
        )
        report = answering.report if answering else None
        # Read first: its query flushes the new turn, whose row id keys the report.
        replaces = rollbacks.replaced(session, turn, lang)
        letter = SeatLetter(
            # By the turn's row: a turn played again after a rollback is reported again.
            key=f"{transitions.turn_prefix(turn)}{seat.seat}:report",
            kind="report",
            template="turn_report",
            what=report_subject(rules, game),
            extra={
                # Words, never the stored code.
                "why": reasons.turn_reason(turn.reason, answering is not None, lang),
                "lines": carried_out(
                    [line_json(line) for line in report.lines] if report else [],
                    resolution.outcomes,
                    seat.seat,
                ),
                "outcomes": outcome_lines(
                    resolution, seat.seat, len(game.seats) > 1, rules.seat_title
                ),
                "dice": [
                    {"label": rules.chance_words(event.label), "value": event.result[0]}
                    for event in resolution.events
                    if event.kind == "die"
                ],
                # Public facts only: what both players and the archive are shown.
                "step_report": rules.step_report(resolution.facts),
                "away": away(game, utcnow()),
                "replaces": replaces,
                **answers,
            },
        )
        replying_to = answering.message_id if answering else None
        mail_seat(
            session,
            runtime,
            game,
            seat,
            letter,
            played=played,
            replying_to=replying_to,
            overtaken=overtaken,
        )
        turn_to_gm(session, runtime, game, played)
        if game.status != GameStatus.ACTIVE:
            tell_gm(session, runtime, game)


def report_subject(rules: Rules[Any], game: Game) -> str:
    """A turn report names the turn played; where players answer one decision at a time, who
    owes the next; the last one, how the game ended."""
    if game.status != GameStatus.ACTIVE:
        return "over"
    return "step" if rules.resolves_on_receipt and len(rules.seats) > 1 else "results"
