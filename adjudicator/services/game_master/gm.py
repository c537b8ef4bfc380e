"""Game-master commands, by mail or CLI: move deadlines, pause, force, replace a player, end.

Every command is one line; each returns its result as a sentence for the game master, and every
change players must know of is announced to them with the reason, so deadlines never move
silently. ``COMMANDS`` maps each command word to its handler, in the order the commands are listed.
The answers are in the game master's language (``language``); each player's notice in theirs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n, limits, schedule
from adjudicator.core import lines as core_lines
from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.i18n import N_
from adjudicator.mail import addresses
from adjudicator.models import Game
from adjudicator.services.access import panel_links
from adjudicator.services.game_master import notices
from adjudicator.services.outbound import gm_letters, reports
from adjudicator.services.record import play, rollbacks, transitions
from adjudicator.services.record.runtime import Runtime, Task
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import command_words, commands
from adjudicator.statuses import GameStatus

WHEN = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})[ T](?P<time>\d{1,2}:\d{2})(?:\s+(?P<zone>\S+))?$")


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
        asked = _Asked(session, runtime, game, argument, f"{key}:{number}", now, lang)
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
    close = commands.closest(first.strip(".!?:;,"), list(heads))
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
class _Asked:
    """One command line being run: what its handler works on. ``argument`` is the line after the
    command word; ``key`` makes the notices it sends unique to this line."""

    session: Session
    runtime: Runtime
    game: Game
    argument: str
    key: str
    now: datetime
    # The game master's language: what the answer is written in.
    language: str = i18n.SOURCE

    def _(self, message: str, **values: Any) -> str:
        """``message`` in the game master's language."""
        return i18n.gettext(message, self.language, **values)


# A command's answer: whether it was done, and the sentence for the game master.
Answer = tuple[bool, str]


@dataclass(frozen=True)
class _Command:
    """A game-master command: its handler, and whether it is answered for a game that is over
    (it changes nothing in the game)."""

    handler: Callable[[_Asked], Answer]
    on_a_game_over: bool = False


def _command(asked: _Asked, word: str) -> Answer:
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


def _status(asked: _Asked) -> Answer:
    game = asked.game
    state = "paused" if game.paused else game.status
    said_state = asked._(_STATES.get(state, state))
    answer = asked._("game %(game)s is %(state)s", game=game.id, state=said_state)
    if game.deadline:
        answer += asked._(", due %(when)s UTC", when=f"{game.deadline:%Y-%m-%d %H:%M}")
    if game.require_dkim:
        answer += asked._("; orders only from mail with a valid DKIM signature")
    return True, answer


def _panel(asked: _Asked) -> Answer:
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


def _set_deadline(asked: _Asked) -> Answer:
    when = _moment(asked.argument, asked.game.timezone, asked.now)
    if isinstance(when, Refusal):
        return False, when.reason
    return _move(asked, when, said._("set by the game master"))


# EXTEND's length, then the game master's reason for the players, if any: "EXTEND 24h Luis is
# travelling". The longer units first, so "24hours" is not read as "24h" and "ours".
_LENGTH_THEN = re.compile(r"^(\d+\s*(?:min|m|hours?|h|days?|d))(?:\s+(.*))?$", re.IGNORECASE)


def _extend(asked: _Asked) -> Answer:
    game = asked.game
    written = _LENGTH_THEN.match(asked.argument)
    span = schedule.length(written.group(1)) if written else None
    if span is None or written is None:
        return False, asked._("EXTEND takes a length such as 24h, 90m or 2d, then a reason if any")
    if isinstance(span, Refusal):
        return False, span.reason
    if game.deadline is None:
        return False, asked._("the game has no deadline to extend")
    if not span:
        # Nothing would move: the players are not told the deadline moved when it did not.
        return False, asked._("EXTEND by nothing leaves the deadline as it is; nothing was changed")
    problem = _out_of_reach(game.deadline, span, asked.now)
    if problem is not None:
        return False, problem.reason
    reason = limits.reason(written.group(2) or "")
    why = said._("extended: %(reason)s", reason=reason) if reason else said._("extended")
    return _move(asked, Moment(game.deadline + span, game.timezone), why, reason)


def _pause(asked: _Asked) -> Answer:
    if asked.game.paused:
        return False, asked._("the game is already paused")
    asked.game.paused = True
    _announce(
        asked,
        said._(
            "The game master has paused the game: no turn "
            "is processed until it is resumed. Your orders on file stay."
        ),
        "paused",
    )
    return True, asked._("paused")


def _resume(asked: _Asked) -> Answer:
    game = asked.game
    if not game.paused:
        return False, asked._("the game is not paused")
    game.paused = False
    if game.deadline is not None and game.deadline <= asked.now:
        lifecycle.open_deadline(game, asked.now)  # the old deadline passed while paused
        _announce(
            asked, said._("The game master has resumed the game with a new deadline."), "resumed"
        )
        return True, asked._("resumed with a new deadline")
    _announce(asked, said._("The game master has resumed the game."), "resumed")
    return True, asked._("resumed")


def _process_now(asked: _Asked) -> Answer:
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


def _rollback(asked: _Asked) -> Answer:
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
    stale = reports.overtaken(game, turn.number + 1, now)
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
    _announce(asked, back, "rolled-back", {"turn": turn.number}, overtaken=stale, note=reason)
    return True, asked._("turn %(turn)s rolled back; it will be played again", turn=turn.number)


def _replace(asked: _Asked) -> Answer:
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
    _announce(
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


def _end(asked: _Asked) -> Answer:
    game, now = asked.game, asked.now
    # The turn that was due will never be played: its entry leaves the players' calendars (a
    # forming game has sent none).
    stale = (
        reports.overtaken(game, play.latest_turn(asked.session, game.id).number + 1, now)
        if game.status == GameStatus.ACTIVE
        else None
    )
    game.status, game.finished_at = GameStatus.FINISHED, now
    game.result, game.deadline = "ended by the game master", None
    _announce(
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
    "SET DEADLINE": _Command(_set_deadline),
    "EXTEND": _Command(_extend),
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


@dataclass(frozen=True)
class Moment:
    """A new deadline, the zone its answer is shown in, and what the game master must be told
    about how a wall-clock time was read (a time the clocks skip or repeat)."""

    when: datetime
    zone: str
    note: str = ""


# The refusals' sentences, made with core.said so that the answer writes them in the game
# master's language (``run``).
PASSED = N_("that moment has already passed; use PROCESS NOW to process at once")
BAD_MOMENT = N_(
    "%(written)s is not a date and time: write the year, month and day that exist, and a time "
    "from 00:00 to 23:59, e.g. 2027-03-29 20:00"
)


def _moment(argument: str, zone: str, now: datetime) -> Moment | Refusal:
    """The deadline SET DEADLINE names: ``+24h`` from now, or a date and time on the wall clock
    of the zone it names (the game's own by default)."""
    if argument.startswith("+"):
        span = schedule.length(argument[1:])
        if isinstance(span, timedelta):
            if span <= timedelta(0):
                return Refusal(said._(PASSED), "passed")
            return _out_of_reach(now, span, now) or Moment(now + span, zone)
        if isinstance(span, Refusal):
            return span
    match = WHEN.match(argument)
    if not match:
        form = said._("write SET DEADLINE 2027-03-29 20:00 [Europe/Madrid] or SET DEADLINE +24h")
        return Refusal(form, "form")
    zone = match.group("zone") or zone
    problem = schedule.zone_error(zone)
    if problem:
        return Refusal(problem, "zone")
    written = f"{match.group('date')} {match.group('time')}"
    try:
        local = datetime.strptime(written, "%Y-%m-%d %H:%M")
    except ValueError:
        return Refusal(said._(BAD_MOMENT, written=written), "no-such-moment")
    # Compared on the wall clock first, a day either side for the zone's offset: a date near
    # either end of the calendar cannot be moved to UTC at all.
    wall_now = now.astimezone(UTC).replace(tzinfo=None)
    if local < wall_now - timedelta(days=1):
        return Refusal(said._(PASSED), "passed")
    if local > wall_now + limits.AHEAD + timedelta(days=1):
        return _too_far(now)
    wall = schedule.on_the_wall(local, zone)
    if wall.moment <= now:
        return Refusal(said._(PASSED), "passed")
    return _out_of_reach(now, wall.moment - now, now) or Moment(wall.moment, zone, wall.note)


def _out_of_reach(start: datetime, span: timedelta, now: datetime) -> Refusal | None:
    """Why ``start + span`` is too far ahead to be a deadline, if it is (without computing a
    date past the end of the calendar)."""
    last = now + limits.AHEAD
    if start < last and span <= last - start:
        return None
    return _too_far(now)


# limits.AHEAD_TEXT, translated where it is said.
N_("a year")


def _too_far(now: datetime) -> Refusal:
    last = now + limits.AHEAD
    reason = said._(
        "a deadline may be at most %(most)s ahead, until %(last)s UTC",
        most=said._(limits.AHEAD_TEXT),
        last=f"{last:%Y-%m-%d %H:%M}",
    )
    return Refusal(reason, "too-far")


def _move(asked: _Asked, moment: Moment, why: str, reason: str = "") -> Answer:
    """The deadline moved to ``moment``: ``why`` told to the players, with the game master's
    own ``reason`` on record (the archive and the feed show it)."""
    game = asked.game
    if moment.when == game.deadline:
        # A move to where it is would only tell every player of a change there is not.
        text = i18n.shown(moment.when, moment.zone, asked.now, asked.language)
        return False, asked._("the deadline is already %(when)s; nothing was changed", when=text)
    game.deadline = moment.when
    game.deadline_sequence += 1
    text = i18n.shown(moment.when, moment.zone, asked.now, asked.language)
    answer = asked._("deadline now %(when)s", when=text)
    if moment.note:
        answer += f"; {moment.note}"
    if game.status == GameStatus.FORMING:
        # Nobody plays yet: the players read this deadline in the mail that starts the game.
        kept = asked._(
            "; kept for turn 1 once every player has joined (if it has passed by then, "
            "the schedule sets turn 1's deadline)"
        )
        return True, answer + kept
    moved = said._("The deadline has moved (%(why)s).", why=why)
    _announce(asked, moved, "deadline-moved", note=reason)
    return True, answer


def _announce(
    asked: _Asked,
    message: str,
    what: str,
    words: dict[str, Any] | None = None,
    overtaken: reports.Overtaken | None = None,
    note: str = "",
) -> None:
    """Tell every player what the game master did (``notices.announce``)."""
    change = notices.Change(what, message, "gm", asked.now, note, words or {}, overtaken)
    notices.announce(asked.session, asked.runtime, asked.game, change)
