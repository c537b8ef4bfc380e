"""Game-master commands, by mail or CLI: move deadlines, pause, force, replace a player, end.

Every command is one line; each returns its result as a sentence for the game master, and every
change players must know of is announced to them with the reason, so deadlines never move
silently. ``COMMANDS`` maps each command word to its handler, in the order the commands are listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import limits, schedule
from adjudicator.core.refusal import Refusal
from adjudicator.mail import addresses
from adjudicator.models import Game
from adjudicator.services import commands, lifecycle, panel_links, play, reports
from adjudicator.services.runtime import Runtime, Task
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
    for number, line in enumerate(lines):
        text = " ".join(line.split())
        if not text:
            continue
        upper = text.upper()
        word = next((w for w in WORDS if upper == w or upper.startswith(w + " ")), None)
        if word is None:
            results.append(_unknown(text))
            continue
        argument = text[len(word) :].strip()
        asked = _Asked(session, runtime, game, argument, f"{key}:{number}", now)
        done, message = _command(asked, word)
        results.append(Result(text, done, message))
    return results


def _unknown(text: str) -> Result:
    """A line that is no game-master command: a slip gets a suggestion, chatter is ignored."""
    first, *rest = text.split()
    if first.upper() == "HELP" and not rest:
        return Result(text, True, "the game-master commands are listed below")
    heads = {w.split()[0]: w for w in WORDS}
    close = commands.closest(first.strip(".!?:;,"), list(heads))
    if close is not None:
        meant = heads[close] + (" " + " ".join(rest) if rest and " " not in heads[close] else "")
        hint = f"not a game-master command; did you mean {meant}?"
        return Result(text, False, hint, "not-understood")
    if text.isupper() and len(rest) < 3:
        # Capitals on a short line read as a command, so it is answered as one not understood.
        known = ", ".join(WORDS)
        return Result(text, False, f"not a game-master command; known: {known}", "not-understood")
    return Result(text, False, "not a game-master command", "ignored")


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
        return False, f"game {game.id} is {game.status}; nothing can change"
    return command.handler(asked)


def _status(asked: _Asked) -> Answer:
    game = asked.game
    state = "paused" if game.paused else game.status
    due = f", due {game.deadline:%Y-%m-%d %H:%M} UTC" if game.deadline else ""
    dkim = "; orders only from mail with a valid DKIM signature" if game.require_dkim else ""
    return True, f"game {game.id} is {state}{due}{dkim}"


def _panel(asked: _Asked) -> Answer:
    """A login link for the web panel. The answer goes only to the game master's own address
    (the mail path has checked the sender), so asking for a link in someone else's name just
    mails the game master a link; the hourly limit keeps that from flooding them."""
    issued = panel_links.issue(asked.session, asked.runtime, asked.game, asked.now)
    if isinstance(issued, panel_links.TooMany):
        return False, f"too many links requested, try again in {issued.minutes} min"
    if isinstance(issued, Refusal):
        return False, issued.reason
    return True, (
        f"open {issued.url} within {issued.hours} h to run the game on the web; the link works once"
    )


def _set_deadline(asked: _Asked) -> Answer:
    when = _moment(asked.argument, asked.game.timezone, asked.now)
    if isinstance(when, Refusal):
        return False, when.reason
    return _move(asked, when, "set by the game master")


def _extend(asked: _Asked) -> Answer:
    game = asked.game
    span = schedule.length(asked.argument)
    if span is None:
        return False, "EXTEND takes a length such as 24h, 90m or 2d"
    if isinstance(span, Refusal):
        return False, span.reason
    if game.deadline is None:
        return False, "the game has no deadline to extend"
    problem = _out_of_reach(game.deadline, span, asked.now)
    if problem is not None:
        return False, problem.reason
    return _move(asked, Moment(game.deadline + span, game.timezone), "extended")


def _pause(asked: _Asked) -> Answer:
    if asked.game.paused:
        return False, "the game is already paused"
    asked.game.paused = True
    _announce(
        asked,
        "The game master has paused the game: no turn "
        "is processed until it is resumed. Your orders on file stay.",
        "paused",
    )
    return True, "paused"


def _resume(asked: _Asked) -> Answer:
    game = asked.game
    if not game.paused:
        return False, "the game is not paused"
    game.paused = False
    moved = ""
    if game.deadline is not None and game.deadline <= asked.now:
        lifecycle.open_deadline(game, asked.now)  # the old deadline passed while paused
        moved = " with a new deadline"
    _announce(asked, f"The game master has resumed the game{moved}.", "resumed")
    return True, "resumed" + moved


def _process_now(asked: _Asked) -> Answer:
    game = asked.game
    if game.status != GameStatus.ACTIVE:
        return False, "the game has not started"
    # Recorded, not only queued: a task lost with its queue (a console's own, or the broker's)
    # is queued again by the tick, which sees the turn is forced.
    game.forced_at = game.forced_at or asked.now
    asked.runtime.later(asked.session, Task.ADJUDICATE, game.id)
    return True, "the turn will be processed at once, with defaults for missing orders"


def _rollback(asked: _Asked) -> Answer:
    """Undo the last turn: it stays on record, marked; the turn is played again from before it.

    Its number (and so its chance stream) is reused, so the same orders meet the same dice: a
    rollback can correct a mistake but never re-roll one."""
    session, game, reason, now = asked.session, asked.game, asked.argument, asked.now
    if game.status != GameStatus.ACTIVE:
        return False, "the game has not started"
    turn = play.latest_turn(session, game.id)
    if turn.number == 0:
        return False, "no turn has been played yet"
    # The turn after it is not due any more (the rolled-back turn is, under its own entry).
    stale = reports.overtaken(game, turn.number + 1, now)
    turn.rolled_back_at = now
    turn.rollback_note = reason or "no reason given"
    session.flush()
    lifecycle.open_deadline(game, now)
    why = f" ({reason})" if reason else ""
    _announce(
        asked,
        f"The game master has rolled back turn {turn.number}"
        f"{why}. The position is as it was before it; the orders you had on file for turn "
        f"{turn.number} stay, and you may change them until the new deadline.",
        "rolled-back",
        {"turn": turn.number},
        overtaken=stale,
    )
    return True, f"turn {turn.number} rolled back; it will be played again"


def _replace(asked: _Asked) -> Answer:
    game = asked.game
    parts = asked.argument.split()
    if len(parts) != 2 or not addresses.single(parts[1]):
        return False, "write REPLACE <seat> <address>"
    seat = next((s for s in game.seats if s.seat == parts[0].lower()), None)
    if seat is None:
        return False, f"no seat {parts[0]!r}; seats: {', '.join(s.seat for s in game.seats)}"
    old = seat.player.address
    seat.player = play.player_for(asked.session, parts[1].lower())
    # A new key version: the old player's reply address stops working.
    seat.key_version += 1
    asked.session.flush()
    title = play.seat_title(game, seat.seat)
    _announce(
        asked,
        f"{title} is now played by {seat.player.address} (replacing {old}).",
        "replaced",
        {"seat": title},
    )
    return True, f"{title}: {old} replaced by {seat.player.address}"


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
        "The game master has ended the game. The seed is "
        "revealed below so every card and die can be checked.",
        "over",
        overtaken=stale,
    )
    return True, "ended; the seed is revealed to the players"


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


PASSED = "that moment has already passed; use PROCESS NOW to process at once"
BAD_MOMENT = (
    "is not a date and time: write the year, month and day that exist, and a time from 00:00 "
    "to 23:59, e.g. 2027-03-29 20:00"
)


def _moment(argument: str, zone: str, now: datetime) -> Moment | Refusal:
    """The deadline SET DEADLINE names: ``+24h`` from now, or a date and time on the wall clock
    of the zone it names (the game's own by default)."""
    if argument.startswith("+"):
        span = schedule.length(argument[1:])
        if isinstance(span, timedelta):
            if span <= timedelta(0):
                return Refusal(PASSED, "passed")
            return _out_of_reach(now, span, now) or Moment(now + span, zone)
        if isinstance(span, Refusal):
            return span
    match = WHEN.match(argument)
    if not match:
        form = "write SET DEADLINE 2027-03-29 20:00 [Europe/Madrid] or SET DEADLINE +24h"
        return Refusal(form, "form")
    zone = match.group("zone") or zone
    problem = schedule.zone_error(zone)
    if problem:
        return Refusal(problem, "zone")
    written = f"{match.group('date')} {match.group('time')}"
    try:
        local = datetime.strptime(written, "%Y-%m-%d %H:%M")
    except ValueError:
        return Refusal(f"{written} {BAD_MOMENT}", "no-such-moment")
    # Compared on the wall clock first, a day either side for the zone's offset: a date near
    # either end of the calendar cannot be moved to UTC at all.
    wall_now = now.astimezone(UTC).replace(tzinfo=None)
    if local < wall_now - timedelta(days=1):
        return Refusal(PASSED, "passed")
    if local > wall_now + limits.AHEAD + timedelta(days=1):
        return _too_far(now)
    wall = schedule.on_the_wall(local, zone)
    if wall.moment <= now:
        return Refusal(PASSED, "passed")
    return _out_of_reach(now, wall.moment - now, now) or Moment(wall.moment, zone, wall.note)


def _out_of_reach(start: datetime, span: timedelta, now: datetime) -> Refusal | None:
    """Why ``start + span`` is too far ahead to be a deadline, if it is (without computing a
    date past the end of the calendar)."""
    last = now + limits.AHEAD
    if start < last and span <= last - start:
        return None
    return _too_far(now)


def _too_far(now: datetime) -> Refusal:
    last = now + limits.AHEAD
    reason = f"a deadline may be at most {limits.AHEAD_TEXT} ahead, until {last:%Y-%m-%d %H:%M} UTC"
    return Refusal(reason, "too-far")


def _move(asked: _Asked, moment: Moment, why: str) -> Answer:
    game = asked.game
    game.deadline = moment.when
    game.deadline_sequence += 1
    text = schedule.shown(moment.when, moment.zone, asked.now)
    note = f"; {moment.note}" if moment.note else ""
    if game.status == GameStatus.FORMING:
        # Nobody plays yet: the players read this deadline in the mail that starts the game.
        kept = (
            "; kept for turn 1 once every player has joined (if it has passed by then, "
            "the schedule sets turn 1's deadline)"
        )
        return True, f"deadline now {text}{note}{kept}"
    _announce(asked, f"The deadline has moved ({why}).", "deadline-moved")
    return True, f"deadline now {text}{note}"


def _announce(
    asked: _Asked,
    message: str,
    what: str,
    words: dict[str, Any] | None = None,
    overtaken: reports.Overtaken | None = None,
) -> None:
    """Tell every player what the game master did; ``what`` names it in the subject."""
    notice = reports.SeatLetter(
        key=f"{asked.key}:notice",
        kind="notice",
        template="notice",
        what=what,
        extra={"message": message},
        words=words or {},
        map=what in _SHOWS_MAP,
    )
    reports.mail_all_seats(asked.session, asked.runtime, asked.game, notice, overtaken)


# The notices that carry the map: a rollback changes the position, a new player has never seen
# it, and the game's end shows it last; the others (pause, deadline) change nothing on the board.
_SHOWS_MAP = frozenset({"rolled-back", "replaced", "over"})
