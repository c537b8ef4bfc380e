"""The time-zone definitions a deadline's calendar entry carries, read as RFC 5545 says and
without the library that writes them: each onset's DTSTART is local time in the offset in force
before it (TZOFFSETFROM), so DTSTART − TZOFFSETFROM must be the instant the zone's clocks really
change, for both changes of the year, an hour's, half an hour's or 45 minutes' past the hour; and
the entry's own times, resolved through those definitions, must be the deadline."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from adjudicator.mail.calendar import LENGTH, Entry, deadline_event

STAMP = datetime(2026, 12, 1, tzinfo=UTC)
# Each zone with a deadline just after its spring change (the clocks jump forward), in UTC.
SPRING = {
    "Europe/Madrid": datetime(2027, 3, 28, 1, 10, tzinfo=UTC),  # 02:00 CET -> 03:00 CEST
    "America/New_York": datetime(2027, 3, 14, 7, 5, tzinfo=UTC),  # 02:00 EST -> 03:00 EDT
    "Australia/Lord_Howe": datetime(2027, 10, 2, 15, 35, tzinfo=UTC),  # 02:00 -> 02:30
    "Pacific/Chatham": datetime(2027, 9, 25, 14, 5, tzinfo=UTC),  # 02:45 -> 03:45
    "Asia/Tokyo": datetime(2027, 3, 28, 1, 10, tzinfo=UTC),  # no summer time at all
}


@dataclass(frozen=True)
class Onset:
    kind: str  # STANDARD or DAYLIGHT
    start: datetime  # DTSTART as written: a local time, no zone
    offset_from: timedelta
    offset_to: timedelta

    @property
    def instant(self) -> datetime:
        """RFC 5545 3.6.5: the onset's DTSTART is local time in TZOFFSETFROM."""
        return (self.start - self.offset_from).replace(tzinfo=UTC)


def unfolded(text: str) -> list[str]:
    return re.sub(r"\r\n[ \t]", "", text).split("\r\n")


def offset(text: str) -> timedelta:
    sign = -1 if text[0] == "-" else 1
    hours, minutes, seconds = int(text[1:3]), int(text[3:5]), int(text[5:7] or 0)
    return sign * timedelta(hours=hours, minutes=minutes, seconds=seconds)


def local(text: str) -> datetime:
    return datetime.strptime(text, "%Y%m%dT%H%M%S")


def read(text: str) -> tuple[str, list[Onset], dict[str, tuple[str, str]]]:
    """The VTIMEZONE's TZID and onsets (RDATEs too), and the VEVENT's DTSTART and DTEND as
    (TZID, local time) pairs."""
    zone, onsets, times = "", [], {}
    part: dict[str, list[str]] | None = None
    inside = ""
    for line in unfolded(text):
        name, _, value = line.partition(":")
        if line in ("BEGIN:STANDARD", "BEGIN:DAYLIGHT"):
            part, inside = {}, value
        elif line in ("END:STANDARD", "END:DAYLIGHT"):
            assert part is not None
            starts = part["DTSTART"] + [d for r in part.get("RDATE", []) for d in r.split(",")]
            for start in starts:
                onsets.append(
                    Onset(
                        inside,
                        local(start),
                        offset(part["TZOFFSETFROM"][0]),
                        offset(part["TZOFFSETTO"][0]),
                    )
                )
            part = None
        elif part is not None:
            part.setdefault(name.split(";")[0], []).append(value)
        elif name == "TZID":
            zone = value
        elif name.startswith(("DTSTART;TZID=", "DTEND;TZID=")):
            key, _, tzid = name.partition(";TZID=")
            times[key] = (tzid, value)
    return zone, sorted(onsets, key=lambda onset: onset.instant), times


def resolved(onsets: list[Onset], wall: datetime) -> datetime:
    """A local time of the zone as the definitions say: the latest onset whose observance holds
    at the instant it gives."""
    candidates = [
        wall - onset.offset_to
        for onset in onsets
        if onset.instant <= (wall - onset.offset_to).replace(tzinfo=UTC)
    ]
    return candidates[-1].replace(tzinfo=UTC)


def real_changes(zone: ZoneInfo, first: datetime, last: datetime) -> list[datetime]:
    """The hours in which ``zone``'s offset changes, as zoneinfo has it."""
    hours, moment = [], first
    while moment < last:
        later = moment + timedelta(hours=1)
        if moment.astimezone(zone).utcoffset() != later.astimezone(zone).utcoffset():
            hours.append(later)
        moment = later
    return hours


@pytest.mark.parametrize("name", sorted(SPRING))
def test_every_onset_is_the_zones_real_change(name: str) -> None:
    deadline = SPRING[name]
    zone = ZoneInfo(name)
    text = deadline_event(
        Entry("u@pbem.localhost", 1, deadline, "orders due", zone=name),
        description="orders",
        url="https://pbem.localhost/games/1",
        stamp=STAMP,
    ).decode()
    tzid, onsets, times = read(text)
    assert tzid == name and onsets
    # The first holds from the start of the years written: no change, the offset then in force.
    opening, *changes = onsets
    assert opening.offset_from == opening.offset_to
    assert opening.instant.astimezone(zone).utcoffset() == opening.offset_to
    for onset in changes:
        before = (onset.instant - timedelta(seconds=1)).astimezone(zone)
        after = onset.instant.astimezone(zone)
        assert (before.utcoffset(), after.utcoffset()) == (onset.offset_from, onset.offset_to), (
            onset
        )
        assert (onset.kind == "DAYLIGHT") == bool(after.dst()), onset
    # Every change zoneinfo knows of in the deadline's year is there, and only those.
    year = datetime(deadline.year, 1, 1, tzinfo=zone).astimezone(UTC)
    following = datetime(deadline.year + 1, 1, 1, tzinfo=zone).astimezone(UTC)
    real = real_changes(zone, year, following)
    written = [o.instant for o in changes if year <= o.instant < following]
    assert len(written) == len(real), (written, real)
    for instant, hour in zip(written, real, strict=True):
        assert hour - timedelta(hours=1) < instant <= hour
    assert len(real) == (0 if name == "Asia/Tokyo" else 2)
    # The entry's own times, resolved through these definitions, are the deadline's.
    for key, moment in (("DTSTART", deadline - LENGTH), ("DTEND", deadline)):
        entry_zone, wall = times[key]
        assert entry_zone == name
        assert resolved(onsets, local(wall)) == moment, (key, wall)
