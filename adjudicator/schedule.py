"""Deadlines: a duration per turn or fixed weekly slots in a named time zone, DST-safe.

Pure: every function takes "now" as an argument. Times are stored and compared in UTC; wall-clock
slots are resolved in their zone with zoneinfo. A slot that falls in a skipped hour (the spring
change) moves forward by the gap, as the wall clock does; a slot in a repeated hour (autumn) is
its first occurrence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from adjudicator import limits
from adjudicator.core.refusal import Refusal

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DURATION = re.compile(r"^\s*(\d+)\s*(m|min|h|hours?|d|days?)\s*$", re.IGNORECASE)
ZONE_NAME = r"[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*"
SLOTS = re.compile(
    r"^\s*(?P<days>[a-z]{3}(?:\s*,\s*[a-z]{3})*)\s+(?P<hour>\d{1,2}):(?P<minute>\d{2})"
    rf"(?:\s+(?P<zone>{ZONE_NAME}))?\s*$",
    re.IGNORECASE,
)
# "48h Europe/Madrid": a length per turn and the zone its deadlines are told in. The zone does
# not move an interval's deadlines; it is written there because game masters write it there.
LENGTH_IN_ZONE = re.compile(
    rf"^\s*(?P<length>\d+\s*(?:m|min|h|hours?|d|days?))\s+(?P<zone>{ZONE_NAME})\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Every:
    """A fixed time per turn, counted from when the turn opens."""

    length: timedelta

    def text(self) -> str:
        hours = self.length.total_seconds() / 3600
        return f"{hours:g} h per turn"


@dataclass(frozen=True)
class Slots:
    """Weekly wall-clock deadlines, e.g. Mon and Thu at 20:00 Europe/Madrid."""

    weekdays: tuple[int, ...]  # 0 = Monday
    at: time
    zone: str
    minimum: timedelta = timedelta(hours=12)  # a turn is never shorter than this

    def text(self) -> str:
        days = ", ".join(DAYS[day].capitalize() for day in self.weekdays)
        return f"{days} {self.at:%H:%M} {self.zone}"


Schedule = Every | Slots


# The code of every refusal of a schedule that is not one.
BAD = "bad-schedule"


def parse(text: str, default_zone: str = "UTC") -> Schedule | Refusal:
    """A schedule from a game master's words, or a refusal saying what is wrong."""
    in_zone = LENGTH_IN_ZONE.match(text)
    if in_zone:
        problem = zone_error(in_zone.group("zone"))
        if problem:
            return Refusal(problem, BAD)
        text = in_zone.group("length")
    span = length(text)
    if isinstance(span, timedelta):
        if span < timedelta(minutes=5):
            return Refusal("a turn must last at least 5 minutes", BAD)
        return Every(span)
    if isinstance(span, Refusal):
        return span
    slots = SLOTS.match(text)
    if not slots:
        example = "'48h', '3d' or 'Mon, Thu 20:00 Europe/Madrid'"
        return Refusal(f"{text!r} is not a schedule: write e.g. {example}", BAD)
    weekdays = []
    for day in re.split(r"\s*,\s*", slots.group("days").lower()):
        if day not in DAYS:
            return Refusal(f"{day!r} is not a day; use {', '.join(DAYS)}", BAD)
        weekdays.append(DAYS.index(day))
    hour, minute = int(slots.group("hour")), int(slots.group("minute"))
    if hour > 23 or minute > 59:
        return Refusal(f"{hour:02}:{minute:02} is not a time of day", BAD)
    zone = slots.group("zone") or default_zone
    problem = zone_error(zone)
    if problem:
        return Refusal(problem, BAD)
    return Slots(tuple(sorted(set(weekdays))), time(hour, minute), zone)


def named_zone(text: str) -> str | None:
    """The time zone a schedule's words name ("Mon, Thu 20:00 Europe/Madrid", "48h UTC"), as
    written; None when they name none. It becomes the game's zone unless TIMEZONE says otherwise,
    as a game master who writes a zone once means it for the whole game."""
    found = SLOTS.match(text) or LENGTH_IN_ZONE.match(text)
    zone = found.group("zone") if found else None
    return zone or None


def length(text: str) -> timedelta | Refusal | None:
    """A length such as 48h, 90m or 3d; a refusal when it is longer than a deadline may lie
    ahead (limits.AHEAD); None when the text is no length at all."""
    duration = DURATION.match(text)
    if not duration:
        return None
    digits, unit = duration.group(1), duration.group(2).lower()
    per = {"m": 1, "h": 60, "d": 1440}[unit[0]]
    most = limits.AHEAD.days * 1440
    # Too many digits are refused unread: they are no length, and would overflow a date.
    if len(digits.lstrip("0")) > limits.DIGITS or int(digits) * per > most:
        shown_text = "".join(text.split())
        most_text = f"at most {limits.AHEAD.days} days ({limits.AHEAD_TEXT})"
        return Refusal(f"{shown_text} is too long: {most_text}", "too-long")
    return timedelta(minutes=int(digits) * per)


# Files in the zone database that name no place's clock: "right/" zones count leap seconds (so
# their times are some seconds off), "posix/" ones are copies, "localtime" is this machine's own
# zone and "Factory" a placeholder. ZoneInfo loads them all, so they are refused by name.
NOT_PLACES = ("localtime", "Factory", "posixrules")
NOT_PLACES_PREFIXES = ("right/", "posix/")


@cache
def zones() -> frozenset[str]:
    """The zone names a game or a player may use."""
    return frozenset(
        name
        for name in available_timezones()
        if name not in NOT_PLACES and not name.startswith(NOT_PLACES_PREFIXES)
    )


def zone_error(zone: str) -> str | None:
    if zone in zones():
        try:
            ZoneInfo(zone)
            return None
        except (ZoneInfoNotFoundError, ValueError):
            pass
    problem = f"{zone!r} is not a time zone name (e.g. Europe/Madrid, America/New_York, UTC)"
    same = [name for name in zones() if name.lower() == zone.lower()]
    return f"{problem}; did you mean {same[0]}?" if same else problem


@dataclass(frozen=True)
class Wall:
    """A wall-clock time read in its zone: the instant, and a sentence when the clocks skip or
    repeat that time on that day (empty otherwise)."""

    moment: datetime  # UTC
    note: str = ""


def on_the_wall(local: datetime, zone: str) -> Wall:
    """The instant a naive wall-clock time means in ``zone``, read as the weekly slots are: a
    time the spring change skips moves forward by the gap, a repeated autumn time is its first
    occurrence."""
    tz = ZoneInfo(zone)
    first = local.replace(tzinfo=tz, fold=0)
    moment = first.astimezone(UTC)
    on_clock = moment.astimezone(tz)
    if on_clock.replace(tzinfo=None) != local:
        return Wall(
            moment,
            f"{local:%H:%M} does not exist on {local:%d %b} in {zone}, as the clocks go forward; "
            f"it was moved forward to {on_clock:%H:%M} {on_clock.tzname()}",
        )
    if first.utcoffset() != local.replace(tzinfo=tz, fold=1).utcoffset():
        return Wall(
            moment,
            f"{local:%H:%M} happens twice on {local:%d %b} in {zone}, as the clocks go back; "
            f"the first one counts ({first:%H:%M} {first.tzname()})",
        )
    return Wall(moment)


def next_deadline(schedule: Schedule, opened: datetime) -> datetime:
    """The deadline of a turn that opens at ``opened`` (UTC in, UTC out)."""
    if opened.tzinfo is None:
        raise ValueError("opened must be timezone-aware")
    if isinstance(schedule, Every):
        return (opened + schedule.length).astimezone(UTC)
    zone = ZoneInfo(schedule.zone)
    earliest = opened + schedule.minimum
    local_day = earliest.astimezone(zone).date()
    for offset in range(0, 15):
        day = local_day + timedelta(days=offset)
        if day.weekday() not in schedule.weekdays:
            continue
        # Wall time in the zone; a time in a skipped hour comes out one gap later in UTC.
        wall = datetime.combine(day, schedule.at, tzinfo=zone)
        candidate = wall.astimezone(UTC)
        if candidate >= earliest:
            return candidate
    raise AssertionError("a weekly schedule always has a slot within two weeks")


def shown(moment: datetime, zone: str, now: datetime) -> str:
    """A deadline as a reader wants it: their zone, UTC, and how long from now."""
    local = moment.astimezone(ZoneInfo(zone))
    utc = moment.astimezone(UTC)
    local_text = f"{local:%a %d %b %Y %H:%M} {local.tzname()}"
    if zone == "UTC":
        return f"{local_text} ({relative(moment, now)})"
    # The UTC time alone would be read on the local date, which is not always its own.
    utc_text = f"{utc:%H:%M}" if utc.date() == local.date() else f"{utc:%a %d %b %H:%M}"
    return f"{local_text} = {utc_text} UTC ({relative(moment, now)})"


# Between a number and its unit ("38 h"): a line may break anywhere else, never there, so a
# narrow phone never shows "in 38" on one line and "h" on the next.
NO_BREAK = "\u00a0"


def relative(moment: datetime, now: datetime) -> str:
    """How far ``moment`` is from ``now`` ("in 38 h", "2 days ago"), the number and its unit
    held together by a no-break space."""
    seconds = (moment - now).total_seconds()
    past = seconds < 0
    seconds = abs(seconds)
    if seconds < 90 * 60:
        amount = f"{max(1, round(seconds / 60))}{NO_BREAK}min"
    elif seconds < 72 * 3600:
        amount = f"{round(seconds / 3600)}{NO_BREAK}h"
    else:
        amount = f"{round(seconds / 86400)}{NO_BREAK}days"
    return f"{amount} ago" if past else f"in {amount}"
