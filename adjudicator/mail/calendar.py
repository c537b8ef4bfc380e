"""iCalendar entries for deadlines: one that sits in the player's calendar and moves with the
deadline, and the withdrawal of one whose turn was played before its deadline came.

Times are written in the game's zone with its VTIMEZONE, so a calendar shows the entry at the
wall-clock time the schedule names even where the reader's software knows no zone database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar import Alarm, Calendar, Event

PRODID = "-//pbem//adjudicator//EN"
# RFC 5546: an entry sent with PUBLISH has an organizer and no attendees; the organizer may later
# replace it (PUBLISH again, same UID, higher SEQUENCE) or withdraw it (CANCEL, higher SEQUENCE).
PUBLISH = "PUBLISH"
CANCEL = "CANCEL"
# The entry is a short slot ending at the deadline, with a reminder well before it.
LENGTH = timedelta(minutes=15)
REMINDER = timedelta(hours=2)


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
    return _calendar(PUBLISH, event, entry.deadline)


def withdrawal(entry: Entry, *, stamp: datetime) -> bytes:
    """A VCALENDAR (METHOD:CANCEL) removing ``entry`` from the reader's calendar.

    Its ``sequence`` must be above every SEQUENCE sent for that UID, or a calendar takes the
    cancel for an old message and keeps the entry. The times are the entry's own, for the
    calendars that match a cancel to an entry by them as well as by UID.
    """
    event = _event(entry, stamp)
    event.add("status", "CANCELLED")
    return _calendar(CANCEL, event, entry.deadline)


def _event(entry: Entry, stamp: datetime) -> Event:
    local = entry.deadline.astimezone(_zone(entry.zone))
    event = Event()
    event.add("uid", entry.uid)
    event.add("sequence", entry.sequence)
    event.add("dtstamp", stamp.astimezone(UTC))
    event.add("dtstart", local - LENGTH)
    event.add("dtend", local)
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


def _calendar(method: str, event: Event, deadline: datetime) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", method)
    calendar.add_component(event)
    # The zone's rules for the deadline's years only: the whole zone history would be long, and
    # an entry never reaches outside them (deadlines are bounded ahead, limits.AHEAD).
    start = (deadline - LENGTH - REMINDER - timedelta(days=1)).year
    end = (deadline + timedelta(days=1)).year + 1
    calendar.add_missing_timezones(first_date=date(start, 1, 1), last_date=date(end, 1, 1))
    return bytes(calendar.to_ical())
