"""iCalendar entries for deadlines: one that sits in the player's calendar and moves with the
deadline, and the withdrawal of one whose turn was played before its deadline came.

Times are written in the game's zone with its VTIMEZONE, so a calendar shows the entry at the
wall-clock time the schedule names even where the reader's software knows no zone database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar import Alarm, Calendar, Event, Timezone, TimezoneDaylight, TimezoneStandard

PRODID = "-//pbem//adjudicator//EN"
# RFC 5546: an entry sent with PUBLISH has an organizer and no attendees; the organizer may later
# replace it (PUBLISH again, same UID, higher SEQUENCE) or withdraw it (CANCEL, higher SEQUENCE).
PUBLISH = "PUBLISH"
CANCEL = "CANCEL"
# The entry is a short slot ending at the deadline, with a reminder well before it.
LENGTH = timedelta(minutes=15)
REMINDER = timedelta(hours=2)
# How finely a zone's year is searched for its clock changes; each is then found to the second.
# No zone changes its clocks twice within three hours, back and forth.
SCAN = timedelta(hours=3)


@dataclass(frozen=True)
class Entry:
    """A deadline's entry in the player's calendar, as both the PUBLISH that places it and the
    CANCEL that withdraws it name it: the UID stays put while SEQUENCE rises with each message.
    ``organizer`` is the service's address; RFC 5546 wants one, the same in both."""

    uid: str
    sequence: int
    deadline: datetime
    summary: str
    zone: str = "UTC"
    organizer: str | None = None


def deadline_event(entry: Entry, *, description: str, url: str, stamp: datetime) -> bytes:
    """A VCALENDAR (METHOD:PUBLISH) with one 15-minute VEVENT ending at the deadline.

    The UID is stable per game and turn and SEQUENCE rises each time the deadline moves, so a
    calendar updates the entry it already has instead of adding another.
    """
    event = _event(entry, stamp)
    event.add("description", description)
    event.add("url", url)
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -REMINDER)
    alarm.add("description", entry.summary)
    event.add_component(alarm)
    return _calendar(PUBLISH, event, entry)


def withdrawal(entry: Entry, *, stamp: datetime) -> bytes:
    """A VCALENDAR (METHOD:CANCEL) removing ``entry`` from the reader's calendar.

    Its ``sequence`` must be above every SEQUENCE sent for that UID, or a calendar takes the
    cancel for an old message and keeps the entry. The times are the entry's own, for the
    calendars that match a cancel to an entry by them as well as by UID.
    """
    event = _event(entry, stamp)
    event.add("status", "CANCELLED")
    return _calendar(CANCEL, event, entry)


def _event(entry: Entry, stamp: datetime) -> Event:
    zone = _zone(entry.zone)
    event = Event()
    event.add("uid", entry.uid)
    event.add("sequence", entry.sequence)
    event.add("dtstamp", stamp.astimezone(UTC))
    # Subtracted in UTC: an aware datetime's own arithmetic is on the wall clock, which across a
    # clock change names a time that never was (or an hour off).
    event.add("dtstart", (entry.deadline - LENGTH).astimezone(zone))
    event.add("dtend", entry.deadline.astimezone(zone))
    event.add("summary", entry.summary)
    if entry.organizer:
        event.add("organizer", f"mailto:{entry.organizer}")
    return event


def _zone(name: str) -> tzinfo:
    """The game's zone; one that no longer loads (validated when set, but the zone database may
    change under a stored game) falls back to UTC, which is still the right moment."""
    if name == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def _calendar(method: str, event: Event, entry: Entry) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", method)
    zone = _zone(entry.zone)
    if isinstance(zone, ZoneInfo):
        # The zone's rules for the deadline's years only: the whole zone history would be long,
        # and an entry never reaches outside them (deadlines are bounded ahead, limits.AHEAD).
        start = (entry.deadline - LENGTH - REMINDER - timedelta(days=1)).year
        end = (entry.deadline + timedelta(days=1)).year + 1
        calendar.add_component(vtimezone(zone.key, start, end))
    calendar.add_component(event)
    return bytes(calendar.to_ical())


@dataclass(frozen=True)
class _Observance:
    """A zone's clock at one moment: its offset from UTC, whether that is summer time, its name."""

    offset: timedelta
    daylight: bool
    name: str


def _observed(zone: ZoneInfo, instant: datetime) -> _Observance:
    local = instant.astimezone(zone)
    offset, dst = local.utcoffset(), local.dst()
    assert offset is not None  # a ZoneInfo always knows both
    return _Observance(offset, bool(dst), local.tzname() or "")


def _changes(
    zone: ZoneInfo, first: datetime, last: datetime
) -> list[tuple[datetime, _Observance, _Observance]]:
    """Every clock change of ``zone`` from ``first`` to ``last`` (UTC instants): its instant,
    the observance before it and the one from it on."""
    found = []
    moment, before = first, _observed(zone, first)
    while moment < last:
        step = min(moment + SCAN, last)
        after = _observed(zone, step)
        if after != before:
            low, high = moment, step  # the change is after low, at or before high
            while high - low > timedelta(seconds=1):
                middle = low + (high - low) / 2
                if _observed(zone, middle) == before:
                    low = middle
                else:
                    high = middle
            high = high.replace(microsecond=0)  # zones change on whole seconds
            found.append((high, before, _observed(zone, high)))
            before = _observed(zone, high)
            step = high
        moment = step
    return found


def vtimezone(name: str, start: int, end: int) -> Timezone:
    """The VTIMEZONE of zone ``name`` from 1 January of ``start`` to 1 January of ``end``: the
    observance in force at the start, then one per clock change.

    RFC 5545 reads an onset's DTSTART as local time in the offset in force before it
    (TZOFFSETFROM): Madrid's spring change, at 01:00 UTC, is 02:00 there, though clocks then
    show 03:00. Written from the change's instant, not from the wall clock after it."""
    timezone = Timezone()
    timezone.add("tzid", name)
    for instant, before, after in _onsets(name, start, end):
        timezone.add_component(_onset(instant, before, after))
    return timezone


@lru_cache(maxsize=64)
def _onsets(
    name: str, start: int, end: int
) -> tuple[tuple[datetime, _Observance, _Observance], ...]:
    """The observance in force on 1 January of ``start`` (from and to the same), then every
    clock change until 1 January of ``end``; searched once per process and zone's years."""
    zone = ZoneInfo(name)
    first = datetime(start, 1, 1, tzinfo=zone).astimezone(UTC)
    last = datetime(end, 1, 1, tzinfo=zone).astimezone(UTC)
    opening = _observed(zone, first)
    return ((first, opening, opening), *_changes(zone, first, last))


def _onset(
    instant: datetime, before: _Observance, after: _Observance
) -> TimezoneDaylight | TimezoneStandard:
    part = TimezoneDaylight() if after.daylight else TimezoneStandard()
    part.add("dtstart", (instant + before.offset).replace(tzinfo=None))
    part.add("tzoffsetfrom", before.offset)
    part.add("tzoffsetto", after.offset)
    if after.name:
        part.add("tzname", after.name)
    return part
