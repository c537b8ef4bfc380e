"""Mail to a reply address (a seat's, or the game master's), as an ordered table of steps.

Each step looks at one concern of the mail and either answers it, ending its way with a
``Verdict``, or returns None to let the next step go on; what a step learns (the game, the seat,
the commands read, the reply's sections) it leaves on the ``SeatMail`` for the steps after it.
Read top to bottom, ``STEPS`` is the whole of what the service does with a player's mail:

 1. the game, locked; the game master's address goes to ``gm_mail``
 2. the seat, and the sender must be its player
 3. DKIM, where the game requires it
 4. the key version: a replaced seat's old address plays no more
 5. the mail's own text; a mail read in doubt is answered with its readings, nothing done
 6. the commands read, and the preferences set at once
 7. a game still forming: JOIN (the last one starts it)
 8. a game over: its status
 9. RESIGN
10. notes on JOIN (again) and WAIT
11. the orders read; a mail of commands only is answered with the status
12. the order set filed
13. a game that resolves on receipt: the turn played, and every seat told
14. the receipt
15. early adjudication, once every seat has a whole set on file (on_file.owed)

Step 5 is ``seat_doubt``'s; steps 11 to 15, a seat's orders, are ``seat_orders``'; what the
steps share is ``seat_context``'s.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.games import registry
from adjudicator.mail import addresses, extract
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, InboundMessage, Submission, utcnow
from adjudicator.services.game_master import gm
from adjudicator.services.inbound import replied
from adjudicator.services.inbound.seat_context import SeatMail, Step
from adjudicator.services.inbound.seat_doubt import read_text
from adjudicator.services.inbound.seat_orders import (
    adjudicate_early,
    file_orders,
    read_orders,
    resolve_on_receipt,
    send_receipt,
)
from adjudicator.services.outbound import gm_letters, replies, reports
from adjudicator.services.outbound.mailer import Reply
from adjudicator.services.record import dice, play, steps
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.record.verdict import Verdict
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import commands, preferences
from adjudicator.statuses import GameStatus, InboundStatus

# Commands that change the player's own settings, done whatever the game's state.
_PERSONAL = ("PREFERENCES", "FORMAT", "VACATION", "NAME")


def seat_mail(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    record: InboundMessage,
    route: addresses.SeatRoute,
) -> Verdict:
    """Take the mail through ``STEPS`` until one of them answers it; orders that no step
    answered are on file, and ``adjudicate_early`` has the last word."""
    context = SeatMail(session, runtime, mail, record, route)
    return steps.run(STEPS, context, adjudicate_early)


def mail_lines(mail: MailIn, known: list[str] | None = None) -> list[str]:
    """The lines the sender wrote (the subject, when the body has none); ``known``: the lines
    of the service's mails it may quote (``replied.known_lines``)."""
    lines = [line for line in extract.order_lines(mail.text, known or ()) if line.strip()]
    if not lines:
        subject = extract.subject_line(mail.subject)
        lines = [subject] if subject else []
    return lines


def seat_reading(mail: MailIn, own: extract.OwnText | None = None) -> tuple[commands.Reading, bool]:
    """The mail's commands and other lines (``own``: its own text, read already), and whether
    its only line is the subject (an empty body: the subject is then read as the mail, and
    dropped silently if it says nothing)."""
    own = own if own is not None else extract.own_text(mail.text)
    body = [line for line in own.lines if line.strip()]
    subject = extract.subject_line(mail.subject)
    games = registry.titles()
    if body:
        return commands.with_unread(commands.read(body, subject, games), own), False
    return commands.read([subject] if subject else [], None, games), True


def dkim_refusal(
    session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage, game: Game
) -> Verdict | None:
    """For a game that requires DKIM, the refusal of mail whose signature did not pass: the
    From line alone proves nothing, so such a game acts on nothing unverified (nor its GM's)."""
    if not game.require_dkim or record.dkim.startswith("pass"):
        return None
    details = {"game": game, "verdict": record.dkim or "not checked"}
    replies.problem(Reply(session, runtime, mail, record.id), "dkim-required", details)
    return Verdict(InboundStatus.REJECTED, f"DKIM required, verdict {details['verdict']}", game.id)


def gm_mail(
    session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage, game: Game
) -> Verdict:
    """Mail to the game master's address: its commands run, and answered in one reply."""
    if game.gm is None or game.gm.address != mail.sender:
        details = {"game": game, "seat": "game master"}
        replies.problem(Reply(session, runtime, mail, record.id), "wrong-sender", details)
        return Verdict(
            InboundStatus.REJECTED, f"{mail.sender} is not game {game.id}'s game master", game.id
        )
    refused = dkim_refusal(session, runtime, mail, record, game)
    if refused is not None:
        return refused
    lines = mail_lines(mail, replied.known_lines(session, mail, game.id))
    results = gm.run(session, runtime, game, lines, f"inbound:{record.id}", utcnow())
    gm_letters.gm_reply(Reply(session, runtime, mail, record.id), game, results)
    done = sum(result.done for result in results)
    return Verdict(
        InboundStatus.DONE, f"game-master commands: {done} of {len(results)} done", game.id
    )


# 1.
def find_game(context: SeatMail) -> Verdict | None:
    game = play.locked_game(context.session, context.runtime, context.route.game_id)
    if game is None:
        context.problem("bad-token", {"why": "no such game"})
        return Verdict(InboundStatus.REJECTED, "reply address names no game")
    context.game = game
    if context.route.seat == "gm":
        return gm_mail(context.session, context.runtime, context.mail, context.record, game)
    return None


# 2.
def check_sender(context: SeatMail) -> Verdict | None:
    route, game = context.route, context.game
    seat = next((seat for seat in game.seats if seat.seat == route.seat), None)
    if seat is None:
        context.problem("bad-token", {"why": "no such game"})
        return Verdict(InboundStatus.REJECTED, "reply address names no game")
    if seat.player.address != context.mail.sender:
        # "the <title> seat": the mail puts its own "the" before the title (which may hold one);
        # a title without it is kept whole, to be written in the reader's language.
        title = play.seat_title(game, seat.seat)
        if title.startswith("the "):
            title = title.removeprefix("the ")
        context.problem("wrong-sender", {"game": game, "seat": title})
        return Verdict(
            InboundStatus.REJECTED, f"{context.mail.sender} does not hold seat {seat.seat}", game.id
        )
    context.seat = seat
    play.note_name(seat.player, context.mail.sender_name)
    return None


# 3.
def check_dkim(context: SeatMail) -> Verdict | None:
    return dkim_refusal(
        context.session, context.runtime, context.mail, context.record, context.game
    )


# 4.
def check_key_version(context: SeatMail) -> Verdict | None:
    if context.route.version == context.seat.key_version:
        return None
    # The seat was handed to another player: this address no longer plays it.
    context.problem("bad-token", {"why": "replaced"})
    return Verdict(InboundStatus.REJECTED, "reply address of a replaced seat", context.game.id)


# 6.
def read_commands(context: SeatMail) -> Verdict | None:
    context.reading, context.subject_only = seat_reading(context.mail, context.own)
    player, game, reading = context.seat.player, context.game, context.reading
    personal = [c for c in reading.commands if c.word in _PERSONAL]
    written = [command.alias for command in reading.commands if command.alias]
    mail = (context.mail.language, written)
    answers, guessed = preferences.run_all(player, personal, game, mail, utcnow())
    # In the language this mail chose or was guessed to be in, when it did.
    lang = play.language(player, game)
    ignored = commands.in_language(reading.ignored, lang)
    # Compared by id: the game master's row is not loaded for a player's mail.
    master = (
        gm_letters.gm_address(context.runtime, game) if game.gm_player_id == player.id else None
    )
    context.sections = commands.Sections(ignored=ignored, language=lang, game_master=master)
    for command, (done, message) in zip(personal, answers, strict=True):
        context.sections.did(command, message, done)
    if guessed is not None:
        context.sections.done.append(guessed)
    return None


# 7.
def forming(context: SeatMail) -> Verdict | None:
    game, seat, sections = context.game, context.seat, context.sections
    if game.status != GameStatus.FORMING:
        return None
    found = context.reading.words()
    # The last JOIN starts the game: its player's welcome answers the mail and says so.
    last = "JOIN" in found and all(
        other.joined_at is not None for other in game.seats if other.id != seat.id
    )
    joining = context.reading.first("JOIN")
    given = (
        dice.contribution(seat.seat, joining.argument, context.mail.message_id, context.record.raw)
        if joining is not None and game.chance_scheme == "v2"
        else None
    )
    _ = i18n.translator(sections.language)
    for command in context.reading.commands:
        if command.word == "JOIN":
            started_now = _("; every player has joined, so the game has started") if last else ""
            added = dice.joined_words(game, seat.seat, given, _)
            sections.did(command, _("your seat is taken") + added + started_now)
        elif command.word not in _PERSONAL:
            sections.skip(command.line, _("the game starts when every player has joined"))
    unread = (
        _("not read: the game starts with this mail; send it again")
        if last
        else _("not read: the game has not started yet")
    )
    for line in context.reading.others:
        sections.skip(line, unread)
    answering = reports.Answering(seat, context.mail.message_id, sections)
    session, runtime = context.session, context.runtime
    started = "JOIN" in found and lifecycle.join(session, runtime, game, seat, answering, given)
    if not started:
        replies.invitation_status(context.reply, game, seat, sections)
    return Verdict(
        InboundStatus.DONE, "joined" if seat.joined_at else "invitation pending", game.id
    )


# 8.
def game_over(context: SeatMail) -> Verdict | None:
    if context.game.status == GameStatus.ACTIVE:
        return None
    # Nothing in it is played: every command but the player's own settings, and every other
    # line, is answered as come after the end.
    sections = context.sections
    _ = i18n.translator(sections.language)
    for command in context.reading.commands:
        if command.word not in _PERSONAL:
            sections.skip(command.line, _("not done: this game has ended"))
    for line in context.reading.others:
        sections.skip(line, _("not read: this game has ended"))
    replies.game_over(context.reply, context.game, context.seat, sections)
    return Verdict(InboundStatus.DONE, "game is over; status sent", context.game.id)


# 9.
def resign(context: SeatMail) -> Verdict | None:
    resigned = context.reading.first("RESIGN")
    if resigned is None:
        return None
    game = context.game
    _ = i18n.translator(context.sections.language)
    context.sections.did(resigned, _("you resigned; game %(game)s is over", game=game.id))
    for line in context.reading.others:
        context.sections.skip(line, _("not read: you resigned in the same mail"))
    lifecycle.resign(context.reply, game, context.seat, context.sections)
    return Verdict(InboundStatus.DONE, "resigned", game.id)


# 10.
def join_and_wait(context: SeatMail) -> Verdict | None:
    reading, sections, game = context.reading, context.sections, context.game
    _ = i18n.translator(sections.language)
    joined = reading.first("JOIN")
    if joined is not None:
        sections.skip(joined.line, _("you have already joined this game"))
    waiting = reading.first("WAIT")
    if waiting is None:
        return None
    if context.rules().resolves_on_receipt:
        sections.skip(
            waiting.line, _("WAIT is for games with deadlines; this one moves on receipt")
        )
        return None
    sections.did(
        waiting,
        _(
            "You asked to WAIT: this turn is processed at its deadline, not earlier, even when "
            "everyone has sent orders"
        ),
    )
    # Kept as a submission of its own, so the request is on record for this turn.
    context.session.add(
        Submission(
            game_id=game.id,
            seat=context.seat.seat,
            turn_number=play.latest_turn(context.session, game.id).number + 1,
            inbound_id=context.record.id,
            text="WAIT",
            report=[],
            orders=None,
            accepted=False,
            wait=True,
        )
    )
    return None


STEPS: tuple[Step, ...] = (
    find_game,
    check_sender,
    check_dkim,
    check_key_version,
    read_text,
    read_commands,
    forming,
    game_over,
    resign,
    join_and_wait,
    read_orders,
    file_orders,
    resolve_on_receipt,
    send_receipt,
)
