"""What the service tells players: every mail's context, built from stored facts and views."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import schedule
from adjudicator.core import registry
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import LineReport, OrderReport, Resolution
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.building import Attachment, Picture
from adjudicator.mail.calendar import deadline_event
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, Seat, Turn, utcnow
from adjudicator.services import play
from adjudicator.services.mailer import Letter, game_subject, queue, thread_headers
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


def position(
    runtime: Runtime, rules: Rules[Any], game: Game, seat: Seat, turn: Turn, facts: Any = None
) -> tuple[dict[str, Any], Picture]:
    """The seat's view of a turn in words and as a picture, plus what it may do next."""
    state = rules.load(turn.state)
    view = rules.view(state, seat.seat)
    decision = rules.pending(state).get(seat.seat)
    description = rules.describe(view)
    picture = Picture(
        content_id=f"game{game.id}.turn{turn.number}.{seat.seat}@{runtime.config.mail_domain}",
        png=rules.render(view, facts),
        alt=description,
        filename=f"game{game.id}-turn{turn.number}.png",
    )
    context = {
        "turn": turn.number,
        "description": description,
        "prompt": decision.prompt if decision else "",
        "legal": list(decision.legal) if decision else [],
        "picture_cid": picture.content_id,
        "picture_alt": description,
    }
    return context, picture


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


def deadline_calendar(runtime: Runtime, game: Game, turn: int, now: datetime) -> list[Attachment]:
    """The next deadline as a calendar entry whose UID stays put while SEQUENCE follows moves."""
    if game.deadline is None or game.status != "active":
        return []
    title = play.rules_for(game).title
    data = deadline_event(
        uid=f"game-{game.id}-turn-{turn}@{runtime.config.mail_domain}",
        sequence=game.deadline_sequence,
        deadline=game.deadline,
        summary=f"{title}, game {game.id}: orders for turn {turn} due",
        description=f"Reply to your game's mail with your orders for turn {turn}.",
        url=f"{runtime.config.base_url}/games/{game.id}",
        stamp=now,
    )
    return [
        Attachment(
            f"game{game.id}-turn{turn}-deadline.ics",
            "text",
            "calendar",
            data,
            {"method": "PUBLISH"},
        )
    ]


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
        "status": game.status,
        "on_receipt": rules.resolves_on_receipt,
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
    extra: dict[str, Any] | None = None,
    turn: Turn | None = None,
    facts: Any = None,
    replying_to: str | None = None,
    message_id: str | None = None,
) -> None:
    """Queue a mail to a seat's player showing its position (the latest turn unless given)."""
    rules = play.rules_for(game)
    turn = turn or play.latest_turn(session, game.id)
    context, picture = position(runtime, rules, game, seat, turn, facts)
    now = utcnow()
    context.update(deadline_context(game, seat, now))
    in_reply_to, references = thread_headers(game, replying_to)
    letter = Letter(
        key=key,
        kind=kind,
        to=seat.player.address,
        subject=game_subject(game, rules.title),
        template=template,
        context={**game_context(runtime, game, seat), **context, **(extra or {})},
        pictures=[picture],
        attachments=deadline_calendar(runtime, game, turn.number + 1, now),
        reply_to=play.seat_address(runtime, game, seat),
        # A mail with a fixed Message-ID starts the thread; every other one continues it.
        in_reply_to=None if message_id else in_reply_to,
        references=[] if message_id else references,
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
    extra: dict[str, Any] | None = None,
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
            extra=extra,
        )


def game_started(session: Session, runtime: Runtime, game: Game) -> None:
    help_text = play.rules_for(game).help_text()
    for index, seat in enumerate(game.seats):
        mail_seat(
            session,
            runtime,
            game,
            seat,
            key=f"game:{game.id}:start:{seat.seat}",
            kind="start",
            template="game_started",
            extra={"help": help_text},
            # The first seat's welcome is the thread's root; the others reply to it.
            message_id=game.thread_id if index == 0 else None,
        )


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
) -> None:
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"game:{game.id}:turn:{turn.number}:{seat.seat}:report",
        kind="report",
        template="turn_report",
        turn=turn,
        facts=resolution.facts,
        replying_to=mail.message_id if mail else None,
        extra={
            "why": turn.reason,
            "lines": [line_json(line) for line in report.lines] if report else [],
            "outcomes": outcome_lines(resolution, seat.seat, len(game.seats) > 1),
            "dice": [
                {"label": event.label, "value": event.result[0]}
                for event in resolution.events
                if event.kind == "die"
            ],
        },
    )


def receipt(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    report: OrderReport,
    found: list[str],
    filing: dict[str, Any] | None = None,
) -> None:
    """The orders as understood when they were not resolved at once, or the answer to commands.

    ``filing`` says which turn they count for and whether they replaced or joined a set on file."""
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="receipt",
        template="receipt",
        replying_to=mail.message_id,
        extra={
            "lines": [line_json(line) for line in report.lines],
            "missing": list(report.missing),
            "accepted": report.ok,
            "commands": found,
            "help": play.rules_for(game).help_text() if "HELP" in found else "",
            "filing": {
                "for_turn": None,
                "merged": False,
                "replaced": False,
                "too_late_for": None,
                "preferences": [],
                **(filing or {}),
            },
        },
    )


def reply_status(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    found: list[str],
    preferences: list[str] | None = None,
) -> None:
    """STATUS, HELP, HISTORY, PREFERENCES or an empty mail: the position and what is legal now."""
    receipt(
        session,
        runtime,
        mail,
        inbound_id,
        game,
        seat,
        OrderReport((), None),
        found,
        {"preferences": preferences or []},
    )


def reply_game_over(
    session: Session, runtime: Runtime, mail: MailIn, inbound_id: int, game: Game, seat: Seat
) -> None:
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="game-over",
        template="game_over",
        replying_to=mail.message_id,
    )


def resign(
    session: Session, runtime: Runtime, mail: MailIn, inbound_id: int, game: Game, seat: Seat
) -> None:
    game.status = "finished"
    game.finished_at = utcnow()
    game.result = f"{seat.seat} resigned"
    game.score = [-1]
    session.flush()
    reply_game_over(session, runtime, mail, inbound_id, game, seat)


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


def reply_help(session: Session, runtime: Runtime, mail: MailIn, inbound_id: int) -> None:
    games = [
        {"key": rules.key, "title": rules.title, "help": rules.help_text()}
        for rules in registry.games().values()
    ]
    answer_sender(session, runtime, mail, inbound_id, "help", "help", {"games": games})


def reply_problem(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    problem: str,
    details: dict[str, Any],
) -> None:
    """A polite answer saying what was wrong and what to do instead."""
    game = details.get("game")
    games = [{"key": rules.key, "title": rules.title} for rules in registry.games().values()]
    context = {
        "problem": problem,
        "details": {k: v for k, v in details.items() if k != "game"},
        "game_id": game.id if isinstance(game, Game) else None,
        "games": games,
    }
    answer_sender(session, runtime, mail, inbound_id, "problem", "problem", context)


def gm_address(runtime: Runtime, game: Game) -> str:
    """The game master's own reply address: commands sent there act on the game."""
    token = seat_token(runtime.config.secret_key, game.id, "gm", 1)
    return reply_address(token, runtime.config.mail_domain)


def _gm_letter(
    runtime: Runtime, game: Game, mail: MailIn, key: str, template: str, extra: dict[str, Any]
) -> Letter:
    rules = play.rules_for(game)
    return Letter(
        key=key,
        kind="gm",
        to=mail.sender,
        subject=game_subject(game, rules.title) + " (game master)",
        template=template,
        context={
            "game_id": game.id,
            "title": rules.title,
            "gm_address": gm_address(runtime, game),
            "archive_url": f"{runtime.config.base_url}/games/{game.id}",
            "seats": [
                {"seat": seat.seat, "address": seat.player.address, "joined": bool(seat.joined_at)}
                for seat in game.seats
            ],
            "status": game.status,
            "schedule": game.schedule,
            "timezone": game.timezone,
            **extra,
        },
        reply_to=gm_address(runtime, game),
        in_reply_to=mail.message_id,
        references=[mail.message_id] if mail.message_id else [],
    )


def gm_created(
    session: Session, runtime: Runtime, game: Game, mail: MailIn, inbound_id: int
) -> None:
    letter = _gm_letter(runtime, game, mail, f"inbound:{inbound_id}:reply", "gm_created", {})
    queue(session, runtime, letter, game)


def gm_reply(
    session: Session,
    runtime: Runtime,
    game: Game,
    mail: MailIn,
    inbound_id: int,
    results: Sequence[Any],
) -> None:
    lines = [{"line": r.line, "done": r.done, "message": r.message} for r in results]
    letter = _gm_letter(
        runtime, game, mail, f"inbound:{inbound_id}:reply", "gm_reply", {"results": lines}
    )
    queue(session, runtime, letter, game)


def invitation_status(
    session: Session, runtime: Runtime, mail: MailIn, inbound_id: int, game: Game, seat: Seat
) -> None:
    waiting = [other.seat for other in game.seats if other.joined_at is None]
    if seat.joined_at is None:
        message = "you are invited to this game: reply JOIN to take your seat."
    else:
        message = f"you have joined; the game starts when {', '.join(waiting)} join(s) too."
    mail_seat(
        session,
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="invitation",
        template="notice",
        extra={"message": message},
        replying_to=mail.message_id,
    )
