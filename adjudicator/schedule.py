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
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DURATION = re.compile(r"^\s*(\d+)\s*(m|min|h|hours?|d|days?)\s*$", re.IGNORECASE)
SLOTS = re.compile(
    r"^\s*(?P<days>[a-z]{3}(?:\s*,\s*[a-z]{3})*)\s+(?P<hour>\d{1,2}):(?P<minute>\d{2})"
    r"(?:\s+(?P<zone>[A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*))?\s*$",
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


def parse(text: str, default_zone: str = "UTC") -> Schedule | str:
    """A schedule from a game master's words, or a sentence saying what is wrong."""
    duration = DURATION.match(text)
    if duration:
        amount, unit = int(duration.group(1)), duration.group(2).lower()
        minutes = amount * {"m": 1, "h": 60, "d": 1440}[unit[0]]
        if minutes < 5:
            return "a turn must last at least 5 minutes"
        return Every(timedelta(minutes=minutes))
    slots = SLOTS.match(text)
    if not slots:
        example = "'48h', '3d' or 'Mon, Thu 20:00 Europe/Madrid'"
        return f"{text!r} is not a schedule: write e.g. {example}"
    weekdays = []
    for day in re.split(r"\s*,\s*", slots.group("days").lower()):
        if day not in DAYS:
            return f"{day!r} is not a day; use {', '.join(DAYS)}"
        weekdays.append(DAYS.index(day))
    hour, minute = int(slots.group("hour")), int(slots.group("minute"))
    if hour > 23 or minute > 59:
        return f"{hour:02}:{minute:02} is not a time of day"
    zone = slots.group("zone") or default_zone
    problem = zone_error(zone)
    if problem:
        return problem
    return Slots(tuple(sorted(set(weekdays))), time(hour, minute), zone)


def zone_error(zone: str) -> str | None:
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return f"{zone!r} is not a time zone name (e.g. Europe/Madrid, America/New_York, UTC)"
    return None


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
    return f"{local_text} = {utc:%H:%M} UTC ({relative(moment, now)})"


def relative(moment: datetime, now: datetime) -> str:
    seconds = (moment - now).total_seconds()
    past = seconds < 0
    seconds = abs(seconds)
    if seconds < 90 * 60:
        amount = f"{max(1, round(seconds / 60))} min"
    elif seconds < 72 * 3600:
        amount = f"{round(seconds / 3600)} h"
    else:
        amount = f"{round(seconds / 86400)} days"
    return f"{amount} ago" if past else f"in {amount}"
