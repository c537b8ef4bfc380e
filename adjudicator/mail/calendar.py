"""An iCalendar entry for a deadline, so it sits in the player's calendar and moves with it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """RFC 5545 folds content lines at 75 octets, continuing with a space."""
    data = line.encode()
    if len(data) <= 75:
        return line
    parts, start = [], 0
    while start < len(data):
        size = 75 if start == 0 else 74
        end = min(start + size, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:  # never split a UTF-8 sequence
            end -= 1
        parts.append(data[start:end].decode())
        start = end
    return "\r\n ".join(parts)


def deadline_event(
    *,
    uid: str,
    sequence: int,
    deadline: datetime,
    summary: str,
    description: str,
    url: str,
    stamp: datetime,
) -> bytes:
    """A VCALENDAR with one 15-minute VEVENT ending at the deadline.

    The UID is stable per game and turn and SEQUENCE rises each time the deadline moves, so a
    calendar updates the entry it already has instead of adding another.
    """

    def utc(moment: datetime) -> str:
        return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//pbem//adjudicator//EN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:{uid}",
        f"SEQUENCE:{sequence}",
        f"DTSTAMP:{utc(stamp)}",
        f"DTSTART:{utc(deadline - timedelta(minutes=15))}",
        f"DTEND:{utc(deadline)}",
        f"SUMMARY:{_escape(summary)}",
        f"DESCRIPTION:{_escape(description)}",
        f"URL:{url}",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT2H",
        f"DESCRIPTION:{_escape(summary)}",
        "END:VALARM",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return ("\r\n".join(_fold(line) for line in lines) + "\r\n").encode()
