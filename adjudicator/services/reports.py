"""What the service tells players: every mail's context, built from stored facts and views."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import schedule
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import LineReport, OrderReport, Resolution
from adjudicator.core.words import listed
from adjudicator.games import registry
from adjudicator.mail.addresses import check_signature, reply_address, seat_token
from adjudicator.mail.building import Attachment, Picture
from adjudicator.mail.calendar import CANCEL, PUBLISH, deadline_event, withdrawal
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, OutboxMessage, Seat, Submission, Turn, utcnow
from adjudicator.services import (
    commands,
    orders,
    panel_links,
    play,
    preferences,
    safety,
    subjects,
)
from adjudicator.services.mailer import Letter, queue, thread_headers
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


def receipt_lines(report: OrderReport, filed: bool) -> dict[str, Any]:
    """The receipt's account of a mail's order lines, as the templates read it (email/_lines.*);
    the web order checker shows the same, so the two can never word a line differently.
    ``filed``: the set is on file (``orders.files``), maybe without its refused lines."""
    refused = [line.number for line in report.rejected]
    return {
        "lines": [line_json(line) for line in report.lines],
        "missing": list(report.missing),
        "accepted": filed,
        "refused": refused if filed else [],
    }


def check_url(runtime: Runtime, game: Game, seat: Seat) -> str:
    """The seat's private order-checker page: its orders checked, never stored (web/help.py)."""
    signature = check_signature(runtime.config.secret_key, game.id, seat.seat, seat.key_version)
    return f"{runtime.config.base_url}/games/{game.id}/check/{seat.seat}/{signature}"


def position(
    runtime: Runtime, rules: Rules[Any], game: Game, seat: Seat, turn: Turn, facts: Any = None
) -> tuple[dict[str, Any], Picture]:
    """The seat's view of a turn in words and as a picture, plus what it may do next."""
    state = rules.load(turn.state)
    view = rules.view(state, seat.seat)
    owed = rules.pending(state)
    decision = owed.get(seat.seat)
    description = rules.describe(view)
    picture = Picture(
        content_id=f"game{game.id}.turn{turn.number}.{seat.seat}@{runtime.config.mail_domain}",
        png=_render(rules, view, facts, (turn.id, seat.seat)),
        alt=description,
        filename=f"game{game.id}-turn{turn.number}.png",
    )
    context = {
        "turn": turn.number,
        "description": description,
        "prompt": decision.prompt if decision else "",
        "legal": list(decision.legal) if decision else [],
        "waiting_for": sorted(owed),
        "owes": subjects.owes(owed),
        "picture_cid": picture.content_id,
        "picture_alt": description,
    }
    return context, picture


# Turn snapshots never change, so a seat's picture of a turn is drawn once per process: every
# receipt of a turn (players resend orders freely) would otherwise redraw the same map.
_PICTURES: OrderedDict[tuple[int, str], bytes] = OrderedDict()
_PICTURES_KEPT = 256


def _render(rules: Rules[Any], view: Any, facts: Any, key: tuple[int, str]) -> bytes:
    if facts is not None:  # a turn report's picture shows the turn's moves: drawn once anyway
        return rules.render(view, facts)
    png = _PICTURES.get(key)
    if png is None:
        png = rules.render(view, None)
        _PICTURES[key] = png
        if len(_PICTURES) > _PICTURES_KEPT:
            _PICTURES.popitem(last=False)
    else:
        _PICTURES.move_to_end(key)
    return png


def deadline_context(game: Game, seat: Seat, now: datetime) -> dict[str, Any]:
    """The deadline as this player reads it: their zone, UTC, and how long from now."""
    if game.deadline is None or game.status != "active":
        return {"deadline": None}
    zone = seat.player.timezone or game.timezone
    return {
        "deadline": schedule.shown(game.deadline, zone, now),
        "deadline_utc": f"{game.deadline:%Y-%m-%d %H:%M} UTC",
        "paused": game.paused,
    }


def calendar_uid(runtime: Runtime, game: Game, turn: int) -> str:
    """A turn's calendar entry keeps this UID however often its deadline moves."""
    return f"game-{game.id}-turn-{turn}@{runtime.config.mail_domain}"


def _calendar_summary(game: Game, turn: int) -> str:
    return f"{play.rules_for(game).title}, game {game.id}: orders for turn {turn} due"


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
) -> list[Attachment]:
    """The next deadline as a calendar entry whose UID stays put while SEQUENCE follows moves,
    then the cancel of the entry a turn played early left behind.

    METHOD belongs to the whole VCALENDAR, so each is a text/calendar part of its own. The next
    deadline comes first: a client that acts on one calendar part only takes the one that
    matters, and at worst keeps the stale entry, as it would have without the cancel."""
    organizer = parseaddr(runtime.config.from_address)[1] or None
    parts = []
    if game.deadline is not None and game.status == "active":
        data = deadline_event(
            uid=calendar_uid(runtime, game, turn),
            sequence=game.deadline_sequence,
            deadline=game.deadline,
            zone=game.timezone,
            summary=_calendar_summary(game, turn),
            description=f"Reply to your game's mail with your orders for turn {turn}.",
            url=f"{runtime.config.base_url}/games/{game.id}",
            organizer=organizer,
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
        data = withdrawal(
            uid=calendar_uid(runtime, game, overtaken.turn),
            sequence=overtaken.sequence,
            deadline=overtaken.deadline,
            zone=game.timezone,
            summary=_calendar_summary(game, overtaken.turn),
            organizer=organizer,
            stamp=now,
        )
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


def game_context(runtime: Runtime, game: Game, seat: Seat) -> dict[str, Any]:
    rules = play.rules_for(game)
    revealed = play.seed_revealed(game)
    return {
        "game_id": game.id,
        "title": rules.title,
        "seat": seat.seat,
        "commitment": game.commitment,
        "challenge": game.challenge.name if game.challenge else None,
        "challenge_deadline": game.challenge.deadline if game.challenge else None,
        "reply_address": play.seat_address(runtime, game, seat),
        "archive_url": f"{runtime.config.base_url}/games/{game.id}",
        "help_url": f"{runtime.config.base_url}/help/{game.game_key}",
        "check_url": check_url(runtime, game, seat),
        "status": game.status,
        "on_receipt": rules.resolves_on_receipt,
        "turn_noun": rules.turn_noun,
        "schedule": game.schedule,
        "result": game.result,
        "seed": game.seed.hex() if revealed else None,
        "verify_url": f"{runtime.config.base_url}/games/{game.id}/verify",
    }


def mail_seat(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    *,
    key: str,
    kind: str,
    template: str,
    what: str,
    extra: dict[str, Any] | None = None,
    turn: Turn | None = None,
    facts: Any = None,
    replying_to: str | None = None,
    message_id: str | None = None,
    words: dict[str, Any] | None = None,
    overtaken: Overtaken | None = None,
) -> None:
    """Queue a mail to a seat's player showing its position (the latest turn unless given);
    ``what`` is what the mail is, named in its subject (subjects.PHRASES); ``overtaken``: the
    entry of a turn played before its deadline, withdrawn in this mail."""
    rules = play.rules_for(game)
    turn = turn or play.latest_turn(session, game.id)
    context, picture = position(runtime, rules, game, seat, turn, facts)
    now = utcnow()
    context.update(deadline_context(game, seat, now))
    in_reply_to, references = thread_headers(game, replying_to)
    said = {
        "noun": rules.turn_noun,
        "turn": turn.number,
        "next": turn.number + 1,
        "owes": context["owes"],
        "result": subjects.short_result(game.result),
        **(words or {}),
    }
    letter = Letter(
        key=key,
        kind=kind,
        to=seat.player.address,
        subject=subjects.subject(game, rules.title, what, **said),
        template=template,
        context={**game_context(runtime, game, seat), **context, **(extra or {})},
        pictures=[picture],
        attachments=deadline_calendar(runtime, game, turn.number + 1, now, overtaken),
        reply_to=play.seat_address(runtime, game, seat),
        # A mail with a fixed Message-ID starts the thread (answering at most the player's own
        # mail); every other one continues it.
        in_reply_to=replying_to if message_id else in_reply_to,
        references=([replying_to] if replying_to else []) if message_id else references,
        message_id=message_id,
        # Lets a player's mail client file and filter each game's mail together.
        headers={
            "List-Id": f"{rules.title} game {game.id} <game-{game.id}.{runtime.config.mail_domain}>"
        },
    )
    queue(session, runtime, letter, game)


def mail_all_seats(
    session: Session,
    runtime: Runtime,
    game: Game,
    *,
    key: str,
    kind: str,
    template: str,
    what: str,
    extra: dict[str, Any] | None = None,
    words: dict[str, Any] | None = None,
    overtaken: Overtaken | None = None,
) -> None:
    """The same news to every seat, each with its own position; ``key`` gets the seat added."""
    session.flush()
    for seat in game.seats:
        mail_seat(
            session,
            runtime,
            game,
            seat,
            key=f"{key}:{seat.seat}",
            kind=kind,
            template=template,
            what=what,
            extra=extra,
            words=words,
            overtaken=overtaken,
        )


@dataclass(frozen=True)
class Answering:
    """The mail whose JOIN started the game: its player's welcome answers it, sections and all."""

    seat: Seat
    message_id: str | None
    sections: commands.Sections


def game_started(
    session: Session, runtime: Runtime, game: Game, answering: Answering | None = None
) -> None:
    help_text = play.rules_for(game).help_text(game.options)
    for index, seat in enumerate(game.seats):
        answers = answering is not None and answering.seat.id == seat.id
        mail_seat(
            session,
            runtime,
            game,
            seat,
            key=f"game:{game.id}:start:{seat.seat}",
            kind="start",
            template="game_started",
            what="started",
            extra={
                "help": help_text,
                "sections": answering.sections.json() if answering and answers else None,
            },
            replying_to=answering.message_id if answering and answers else None,
            # The first seat's welcome is the thread's root; the others reply to it.
            message_id=game.thread_id if index == 0 else None,
        )
    tell_gm(session, runtime, game)


def outcome_lines(resolution: Resolution[Any], seat: str, several: bool) -> list[str]:
    """Every result this seat may know: all of its own, and the others' public ones."""
    lines = []
    for outcome in resolution.outcomes:
        if outcome.seat != seat and not outcome.public:
            continue
        lines.append(
            f"{outcome.seat}: {outcome.order}: {outcome.detail}" if several else outcome.detail
        )
    return lines


def turn_report(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    turn: Turn,
    resolution: Resolution[Any],
    report: OrderReport | None,
    mail: MailIn | None,
    reading: commands.Reading | None = None,
    sections: commands.Sections | None = None,
    overtaken: Overtaken | None = None,
) -> None:
    rules = play.rules_for(game)
    answers = (
        command_context(session, runtime, game, seat, reading, sections)
        if reading is not None and sections is not None
        else {"sections": None, "help": "", "on_file": None}
    )
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"game:{game.id}:turn:{turn.number}:{seat.seat}:report",
        kind="report",
        template="turn_report",
        what=report_subject(rules, game),
        turn=turn,
        facts=resolution.facts,
        replying_to=mail.message_id if mail else None,
        overtaken=overtaken,
        extra={
            "why": turn.reason,
            "lines": [line_json(line) for line in report.lines] if report else [],
            "outcomes": outcome_lines(resolution, seat.seat, len(game.seats) > 1),
            "dice": [
                {"label": event.label, "value": event.result[0]}
                for event in resolution.events
                if event.kind == "die"
            ],
            # Public facts only: what both players and the archive are shown.
            "step_report": rules.step_report(resolution.facts),
            "away": away(game, utcnow()),
            **answers,
        },
    )
    if game.status != "active":
        tell_gm(session, runtime, game)


def receipt(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    report: OrderReport,
    reading: commands.Reading,
    sections: commands.Sections,
    filing: dict[str, Any] | None = None,
) -> None:
    """The orders as understood when they were not resolved at once, and the answer to the
    mail's commands in sections.

    ``filing`` says which turn they count for and whether they replaced or joined a set on file."""
    filed = orders.files(play.rules_for(game), report)
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="receipt",
        template="receipt",
        what=receipt_subject(report, filed),
        replying_to=mail.message_id,
        extra={
            **receipt_lines(report, filed),
            **command_context(session, runtime, game, seat, reading, sections),
            "filing": {
                "for_turn": None,
                "merged": False,
                "replaced": False,
                "too_late_for": None,
                **(filing or {}),
            },
        },
    )


def report_subject(rules: Rules[Any], game: Game) -> str:
    """A turn report names the turn played; where players answer one decision at a time, who
    owes the next; the last one, how the game ended."""
    if game.status != "active":
        return "over"
    return "step" if rules.resolves_on_receipt and len(rules.seats) > 1 else "results"


def receipt_subject(report: OrderReport, filed: bool) -> str:
    if not report.lines:
        return "answered"  # commands only, or an empty mail
    if not filed:
        return "refused"
    return "received" if report.ok else "received-in-part"


def reply_status(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    reading: commands.Reading,
    sections: commands.Sections,
) -> None:
    """A mail of commands only (or an empty one): their answers, the position, what is legal."""
    receipt(
        session, runtime, mail, inbound_id, game, seat, OrderReport((), None), reading, sections
    )


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


def reply_game_over(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    sections: commands.Sections | None = None,
) -> None:
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="game-over",
        template="game_over",
        what="over",
        replying_to=mail.message_id,
        extra={"sections": sections.json() if sections else None},
    )


def answer_sender(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    kind: str,
    template: str,
    context: dict[str, Any],
) -> None:
    """A reply to whoever wrote, about no game of theirs: help, or what was wrong."""
    queue(
        session,
        runtime,
        Letter(
            key=f"inbound:{inbound_id}:reply",
            kind=kind,
            to=mail.sender,
            subject="Re: " + (mail.subject or "your mail"),
            template=template,
            context=context,
            in_reply_to=mail.message_id,
            references=[mail.message_id] if mail.message_id else [],
        ),
    )


def reply_help(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    reading: commands.Reading | None = None,
) -> None:
    """General help, or one game's with ``HELP <game>``; other lines are answered in sections,
    since help@ knows no game to run a game's command on."""
    known = registry.games()
    asked: list[str] = []
    sections = commands.Sections(ignored=list(reading.ignored) if reading else [])
    for command in reading.commands if reading else ():
        games = [(key, rules.title) for key, rules in known.items()]
        key = commands.game_name(command.argument, games) if command.word == "HELP" else None
        if command.word == "HELP" and key is not None:
            asked.append(key)
            sections.did(command, f"how to play {known[key].title} by mail is below")
        elif command.word == "HELP":
            sections.did(command, "how to start a game and every game's orders are below")
        else:
            sections.did(
                command,
                f"{command.word} is for a game: send it to the reply address of your game's mail",
                ok=False,
            )
    for line in reading.others if reading else ():
        hint = commands.looks_like_command(line) or _new_here(line)
        if hint is not None:
            sections.not_understood.append(commands.Entry(line.strip(), hint, ok=False))
        else:
            sections.skip(line, "not a command")
    chosen = [known[key] for key in asked] or list(known.values())
    shown = [{"key": r.key, "title": r.title, "help": r.help_text()} for r in chosen]
    context = {"games": shown, "one_game": bool(asked), "sections": sections.json()}
    answer_sender(session, runtime, mail, inbound_id, "help", "help", context)


def _new_here(line: str) -> str | None:
    if line.split()[:1] and line.split()[0].upper() == "NEW":
        return "games are started at new@ (this address only answers HELP)"
    return None


def reply_problem(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    problem: str,
    details: dict[str, Any],
) -> None:
    """A polite answer saying what was wrong and what to do instead.

    Not sent to an address that is no player and already had a problem reply recently (see
    services.safety): the message's reason then says the reply was suppressed."""
    suppressed = safety.suppress_problem_reply(session, runtime, mail.sender, utcnow())
    if suppressed is not None:
        safety.note_suppressed(session, inbound_id, suppressed)
        return
    game = details.get("game")
    games = [{"key": rules.key, "title": rules.title} for rules in registry.games().values()]
    context = {
        "problem": problem,
        "details": {k: v for k, v in details.items() if k != "game"},
        "game_id": game.id if isinstance(game, Game) else None,
        "games": games,
    }
    # Rate-limit notices are a kind of their own so the once-an-hour rule can find them.
    kind = safety.RATE_LIMIT if problem == safety.RATE_LIMIT else "problem"
    answer_sender(session, runtime, mail, inbound_id, kind, "problem", context)


def gm_address(runtime: Runtime, game: Game) -> str:
    """The game master's own reply address: commands sent there act on the game."""
    token = seat_token(runtime.config.secret_key, game.id, "gm", 1)
    return reply_address(token, runtime.config.mail_domain)


def _gm_letter(
    runtime: Runtime,
    game: Game,
    mail: MailIn,
    key: str,
    template: str,
    extra: dict[str, Any],
    what: str,
) -> Letter:
    rules = play.rules_for(game)
    return Letter(
        key=key,
        kind="gm",
        to=mail.sender,
        subject=subjects.subject(game, rules.title, what),
        template=template,
        context={**_gm_context(runtime, game), **extra},
        reply_to=gm_address(runtime, game),
        in_reply_to=mail.message_id,
        references=[mail.message_id] if mail.message_id else [],
    )


def _gm_context(runtime: Runtime, game: Game) -> dict[str, Any]:
    return {
        "game_id": game.id,
        "title": play.rules_for(game).title,
        "gm_address": gm_address(runtime, game),
        "archive_url": f"{runtime.config.base_url}/games/{game.id}",
        "seats": [
            {"seat": seat.seat, "address": seat.player.address, "joined": bool(seat.joined_at)}
            for seat in game.seats
        ],
        "status": game.status,
        "schedule": game.schedule,
        "timezone": game.timezone,
    }


def gm_created(
    session: Session, runtime: Runtime, game: Game, mail: MailIn, inbound_id: int
) -> None:
    # The welcome carries the first link to the web panel; PANEL mails a new one.
    link = panel_links.issue(session, runtime, game, utcnow())
    panel = {"url": link.url, "hours": link.hours} if isinstance(link, panel_links.Issued) else None
    extra = {"panel": panel}
    key = f"inbound:{inbound_id}:reply"
    letter = _gm_letter(runtime, game, mail, key, "gm_created", extra, "gm-formed")
    queue(session, runtime, letter, game)


def gm_reply(
    session: Session,
    runtime: Runtime,
    game: Game,
    mail: MailIn,
    inbound_id: int,
    results: Sequence[Any],
) -> None:
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
    key = f"inbound:{inbound_id}:reply"
    letter = _gm_letter(runtime, game, mail, key, "gm_reply", extra, "gm-answer")
    queue(session, runtime, letter, game)


def tell_gm(session: Session, runtime: Runtime, game: Game) -> None:
    """Tell the game master the game has started, or is over and how it went: players' mail
    starts and ends it, so no answer to the GM's own mail would. Once per event (the key); not
    to a GM who plays a seat too, whose mail as a player says as much."""
    gm = game.gm
    if gm is None or any(seat.player.address == gm.address for seat in game.seats):
        return
    rules = play.rules_for(game)
    if game.status == "active":
        event, what = "started", "gm-started"
        zone = gm.timezone or game.timezone
        due = ""
        if game.deadline is not None:
            when = schedule.shown(game.deadline, zone, utcnow())
            due = f"; orders for {rules.turn_noun} 1 are due {when}"
        message = f"every player has joined and the game has started{due}."
    else:
        event, what = "over", "gm-over"
        seed = ", and its seed, so every card and die can be checked"
        shown = seed if play.seed_revealed(game) else ""
        result = game.result or "ended"
        message = f"the game is over: {result}. The archive shows every turn{shown}."
    # In the thread of the GM's own mail: the answer to NEW, the first mail to the GM.
    first = session.scalar(
        select(OutboxMessage.message_id)
        .where(OutboxMessage.game_id == game.id, OutboxMessage.to_address == gm.address)
        .order_by(OutboxMessage.id)
        .limit(1)
    )
    letter = Letter(
        key=f"game:{game.id}:gm:{event}",
        kind="gm",
        to=gm.address,
        subject=subjects.subject(
            game, rules.title, what, result=subjects.short_result(game.result)
        ),
        template="gm_notice",
        context={**_gm_context(runtime, game), "message": message},
        reply_to=gm_address(runtime, game),
        in_reply_to=first,
        references=[first] if first else [],
    )
    queue(session, runtime, letter, game)


def invitation_status(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    sections: commands.Sections | None = None,
) -> None:
    waiting = [other.seat for other in game.seats if other.joined_at is None]
    if seat.joined_at is None:
        message = "you are invited to this game: reply JOIN to take your seat."
    else:
        verb = "joins" if len(waiting) == 1 else "join"
        message = f"you have joined; the game starts when {listed(waiting)} {verb} too."
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="invitation",
        template="notice",
        what="joined" if seat.joined_at else "invited",
        extra={"message": message, "sections": sections.json() if sections else None},
        replying_to=mail.message_id,
    )
