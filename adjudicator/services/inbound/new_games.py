"""Mail to new@: a game master's or a solo player's NEW read into a game started, or refused
with the problem mail and an example written for the game asked for."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.orm import Session

from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, InboundMessage, Player
from adjudicator.services.inbound import replied
from adjudicator.services.inbound.seat_mail import mail_lines
from adjudicator.services.outbound import gm_letters, replies, reports
from adjudicator.services.outbound.mailer import Reply
from adjudicator.services.record import dice, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.record.verdict import Verdict
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import commands, preferences
from adjudicator.statuses import InboundStatus


def refuse_new(reply: Reply, why: str, game_key: str | None) -> Verdict:
    """A NEW that cannot be done: the problem mail, its example written for the game asked for."""
    replies.problem(reply, "bad-new", {"why": why, **lifecycle.new_hint(game_key)})
    return Verdict(InboundStatus.REJECTED, why)


def start_game(session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage) -> Verdict:
    lines = mail_lines(mail, replied.known_lines(session, mail, None))
    request = commands.parse_new(lines)
    reply = Reply(session, runtime, mail, record.id)
    if request is None or isinstance(request, Refusal):
        why = request.reason if request else said._("no NEW line found")
        return refuse_new(reply, why, commands.asked_game(lines))
    rules = registry.get(request.game_key)
    if rules is None:
        why = said._("there is no game called %(name)s", name=repr(request.game_key))
        return refuse_new(reply, why, None)
    if request.words and (len(rules.seats) != 1 or request.challenge):
        # Sentences of core.said: the answer writes them in its reader's language.
        if len(rules.seats) != 1:
            why = said._(
                "I did not understand %(words)s after NEW %(game)s: each invited player adds "
                "their own words to the dice when they answer JOIN",
                words=repr(request.words),
                game=rules.key.upper(),
            )
        else:
            why = said._(
                "I did not understand %(words)s after NEW %(game)s: a shared deal gives every "
                "entrant the same cards, so no words of your own can change it",
                words=repr(request.words),
                game=rules.key.upper(),
            )
        return refuse_new(reply, why, rules.key)
    if len(rules.seats) != 1:
        return start_gm_game(session, runtime, mail, record, request)
    challenge = None
    if request.challenge:
        found = play.open_challenge(session, runtime, rules.key, request.challenge, request.options)
        if isinstance(found, Refusal):
            return refuse_new(reply, found.reason, rules.key)
        challenge = found
    player = play.player_for(session, mail.sender, mail.sender_name)
    # A solo game's dice take the player's words after the game's name, else their mail's own
    # Message-ID (docs/fairness.md says what that can and cannot prevent).
    own = dice.contribution(rules.seats[0], request.words, mail.message_id, record.raw)
    game = play.create_game(
        session,
        runtime,
        rules,
        {rules.seats[0]: player},
        request.options,
        challenge,
        scheme="v2",
        contributions=[dice.record(own, play.display_name(player))],
    )
    if isinstance(game, Refusal):
        return refuse_new(reply, game.reason, rules.key)
    reports.game_started(session, runtime, game, _guessed(player, game, mail, request.alias))
    return Verdict(InboundStatus.DONE, f"started game {game.id}", game.id)


def _guessed(
    player: Player, game: Game, mail: MailIn, written: str = ""
) -> reports.Answering | None:
    """A first mail's language guessed from its Content-Language, else from its NEW as
    ``written`` (NUEVA, НОВАЯ): the welcome answers it, saying so (and how to change it) in
    that language; None when nothing was guessed."""
    guessed = preferences.guess_language(player, mail.language, [written])
    if guessed is None:
        return None
    sections = commands.Sections()
    sections.done.append(guessed)
    return reports.Answering(game.seats[0], mail.message_id, sections)


def start_gm_game(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    record: InboundMessage,
    request: commands.NewGame,
) -> Verdict:
    """The sender is the game master; each named player is invited and answers JOIN."""
    settings = lifecycle.read_settings(
        request.game_key, request.seats, request.options, request.settings, mail.sender
    )
    made = (
        settings
        if isinstance(settings, Refusal)
        else lifecycle.start_game(
            session, runtime, replace(settings, gm_name=mail.sender_name), invite=True
        )
    )
    if isinstance(made, Game):
        # The game master's language guessed as a player's is (their NEW's words, or its
        # Content-Language), the answer to NEW saying so.
        guessed = (
            preferences.guess_language(made.gm, mail.language, [request.alias]) if made.gm else None
        )
        gm_letters.gm_created(Reply(session, runtime, mail, record.id), made, guessed)
        return Verdict(InboundStatus.DONE, f"game {made.id} formed; invitations sent", made.id)
    return refuse_new(Reply(session, runtime, mail, record.id), made.reason, request.game_key)
