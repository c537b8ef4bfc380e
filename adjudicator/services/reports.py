"""What the service tells players: every mail's context, built from stored facts and views."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from adjudicator.core import registry
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import LineReport, OrderReport, Resolution
from adjudicator.mail.building import Picture
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
        "result": game.result,
        "seed": game.seed.hex() if revealed else None,
        "verify_url": f"{runtime.config.base_url}/games/{game.id}/verify",
    }


def seat_letter(
    runtime: Runtime,
    game: Game,
    seat: Seat,
    *,
    key: str,
    kind: str,
    template: str,
    context: dict[str, Any],
    pictures: list[Picture],
    replying_to: str | None,
    message_id: str | None = None,
) -> Letter:
    in_reply_to, references = thread_headers(game, replying_to)
    rules = play.rules_for(game)
    return Letter(
        key=key,
        kind=kind,
        to=seat.player.address,
        subject=game_subject(game, rules.title),
        template=template,
        context={**game_context(runtime, game, seat), **context},
        pictures=pictures,
        reply_to=play.seat_address(runtime, game, seat),
        in_reply_to=None if message_id else in_reply_to,
        references=[] if message_id else references,
        message_id=message_id,
    )


def game_started(session: Session, runtime: Runtime, game: Game) -> None:
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    for index, seat in enumerate(game.seats):
        context, picture = position(runtime, rules, game, seat, turn)
        letter = seat_letter(
            runtime,
            game,
            seat,
            key=f"game:{game.id}:start:{seat.seat}",
            kind="start",
            template="game_started",
            context={**context, "help": rules.help_text()},
            pictures=[picture],
            replying_to=None,
            # The first seat's welcome is the thread's root; the others reply to it.
            message_id=game.thread_id if index == 0 else None,
        )
        queue(session, runtime, letter, game)


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
    rules = play.rules_for(game)
    context, picture = position(runtime, rules, game, seat, turn, resolution.facts)
    context.update(
        {
            "why": turn.reason,
            "lines": [line_json(line) for line in report.lines] if report else [],
            "outcomes": [o.detail for o in resolution.outcomes if o.seat == seat.seat],
            "dice": [
                {"label": e.label, "value": e.result[0]}
                for e in resolution.events
                if e.kind == "die"
            ],
        }
    )
    letter = seat_letter(
        runtime,
        game,
        seat,
        key=f"game:{game.id}:turn:{turn.number}:{seat.seat}:report",
        kind="report",
        template="turn_report",
        context=context,
        pictures=[picture],
        replying_to=mail.message_id if mail else None,
    )
    queue(session, runtime, letter, game)


def receipt(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    report: OrderReport,
    found: list[str],
) -> None:
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    context, picture = position(runtime, rules, game, seat, turn)
    context.update(
        {
            "lines": [line_json(line) for line in report.lines],
            "missing": list(report.missing),
            "accepted": report.ok,
            "commands": found,
            "help": rules.help_text() if "HELP" in found else "",
        }
    )
    letter = seat_letter(
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="receipt",
        template="receipt",
        context=context,
        pictures=[picture],
        replying_to=mail.message_id,
    )
    queue(session, runtime, letter, game)


def reply_status(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    inbound_id: int,
    game: Game,
    seat: Seat,
    found: list[str],
) -> None:
    """STATUS, HELP, HISTORY or an empty mail: the position now and the legal actions."""
    receipt(session, runtime, mail, inbound_id, game, seat, OrderReport((), None), found)


def reply_game_over(
    session: Session, runtime: Runtime, mail: MailIn, inbound_id: int, game: Game, seat: Seat
) -> None:
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    context, picture = position(runtime, rules, game, seat, turn)
    letter = seat_letter(
        runtime,
        game,
        seat,
        key=f"inbound:{inbound_id}:reply",
        kind="game-over",
        template="game_over",
        context=context,
        pictures=[picture],
        replying_to=mail.message_id,
    )
    queue(session, runtime, letter, game)


def resign(
    session: Session, runtime: Runtime, mail: MailIn, inbound_id: int, game: Game, seat: Seat
) -> None:
    game.status = "finished"
    game.finished_at = utcnow()
    game.result = f"{seat.seat} resigned"
    game.score = [-1]
    session.flush()
    reply_game_over(session, runtime, mail, inbound_id, game, seat)


def reply_help(session: Session, runtime: Runtime, mail: MailIn, inbound_id: int) -> None:
    games = [
        {"key": rules.key, "title": rules.title, "help": rules.help_text()}
        for rules in registry.games().values()
    ]
    queue(
        session,
        runtime,
        Letter(
            key=f"inbound:{inbound_id}:reply",
            kind="help",
            to=mail.sender,
            subject="Re: " + (mail.subject or "help"),
            template="help",
            context={"games": games},
            in_reply_to=mail.message_id,
            references=[mail.message_id] if mail.message_id else [],
        ),
    )


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
    queue(
        session,
        runtime,
        Letter(
            key=f"inbound:{inbound_id}:reply",
            kind="problem",
            to=mail.sender,
            subject="Re: " + (mail.subject or "your mail"),
            template="problem",
            context={
                "problem": problem,
                "details": {k: v for k, v in details.items() if k != "game"},
                "game_id": game.id if isinstance(game, Game) else None,
                "games": games,
            },
            in_reply_to=mail.message_id,
            references=[mail.message_id] if mail.message_id else [],
        ),
    )
