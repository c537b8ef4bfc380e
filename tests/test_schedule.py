"""Deadlines with fixed clocks around daylight-saving changes, and the calendar entry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar, Event, Timezone

from adjudicator import schedule
from adjudicator.core.refusal import Refusal
from adjudicator.mail.calendar import Entry, deadline_event, withdrawal

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")


def slots(text: str) -> schedule.Slots:
    parsed = schedule.parse(text)
    assert isinstance(parsed, schedule.Slots), parsed
    return parsed


def at(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_parse_durations_and_slots() -> None:
    assert schedule.parse("48h") == schedule.Every(timedelta(hours=48))
    assert schedule.parse("3 days") == schedule.Every(timedelta(days=3))
    assert schedule.parse("90m") == schedule.Every(timedelta(minutes=90))
    parsed = slots("Thu, mon 20:00 Europe/Madrid")
    assert parsed.weekdays == (0, 3) and parsed.zone == "Europe/Madrid"
    assert parsed.text() == "Mon, Thu 20:00 Europe/Madrid"
    assert slots("Sat 09:30").zone == "UTC"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("soon", "not a schedule"),
        ("Mon, Fry 20:00 UTC", "'fry' is not a day"),
        ("Mon 25:00 UTC", "not a time of day"),
        ("Mon 20:00 Europe/Atlantis", "not a time zone"),
        ("2m", "at least 5 minutes"),
    ],
)
def test_parse_explains_mistakes(text: str, complaint: str) -> None:
    result = schedule.parse(text)
    assert isinstance(result, Refusal) and complaint in result.reason


def test_weekly_slot_keeps_its_wall_time_across_the_spring_change_in_madrid() -> None:
    plan = slots("Mon, Thu 20:00 Europe/Madrid")
    before = schedule.next_deadline(plan, at(2027, 3, 23, 12))  # Tue, CET (+1)
    after = schedule.next_deadline(plan, at(2027, 3, 26, 12))  # Fri; clocks change on Sun 28th
    assert before == at(2027, 3, 25, 19)  # Thu 20:00 CET
    assert after == at(2027, 3, 29, 18)  # Mon 20:00 CEST
    assert before.astimezone(MADRID).hour == after.astimezone(MADRID).hour == 20


def test_a_slot_in_the_skipped_hour_moves_forward_by_the_gap() -> None:
    # 02:30 does not exist in Madrid on 28 March 2027 (02:00 → 03:00).
    deadline = schedule.next_deadline(slots("Sun 02:30 Europe/Madrid"), at(2027, 3, 26, 0))
    assert deadline == at(2027, 3, 28, 1, 30)
    assert deadline.astimezone(MADRID).strftime("%H:%M %Z") == "03:30 CEST"
    # New York skips 02:00–03:00 on 14 March 2027.
    deadline = schedule.next_deadline(slots("Sun 02:30 America/New_York"), at(2027, 3, 12, 0))
    assert deadline.astimezone(NEW_YORK).strftime("%H:%M %Z") == "03:30 EDT"
    assert deadline == at(2027, 3, 14, 7, 30)


def test_a_slot_in_the_repeated_hour_is_its_first_occurrence() -> None:
    # Madrid repeats 02:00–03:00 on 31 October 2027; New York repeats 01:00–02:00 on 7 November.
    madrid = schedule.next_deadline(slots("Sun 02:30 Europe/Madrid"), at(2027, 10, 29, 0))
    assert madrid == at(2027, 10, 31, 0, 30)  # 02:30 CEST, the first of the two
    new_york = schedule.next_deadline(slots("Sun 01:30 America/New_York"), at(2027, 11, 5, 0))
    assert new_york == at(2027, 11, 7, 5, 30)  # 01:30 EDT


def test_autumn_change_in_new_york_keeps_the_wall_time() -> None:
    plan = slots("Mon 20:00 America/New_York")
    first = schedule.next_deadline(plan, at(2027, 11, 1, 12))
    second = schedule.next_deadline(plan, first)
    assert first == at(2027, 11, 2, 0) and second == at(2027, 11, 9, 1)  # EDT, then EST
    assert {d.astimezone(NEW_YORK).hour for d in (first, second)} == {20}


def test_a_turn_is_never_shorter_than_the_minimum() -> None:
    plan = slots("Mon, Thu 20:00 UTC")
    assert schedule.next_deadline(plan, at(2027, 1, 7, 19)) == at(2027, 1, 11, 20)  # not 1 h
    assert schedule.next_deadline(plan, at(2027, 1, 7, 7)) == at(2027, 1, 7, 20)  # 13 h is fine


def test_durations_are_elapsed_time_across_a_change() -> None:
    opened = at(2027, 3, 27, 18)
    deadline = schedule.next_deadline(schedule.Every(timedelta(hours=48)), opened)
    assert deadline - opened == timedelta(hours=48)
    # Two days later the wall clock in Madrid reads 20:00, not 19:00: an hour was skipped.
    assert opened.astimezone(MADRID).hour == 19 and deadline.astimezone(MADRID).hour == 20


def test_shown_in_the_readers_zone_with_utc_and_relative() -> None:
    deadline, now = at(2027, 3, 29, 18), at(2027, 3, 28, 11)
    text = schedule.shown(deadline, "Europe/Madrid", now)
    assert text == "Mon 29 Mar 2027 20:00 CEST = 18:00 UTC (in 31\u00a0h)"
    later = schedule.shown(deadline, "UTC", deadline + timedelta(minutes=5))
    assert later.endswith("(5\u00a0min ago)")
    assert schedule.relative(deadline, deadline - timedelta(days=4)) == "in 4\u00a0days"


def test_a_relative_time_never_breaks_between_its_number_and_its_unit() -> None:
    # A phone wraps "in 38 h" at its spaces: the one between the number and its unit is a
    # no-break space, so "h" never starts a line alone.
    now = at(2027, 3, 28, 11)
    for ahead in (timedelta(minutes=20), timedelta(hours=38), timedelta(days=5)):
        for text in (schedule.relative(now + ahead, now), schedule.relative(now - ahead, now)):
            number = next(word for word in text.split(" ") if word[0].isdigit())
            assert "\u00a0" in number and number.split("\u00a0")[1] in ("min", "h", "days")


def test_calendar_entry_is_stable_and_moves_with_the_deadline() -> None:
    uid, summary = "game-7-turn-3@pbem.localhost", "2 de Mayo, game 7: orders for turn 3 due"

    def event(sequence: int, deadline: datetime) -> str:
        return deadline_event(
            Entry(uid, sequence, deadline, summary),
            description="Reply to orders+7-france-1-abc@pbem.localhost, with commas; and more",
            url="http://127.0.0.1:8000/games/7",
            stamp=at(2027, 3, 1, 9),
        ).decode()

    first, moved = event(0, at(2027, 3, 29, 18)), event(1, at(2027, 3, 30, 18))
    assert (
        "UID:game-7-turn-3@pbem.localhost" in first and "UID:game-7-turn-3@pbem.localhost" in moved
    )
    assert "SEQUENCE:0" in first and "SEQUENCE:1" in moved
    assert "DTEND:20270329T180000Z" in first and "DTEND:20270330T180000Z" in moved
    assert "with commas\\; and more" in first.replace("\r\n ", "")
    assert all(len(line.encode()) <= 75 for line in first.split("\r\n"))
    assert first.endswith("END:VCALENDAR\r\n")


UID = "game-7-turn-3@pbem.localhost"
SUMMARY = "2 de Mayo, game 7: orders for turn 3 due"
ORGANIZER = "pbem@pbem.localhost"
STAMP = at(2027, 3, 1, 9)


def read_calendar(data: bytes) -> tuple[Calendar, Event]:
    calendar = Calendar.from_ical(data)
    [event] = calendar.walk("VEVENT")
    return calendar, event


@pytest.mark.parametrize(
    ("zone", "deadline", "local_start", "offset"),
    [
        # The Monday after the clocks go forward in Madrid: 20:00 CEST is 18:00 UTC.
        ("Europe/Madrid", at(2027, 3, 29, 18), datetime(2027, 3, 29, 19, 45), timedelta(hours=2)),
        # Kiritimati (+14) is on the next day: Thursday 19:00 UTC is Friday 09:00 there.
        (
            "Pacific/Kiritimati",
            at(2026, 12, 3, 19),
            datetime(2026, 12, 4, 8, 45),
            timedelta(hours=14),
        ),
    ],
)
def test_the_entry_is_written_in_the_games_zone_with_its_vtimezone(
    zone: str, deadline: datetime, local_start: datetime, offset: timedelta
) -> None:
    data = deadline_event(
        Entry(UID, 2, deadline, SUMMARY, zone=zone, organizer=ORGANIZER),
        description="Reply with your orders.",
        url="http://127.0.0.1:8000/games/7",
        stamp=STAMP,
    )
    calendar, event = read_calendar(data)
    assert calendar["METHOD"] == "PUBLISH"
    [timezone] = calendar.walk("VTIMEZONE")
    assert isinstance(timezone, Timezone) and timezone["TZID"] == zone
    assert b"DTSTART;TZID=" + zone.encode() + b":" in data
    start, end = event.start, event.end
    assert isinstance(start, datetime) and isinstance(end, datetime)
    assert start.replace(tzinfo=None) == local_start and start.utcoffset() == offset
    assert end == deadline and end - start == timedelta(minutes=15)
    assert event["UID"] == UID and event["SEQUENCE"] == 2
    assert str(event["ORGANIZER"]) == "mailto:pbem@pbem.localhost"
    # The zone's own rules, as a calendar without a zone database reads them.
    assert timezone.to_tz().utcoffset(local_start) == offset


def test_a_withdrawal_cancels_the_entry_by_its_uid_with_a_higher_sequence() -> None:
    entry = Entry(UID, 3, at(2027, 3, 29, 18), SUMMARY, zone="Europe/Madrid", organizer=ORGANIZER)
    data = withdrawal(entry, stamp=STAMP)
    calendar, event = read_calendar(data)
    assert calendar["METHOD"] == "CANCEL"
    assert event["UID"] == UID and event["SEQUENCE"] == 3
    assert event["STATUS"] == "CANCELLED" and event.end == at(2027, 3, 29, 18)
    assert str(event["ORGANIZER"]) == "mailto:pbem@pbem.localhost"
    assert not event.walk("VALARM")


def test_the_utc_time_carries_its_date_when_that_date_is_not_the_local_one() -> None:
    # 09:00 on Friday in Kiritimati (+14) is 19:00 on Thursday in UTC.
    moment = at(2026, 12, 3, 19)
    now = at(2026, 12, 1, 12)
    assert schedule.shown(moment, "Pacific/Kiritimati", now).startswith(
        "Fri 04 Dec 2026 09:00 +14 = Thu 03 Dec 19:00 UTC"
    )
    assert schedule.shown(moment, "Europe/Madrid", now).startswith(
        "Thu 03 Dec 2026 20:00 CET = 19:00 UTC"
    )


@pytest.mark.parametrize(
    "zone", ["right/Europe/Madrid", "posix/Europe/Madrid", "localtime", "Factory"]
)
def test_only_real_zone_names_are_accepted(zone: str) -> None:
    problem = schedule.zone_error(zone)
    assert problem is not None and "is not a time zone name" in problem
    assert schedule.zone_error("Europe/Madrid") is None and schedule.zone_error("UTC") is None
    slot = schedule.parse(f"Mon 20:00 {zone}")
    assert isinstance(slot, Refusal) and "is not a time zone name" in slot.reason


def test_a_wall_time_the_clocks_skip_or_repeat_is_read_as_the_slots_are_and_said() -> None:
    skipped = schedule.on_the_wall(datetime(2027, 3, 28, 2, 30), "Europe/Madrid")
    assert skipped.moment == at(2027, 3, 28, 1, 30)  # 03:30 CEST
    assert "02:30 does not exist on 28 Mar in Europe/Madrid" in skipped.note
    assert "moved forward to 03:30 CEST" in skipped.note
    repeated = schedule.on_the_wall(datetime(2027, 10, 31, 2, 30), "Europe/Madrid")
    assert repeated.moment == at(2027, 10, 31, 0, 30)  # the first 02:30, still CEST
    assert "02:30 happens twice on 31 Oct" in repeated.note and "(02:30 CEST)" in repeated.note
    plain = schedule.on_the_wall(datetime(2027, 3, 29, 20, 0), "Europe/Madrid")
    assert plain == schedule.Wall(at(2027, 3, 29, 18))
