"""Answers to a mail: the receipt of orders, the status, help, a game's end, what was wrong.

Each takes the ``mailer.Reply`` it answers (the session, the runtime, the mail and its stored
row's id), which is also what makes an answer's outbox key: a mail processed twice is answered
once.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import OrderReport
from adjudicator.games import registry
from adjudicator.i18n import N_
from adjudicator.models import Game, Player, Seat, utcnow
from adjudicator.services.access import safety
from adjudicator.services.outbound.answers import NOT_CARRIED_OUT, command_context, line_json
from adjudicator.services.outbound.mailer import Letter, Reply, queue
from adjudicator.services.outbound.reports import SeatLetter, mail_seat
from adjudicator.services.record import play
from adjudicator.services.record.on_file import orders_on_file
from adjudicator.services.words import command_words, commands, lookalikes, orders, preferences


def receipt_lines(report: OrderReport, filed: bool) -> dict[str, Any]:
    """The receipt's account of a mail's order lines, as the templates read it (email/_lines.*);
    the web order checker shows the same, so the two can never word a line differently.
    ``filed``: the set is on file (``orders.files``), maybe without its refused lines. Its
    sentences are in the current reader's language (``i18n.speaking``)."""
    refused = [line.number for line in report.rejected]
    lines = [line_json(line) for line in report.lines]
    if not filed:
        # Nothing of the mail was kept or done: no line of it may read "accepted", and what the
        # set would have left out is no news either.
        lines = [
            {**line, "status": NOT_CARRIED_OUT} if line["status"] == "accepted" else line
            for line in lines
        ]
    return {
        "lines": lines,
        "missing": [said.anew(thing) for thing in report.missing] if filed else [],
        "accepted": filed,
        "refused": refused if filed else [],
    }


def receipt(
    reply: Reply,
    game: Game,
    seat: Seat,
    report: OrderReport,
    reading: commands.Reading,
    sections: commands.Sections,
    filing: dict[str, Any] | None = None,
) -> None:
    """The orders as understood when they were not resolved at once, and the answer to the
    mail's commands in sections.

    ``filing`` says which turn they count for and whether they replaced or joined a set on file.
    All of it in the seat's language, the sentences the game wrote when it read the mail too."""
    with i18n.speaking(play.language(seat.player, game)):
        filed = orders.files(play.rules_for(game), report)
        _to_seat(
            reply,
            game,
            seat,
            ("receipt", "receipt", receipt_subject(report, filed)),
            {
                **receipt_lines(report, filed),
                **command_context(reply.session, reply.runtime, game, seat, reading, sections),
                "filing": {
                    "for_turn": None,
                    "merged": False,
                    "replaced": False,
                    "too_late_for": None,
                    **(filing or {}),
                },
            },
            # Orders change nothing until the turn is played: the player has this map already.
            drawn=False,
        )


def doubt(reply: Reply, game: Game, seat: Seat, why: str, readings: list[list[str]]) -> None:
    """The answer to a mail read in doubt (``extract.Doubt``): nothing of it was done or kept;
    the lines each reading would take as orders (``readings``, in the mail's order), what stays
    on file, and the way to say which: the orders again between ORDERS and END."""
    lang = play.language(seat.player, game)
    turn = play.latest_turn(reply.session, game.id)
    with i18n.speaking(lang):
        on_file = orders_on_file(reply.session, game, seat.seat, turn.number + 1, lang)
        _to_seat(
            reply,
            game,
            seat,
            ("receipt", "receipt", "in-doubt"),
            {
                **receipt_lines(OrderReport((), None), False),
                **command_context(
                    reply.session,
                    reply.runtime,
                    game,
                    seat,
                    commands.Reading((), ()),
                    commands.Sections(language=lang),
                ),
                "filing": {"for_turn": None, "merged": False, "replaced": False},
                "on_file": on_file,
                "doubt": {"why": why, "readings": [{"lines": lines} for lines in readings]},
            },
            drawn=False,
        )


def _to_seat(
    reply: Reply,
    game: Game,
    seat: Seat,
    letter: tuple[str, str, str],
    extra: dict[str, Any],
    drawn: bool = True,
) -> None:
    """The answer to ``reply``'s mail from a seat's player, in the game's thread: ``letter`` is
    the mail's kind, its template and what its subject says (see ``subjects``); ``drawn``:
    whether it carries the map."""
    kind, template, what = letter
    mail_seat(
        reply.session,
        reply.runtime,
        game,
        seat,
        SeatLetter(reply.key, kind, template, what, extra, map=drawn),
        replying_to=reply.mail.message_id,
    )


def receipt_subject(report: OrderReport, filed: bool) -> str:
    if not report.lines:
        return "answered"  # commands only, or an empty mail
    if not filed:
        return "refused"
    return "received" if report.ok else "received-in-part"


def status(
    reply: Reply,
    game: Game,
    seat: Seat,
    reading: commands.Reading,
    sections: commands.Sections,
) -> None:
    """A mail of commands only (or an empty one): their answers, the position, what is legal."""
    receipt(reply, game, seat, OrderReport((), None), reading, sections)


def game_over(
    reply: Reply,
    game: Game,
    seat: Seat,
    sections: commands.Sections | None = None,
) -> None:
    """The answer to a mail that came after the game's end: it has ended, how, the last
    position and the seed."""
    sections_json = sections.json() if sections else None
    extra = {"sections": sections_json, "late": True}
    _to_seat(reply, game, seat, ("game-over", "game_over", "over"), extra)


def answer_sender(
    reply: Reply,
    kind: str,
    template: str,
    context: dict[str, Any],
) -> None:
    """A reply to whoever wrote, about no game of theirs: help, or what was wrong; in the
    ``context``'s language."""
    lang = str(context.get("language") or i18n.SOURCE)
    queue(
        reply.session,
        reply.runtime,
        Letter(
            key=reply.key,
            kind=kind,
            to=reply.mail.sender,
            subject="Re: " + (reply.mail.subject or i18n.gettext("your mail", lang)),
            template=template,
            context=context,
            in_reply_to=reply.mail.message_id,
            references=[reply.mail.message_id] if reply.mail.message_id else [],
        ),
    )


def send_help(
    reply: Reply,
    reading: commands.Reading | None = None,
) -> None:
    """General help, or one game's with ``HELP <game>``; other lines are answered in sections,
    since help@ knows no game to run a game's command on. In the sender's language (their own,
    else their mail's Content-Language, else that of the command words they wrote), the command
    list showing that language's words for the commands."""
    known = registry.games()
    asked: list[str] = []
    written = [command.alias for command in reading.commands if command.alias] if reading else []
    written += [line.split()[0] for line in reading.others if line.split()] if reading else []
    mail = reply.mail
    lang = preferences.sender_language(reply.session, mail.sender, mail.language, written)
    _ = i18n.translator(lang)
    ignored = commands.in_language(reading.ignored, lang) if reading else []
    sections = commands.Sections(ignored=ignored, language=lang)
    for command in reading.commands if reading else ():
        games = [(key, rules.title) for key, rules in known.items()]
        key = commands.game_name(command.argument, games) if command.word == "HELP" else None
        if command.word == "HELP" and key is not None:
            asked.append(key)
            sections.did(command, _("how to play %(game)s by mail is below", game=known[key].title))
        elif command.word == "HELP":
            sections.did(command, _("how to start a game and every game's orders are below"))
        else:
            sections.did(
                command,
                _(
                    "%(command)s is for a game: send it to the reply address of your game's mail",
                    command=command.word,
                ),
                ok=False,
            )
    for line in reading.others if reading else ():
        hint = lookalikes.looks_like_command(line, lang) or _new_here(line, lang)
        if hint is not None:
            sections.not_understood.append(commands.Entry(line.strip(), hint, ok=False))
        else:
            sections.skip(line, _("not a command"))
    chosen = [known[key] for key in asked] or list(known.values())
    # The games' own help in the reader's language too (core.said).
    with i18n.speaking(lang):
        shown = [
            {"key": r.key, "title": r.title, "help": r.help_text(), "options": _options(r)}
            for r in chosen
        ]
    context = {
        "games": shown,
        "one_game": bool(asked),
        "sections": sections.json(),
        "language": lang,
        "command_words": command_words.shown(lang),
    }
    answer_sender(reply, "help", "help", context)


def _options(rules: Rules[Any]) -> list[dict[str, str]]:
    """A game's options as a game master sets them on the NEW line: key, choices, default, and
    what each does in the current reader's language."""
    return [
        {
            "key": option.key,
            "choices": "|".join(option.offered),
            "default": option.default,
            "help": str(said.anew(option.help)),
        }
        for option in rules.options
    ]


def _new_here(line: str, lang: str = i18n.SOURCE) -> str | None:
    """NEW (in any language's word) sent to help@: where it belongs."""
    if line.split()[:1] and command_words.canonical(line.split()[0]) == "NEW":
        return i18n.gettext("games are started at new@ (this address only answers HELP)", lang)
    return None


def problem(
    reply: Reply,
    problem: str,
    details: dict[str, Any],
) -> None:
    """A polite answer saying what was wrong and what to do instead.

    Not sent to an address that is no player and already had a problem reply recently (see
    services.access.safety): the message's reason then says the reply was suppressed."""
    suppressed = safety.suppress_problem_reply(
        reply.session, reply.runtime, reply.mail.sender, utcnow()
    )
    if suppressed is not None:
        safety.note_suppressed(reply.session, reply.inbound_id, suppressed)
        return
    game = details.get("game")
    games = [{"key": rules.key, "title": rules.title} for rules in registry.games().values()]
    lang = sender_language(reply, game if isinstance(game, Game) else None)
    shown = {k: v for k, v in details.items() if k != "game"}
    if isinstance(shown.get("why"), str) and shown["why"] in _WHYS:
        shown["why"] = i18n.gettext(shown["why"], lang)
    elif "why" in shown:  # a refusal written as a sentence of core.said (a NEW's): anew
        shown["why"] = i18n.localized(shown["why"], lang)
    context = {
        "language": lang,
        "problem": problem,
        "details": shown,
        "game_id": game.id if isinstance(game, Game) else None,
        "games": games,
    }
    # Rate-limit notices are a kind of their own so the once-an-hour rule can find them.
    kind = safety.RATE_LIMIT if problem == safety.RATE_LIMIT else "problem"
    answer_sender(reply, kind, "problem", context)


# Why a reply address was refused, as the pipeline words it: said in the reader's language.
_WHYS = (N_("no such game"), N_("replaced"))


def sender_language(reply: Reply, game: Game | None = None) -> str:
    """The language of an answer to whoever wrote: a player's own, else the game's the mail was
    about, else the one the mail's Content-Language names (a first guess, not stored), else
    English."""
    player = reply.session.scalar(select(Player).where(Player.address == reply.mail.sender))
    return i18n.chosen(
        player.language if player is not None else "",
        game.language if game is not None else "",
        reply.mail.language,
    )


def invitation_status(
    reply: Reply,
    game: Game,
    seat: Seat,
    sections: commands.Sections | None = None,
) -> None:
    lang = play.language(seat.player, game)
    waiting = [
        # With sides by lot a seat is not yet anyone's side: the player is named instead.
        play.display_name(other.player) or i18n.gettext("the other player", lang)
        if game.sides_by_lot
        else play.seat_title(game, other.seat)
        for other in game.seats
        if other.joined_at is None
    ]
    if seat.joined_at is None:
        message = i18n.gettext("you are invited to this game: reply JOIN to take your seat.", lang)
    else:
        message = i18n.ngettext(
            "you have joined; the game starts when %(names)s joins too.",
            "you have joined; the game starts when %(names)s join too.",
            len(waiting),
            lang,
            names=i18n.listed(waiting, lang),
        )
    letter = ("invitation", "notice", "joined" if seat.joined_at else "invited")
    # No map: the opening is dealt once every player has joined (lifecycle.deal_opening).
    extra = {"message": message, "sections": sections and sections.json()}
    _to_seat(reply, game, seat, letter, extra, drawn=False)
