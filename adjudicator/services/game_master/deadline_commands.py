"""The game master's deadline commands, SET DEADLINE and EXTEND: the moment a new deadline names,
read as the game master wrote it (``+24h`` from now, or a date and time on the wall clock of a
zone), how far ahead any deadline may be (a moment that has passed, does not exist or is out of
reach is refused with why), and the deadline moved, with every player told why."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from adjudicator import i18n, limits, schedule
from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.i18n import N_
from adjudicator.services.game_master.command_line import Answer, Asked, announce
from adjudicator.statuses import GameStatus

WHEN = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})[ T](?P<time>\d{1,2}:\d{2})(?:\s+(?P<zone>\S+))?$")


@dataclass(frozen=True)
class Moment:
    """A new deadline, the zone its answer is shown in, and what the game master must be told
    about how a wall-clock time was read (a time the clocks skip or repeat)."""

    when: datetime
    zone: str
    note: str = ""


# The refusals' sentences, made with core.said so that the answer writes them in the game
# master's language (``gm.run``).
PASSED = N_("that moment has already passed; use PROCESS NOW to process at once")
BAD_MOMENT = N_(
    "%(written)s is not a date and time: write the year, month and day that exist, and a time "
    "from 00:00 to 23:59, e.g. 2027-03-29 20:00"
)


def read(argument: str, zone: str, now: datetime) -> Moment | Refusal:
    """The deadline SET DEADLINE names: ``+24h`` from now, or a date and time on the wall clock
    of the zone it names (the game's own by default)."""
    if argument.startswith("+"):
        span = schedule.length(argument[1:])
        if isinstance(span, timedelta):
            if span <= timedelta(0):
                return Refusal(said._(PASSED), "passed")
            return out_of_reach(now, span, now) or Moment(now + span, zone)
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
    return out_of_reach(now, wall.moment - now, now) or Moment(wall.moment, zone, wall.note)


def out_of_reach(start: datetime, span: timedelta, now: datetime) -> Refusal | None:
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


def set_deadline(asked: Asked) -> Answer:
    when = read(asked.argument, asked.game.timezone, asked.now)
    if isinstance(when, Refusal):
        return False, when.reason
    return _move(asked, when, said._("set by the game master"))


# EXTEND's length, then the game master's reason for the players, if any: "EXTEND 24h Luis is
# travelling". The longer units first, so "24hours" is not read as "24h" and "ours".
_LENGTH_THEN = re.compile(r"^(\d+\s*(?:min|m|hours?|h|days?|d))(?:\s+(.*))?$", re.IGNORECASE)


def extend(asked: Asked) -> Answer:
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
    problem = out_of_reach(game.deadline, span, asked.now)
    if problem is not None:
        return False, problem.reason
    reason = limits.reason(written.group(2) or "")
    why = said._("extended: %(reason)s", reason=reason) if reason else said._("extended")
    return _move(asked, Moment(game.deadline + span, game.timezone), why, reason)


def _move(asked: Asked, moment: Moment, why: str, reason: str = "") -> Answer:
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
    announce(asked, moved, "deadline-moved", note=reason)
    return True, answer
