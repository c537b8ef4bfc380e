"""iCalendar entries for deadlines: one that sits in the player's calendar and moves with the
deadline, and the withdrawal of one whose turn was played before its deadline came.

Times are written in the game's zone with its VTIMEZONE, so a calendar shows the entry at the
wall-clock time the schedule names even where the reader's software knows no zone database.
"""

from __future__ import annotations

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


def deadline_event(
    *,
    uid: str,
    sequence: int,
    deadline: datetime,
    summary: str,
    description: str,
    url: str,
    stamp: datetime,
    zone: str = "UTC",
    organizer: str | None = None,
) -> bytes:
    """A VCALENDAR (METHOD:PUBLISH) with one 15-minute VEVENT ending at the deadline.

    The UID is stable per game and turn and SEQUENCE rises each time the deadline moves, so a
    calendar updates the entry it already has instead of adding another. ``organizer`` is the
    service's address; RFC 5546 wants one, and the CANCEL that may follow names the same.
    """
    event = _event(uid, sequence, deadline, zone, summary, organizer, stamp)
    event.add("description", description)
    event.add("url", url)
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", -REMINDER)
    alarm.add("description", summary)
    event.add_component(alarm)
    return _calendar(PUBLISH, event, deadline)


def withdrawal(
    *,
    uid: str,
    sequence: int,
    deadline: datetime,
    summary: str,
    stamp: datetime,
    zone: str = "UTC",
    organizer: str | None = None,
) -> bytes:
    """A VCALENDAR (METHOD:CANCEL) removing the entry ``uid`` from the reader's calendar.

    ``sequence`` must be above every SEQUENCE sent for that UID, or a calendar takes the cancel
    for an old message and keeps the entry. The times are the entry's own, for the calendars
    that match a cancel to an entry by them as well as by UID.
    """
    event = _event(uid, sequence, deadline, zone, summary, organizer, stamp)
    event.add("status", "CANCELLED")
    return _calendar(CANCEL, event, deadline)


def _event(
    uid: str,
    sequence: int,
    deadline: datetime,
    zone: str,
    summary: str,
    organizer: str | None,
    stamp: datetime,
) -> Event:
    local = deadline.astimezone(_zone(zone))
    event = Event()
    event.add("uid", uid)
    event.add("sequence", sequence)
    event.add("dtstamp", stamp.astimezone(UTC))
    event.add("dtstart", local - LENGTH)
    event.add("dtend", local)
    event.add("summary", summary)
    if organizer:
        event.add("organizer", f"mailto:{organizer}")
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
