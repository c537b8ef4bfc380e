"""Game-master commands, by mail or CLI: move deadlines, pause, force, replace a player, end.

Every command is one line; each returns its result as a sentence for the game master, and every
change players must know of is announced to them with the reason, so deadlines never move
silently. ``COMMANDS`` maps each command word to its handler, in the order the commands are listed.
The answers are in the game master's language (``language``); each player's notice in theirs.
SET DEADLINE and EXTEND are ``deadline_commands``'; a line being run is ``command_line.Asked``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from adjudicator import i18n, limits
from adjudicator.core import lines as core_lines
from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.i18n import N_
from adjudicator.mail import addresses
from adjudicator.models import Game
from adjudicator.services.access import panel_links
from adjudicator.services.game_master import deadline_commands
from adjudicator.services.game_master.command_line import Answer, Asked, announce
from adjudicator.services.outbound import calendar_entries, gm_letters
from adjudicator.services.record import play, rollbacks, transitions
from adjudicator.services.record.runtime import Runtime, Task
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import command_words, lookalikes
from adjudicator.statuses import GameStatus


@dataclass(frozen=True)
class Result:
    line: str
    done: bool
    message: str
    # Where the reply lists it: "done" (a command, done or not), "not-understood" (looks like a
    # mistyped command) or "ignored" (chatter such as a greeting).
    section: str = "done"


def run(
    session: Session, runtime: Runtime, game: Game, lines: list[str], key: str, now: datetime
) -> list[Result]:
    """Run each command line in order; ``key`` makes the players' notices unique to this run."""
    results = []
    lang = gm_letters.language(game)
    for number, line in enumerate(lines):
        text = limits.plain(line)  # no control, bidi or zero-width character reaches anyone
        if not text:
            continue
        why = core_lines.unreadable(text)
        if why is not None:  # a line too long to read is no command, and is answered so
            results.append(
                Result(core_lines.shortened(text), False, i18n.localized(why, lang), "ignored")
            )
            continue
        upper = text.upper()
        word = next((w for w in WORDS if upper == w or upper.startswith(w + " ")), None)
        if word is None:
            results.append(_unknown(text, lang))
            continue
        argument = text[len(word) :].strip()
        asked = Asked(session, runtime, game, argument, f"{key}:{number}", now, lang)
        done, message = _command(asked, word)
        results.append(Result(text, done, i18n.localized(message, lang)))
    return results


def _unknown(text: str, lang: str) -> Result:
    """A line that is no game-master command: a slip gets a suggestion, chatter is ignored."""
    _ = i18n.translator(lang)
    first, *rest = text.split()
    if command_words.canonical(first) == "HELP" and not rest:
        return Result(text, True, _("the game-master commands are listed below"))
    heads = {w.split()[0]: w for w in WORDS}
    close = lookalikes.closest(first.strip(".!?:;,"), list(heads))
    if close is not None:
        meant = heads[close] + (" " + " ".join(rest) if rest and " " not in heads[close] else "")
        hint = _("not a game-master command; did you mean %(meant)s?", meant=meant)
        return Result(text, False, hint, "not-understood")
    if text.isupper() and len(rest) < 3:
        # Capitals on a short line read as a command, so it is answered as one not understood.
        known = _("not a game-master command; known: %(known)s", known=", ".join(WORDS))
        return Result(text, False, known, "not-understood")
    return Result(text, False, _("not a game-master command"), "ignored")


@dataclass(frozen=True)
class _Command:
    """A game-master command: its handler, and whether it is answered for a game that is over
    (it changes nothing in the game)."""

    handler: Callable[[Asked], Answer]
    on_a_game_over: bool = False


def _command(asked: Asked, word: str) -> Answer:
    """The command ``word`` on this line: a game that is over only reads its status and panel."""
    command = COMMANDS[word]
    game = asked.game
    if not command.on_a_game_over and game.status not in (GameStatus.ACTIVE, GameStatus.FORMING):
        state = asked._(_STATES.get(game.status, game.status))
        return False, asked._(
            "game %(game)s is %(state)s; nothing can change", game=game.id, state=state
        )
    return command.handler(asked)


# A game's state as the game master reads it.
_STATES = {
    "paused": N_("paused"),
    GameStatus.FORMING: N_("forming"),
    GameStatus.ACTIVE: N_("active"),
    GameStatus.FINISHED: N_("finished"),
    GameStatus.CLOSED: N_("closed"),
}


def _status(asked: Asked) -> Answer:
    game = asked.game
    state = "paused" if game.paused else game.status
    said_state = asked._(_STATES.get(state, state))
    answer = asked._("game %(game)s is %(state)s", game=game.id, state=said_state)
    if game.deadline:
        answer += asked._(", due %(when)s UTC", when=f"{game.deadline:%Y-%m-%d %H:%M}")
    if game.require_dkim:
        answer += asked._("; orders only from mail with a valid DKIM signature")
    return True, answer


def _panel(asked: Asked) -> Answer:
    """A login link for the web panel. The answer goes only to the game master's own address
    (the mail path has checked the sender), so asking for a link in someone else's name just
    mails the game master a link; the hourly limit keeps that from flooding them."""
    issued = panel_links.issue(asked.session, asked.runtime, asked.game, asked.now)
    if isinstance(issued, panel_links.TooMany):
        return False, asked._(
            "too many links requested, try again in %(minutes)s min", minutes=issued.minutes
        )
    if isinstance(issued, Refusal):
        return False, issued.reason
    return True, asked._(
        "open %(url)s within %(hours)s h to run the game on the web; the link works once",
        url=issued.url,
        hours=issued.hours,
    )


def _pause(asked: Asked) -> Answer:
    if asked.game.paused:
        return False, asked._("the game is already paused")
    asked.game.paused = True
    announce(
        asked,
        said._(
            "The game master has paused the game: no turn "
            "is processed until it is resumed. Your orders on file stay."
        ),
        "paused",
    )
    return True, asked._("paused")


def _resume(asked: Asked) -> Answer:
    game = asked.game
    if not game.paused:
        return False, asked._("the game is not paused")
    game.paused = False
    if game.deadline is not None and game.deadline <= asked.now:
        lifecycle.open_deadline(game, asked.now)  # the old deadline passed while paused
        announce(
            asked, said._("The game master has resumed the game with a new deadline."), "resumed"
        )
        return True, asked._("resumed with a new deadline")
    announce(asked, said._("The game master has resumed the game."), "resumed")
    return True, asked._("resumed")


def _process_now(asked: Asked) -> Answer:
    game = asked.game
    if game.status != GameStatus.ACTIVE:
        return False, asked._("the game has not started")
    # Recorded, not only queued: a task lost with its queue (a console's own, or the broker's)
    # is queued again by the tick, which sees the turn is forced.
    game.forced_at = game.forced_at or asked.now
    turn = play.latest_turn(asked.session, game.id).number + 1
    transitions.record(asked.session, game, "forced", asked.now, by="gm", turn=turn)
    asked.runtime.later(asked.session, Task.ADJUDICATE, game.id)
    return True, asked._("the turn will be processed at once, with defaults for missing orders")


def _rollback(asked: Asked) -> Answer:
    """Undo the last turn: it stays on record, marked; the turn is played again from before it.

    Its number (and so its chance stream) is reused, so the same orders meet the same dice: a
    rollback can correct a mistake but never re-roll one."""
    session, game, reason, now = asked.session, asked.game, limits.reason(asked.argument), asked.now
    if game.status != GameStatus.ACTIVE:
        return False, asked._("the game has not started")
    turn = play.latest_turn(session, game.id)
    if turn.number == 0:
        return False, asked._("no turn has been played yet")
    # The turn after it is not due any more (the rolled-back turn is, under its own entry).
    stale = calendar_entries.overtaken(game, turn.number + 1, now)
    turn.rolled_back_at = game.rolled_back_at = now
    # Kept with the turn: the archive shows it, and the turn's new report says it replaces
    # this one and why (rollbacks.replaced).
    turn.rollback_note = rollbacks.note(reason)
    session.flush()
    lifecycle.open_deadline(game, now)
    back = (
        said._(
            "The game master has rolled back turn %(turn)s (%(why)s). The position is as it was "
            "before it; the orders you had on file for turn %(turn)s stay, and you may change "
            "them until the new deadline. When it is played again, its new report replaces the "
            "earlier one.",
            turn=turn.number,
            why=reason,
        )
        if reason
        else said._(
            "The game master has rolled back turn %(turn)s. The position is as it was before it; "
            "the orders you had on file for turn %(turn)s stay, and you may change them until "
            "the new deadline. When it is played again, its new report replaces the earlier "
            "one.",
            turn=turn.number,
        )
    )
    announce(asked, back, "rolled-back", {"turn": turn.number}, overtaken=stale, note=reason)
    return True, asked._("turn %(turn)s rolled back; it will be played again", turn=turn.number)


def _replace(asked: Asked) -> Answer:
    game = asked.game
    parts = asked.argument.split()
    if len(parts) != 2 or not addresses.single(parts[1]):
        return False, asked._("write REPLACE <seat> <address>")
    seat = next((s for s in game.seats if s.seat == parts[0].lower()), None)
    if seat is None:
        seats = ", ".join(s.seat for s in game.seats)
        return False, asked._(
            "no seat %(seat)s; seats: %(seats)s", seat=repr(parts[0]), seats=seats
        )
    title = play.seat_title(game, seat.seat)
    if seat.player.address == parts[1].lower():
        return False, asked._(
            "%(seat)s is already played by %(address)s; nothing was changed",
            seat=title,
            address=seat.player.address,
        )
    before = seat.player
    seat.player = play.player_for(asked.session, parts[1].lower())
    # A new key version: the old player's reply address stops working.
    seat.key_version += 1
    asked.session.flush()
    # The players read names, never addresses: the game master alone knows those.
    announce(
        asked,
        said._(
            "%(seat)s is now played by %(new)s (replacing %(old)s).",
            seat=title,
            new=play.display_name(seat.player) or said._("a new player"),
            old=play.display_name(before) or said._("the previous player"),
        ),
        "replaced",
        {"seat": title},
    )
    old, new = before.address, seat.player.address
    return True, asked._("%(seat)s: %(old)s replaced by %(new)s", seat=title, old=old, new=new)


def _end(asked: Asked) -> Answer:
    game, now = asked.game, asked.now
    # The turn that was due will never be played: its entry leaves the players' calendars (a
    # forming game has sent none).
    stale = (
        calendar_entries.overtaken(game, play.latest_turn(asked.session, game.id).number + 1, now)
        if game.status == GameStatus.ACTIVE
        else None
    )
    game.status, game.finished_at = GameStatus.FINISHED, now
    game.result, game.deadline = "ended by the game master", None
    announce(
        asked,
        said._(
            "The game master has ended the game. The seed is "
            "revealed below so every card and die can be checked."
        ),
        "over",
        overtaken=stale,
    )
    return True, asked._("ended; the seed is revealed to the players")


# Every game-master command by its word, in the order the help and the "known:" answer list them.
COMMANDS: dict[str, _Command] = {
    "SET DEADLINE": _Command(deadline_commands.set_deadline),
    "EXTEND": _Command(deadline_commands.extend),
    "PAUSE": _Command(_pause),
    "RESUME": _Command(_resume),
    "PROCESS NOW": _Command(_process_now),
    "ROLLBACK": _Command(_rollback),
    "REPLACE": _Command(_replace),
    "END": _Command(_end),
    "GMREPORTS": _Command(
        lambda asked: gm_letters.choose(asked.game, asked.argument, asked.language)
    ),
    "STATUS": _Command(_status, on_a_game_over=True),
    # An ended game's panel still opens, read-only.
    "PANEL": _Command(_panel, on_a_game_over=True),
}
WORDS = tuple(COMMANDS)
