"""A player's own settings, kept across games: the time zone deadlines are shown in, how long
before a deadline to be reminded, plain-text or HTML mail, and vacations.

Every function answers with (done, sentence) so the reply can say, line by line, what was done
or why not; nothing here sends mail or reads the clock.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from adjudicator import i18n, schedule
from adjudicator.core import numbers
from adjudicator.core.refusal import Refusal
from adjudicator.core.words import counted
from adjudicator.models import Player
from adjudicator.services import play
from adjudicator.services.commands import Command, Entry

# A vacation is for a holiday, not for leaving a game unattended: longer absences are a matter
# for the game master (REPLACE).
MAX_VACATION_DAYS = 60
VACATION_USAGE = (
    "write VACATION 2026-12-20 2027-01-03 (first and last day), VACATION UNTIL 2027-01-03, "
    "VACATION OFF, or VACATION alone to see it"
)


def run(player: Player, command: Command, zone: str, now: datetime) -> tuple[bool, str]:
    """Carry out a PREFERENCES, FORMAT, VACATION or NAME command; ``zone`` reads and shows
    dates."""
    if command.word == "NAME":
        return name(player, command.argument)
    if command.word == "FORMAT":
        return mail_format(player, command.argument)
    if command.word == "VACATION":
        return vacation(player, command.argument, zone, now)
    words = command.argument.split(maxsplit=1)
    key = words[0].upper() if words else ""
    return preference(player, key, words[1].strip() if len(words) > 1 else "")


def preference(player: Player, key: str, value: str) -> tuple[bool, str]:
    if key in ("TIMEZONE", "TZ"):
        problem = schedule.zone_error(value)
        if problem:
            return False, f"time zone not changed: {problem}"
        player.timezone = value
        return True, f"your deadlines will now be shown in {value}"
    if key == "REMIND":
        hours = numbers.whole(value)
        if hours is not None and hours <= 168:
            player.reminder_hours = hours
            if hours:
                return True, f"reminders {counted(hours, 'hour')} before each deadline"
            return True, "no more reminders before deadlines"
        return False, "REMIND takes hours before the deadline, 0 to 168 (0: never)"
    if key == "FORMAT":
        return mail_format(player, value)
    if key == "LANGUAGE":
        return language(player, value)
    return False, (
        f"unknown preference {key or '(none)'}; write PREFERENCES TIMEZONE Europe/Madrid, "
        "PREFERENCES REMIND 6 or FORMAT TEXT"
    )


def language(player: Player, value: str) -> tuple[bool, str]:
    """PREFERENCES LANGUAGE es: the language of this player's mail from now on, said in it."""
    code = i18n.supported(value)
    if not code:
        return False, i18n.gettext(
            "language not changed: write PREFERENCES LANGUAGE %(choices)s",
            play.language(player),
            choices="|".join(i18n.languages()),
        )
    player.language = code
    return True, i18n.gettext(
        "from now on your mail is written in %(language)s", code, language=i18n.named(code)
    )


def guess_language(player: Player, header: str) -> Entry | None:
    """A first guess at a player who has chosen no language: the one their mail's
    Content-Language (``header``) names, if mail can be written in it. The reply's line saying
    so (in that language, with how to change it), or None when nothing was guessed."""
    code = i18n.supported(header)
    # English is what a player without a language reads anyway: only another is announced.
    if player.language or code in ("", i18n.SOURCE):
        return None
    player.language = code
    said = i18n.gettext(
        "your mail is written in %(language)s, so the service writes to you in it from now on; "
        "PREFERENCES LANGUAGE %(choices)s changes it",
        code,
        language=i18n.named(code),
        choices="|".join(i18n.languages()),
    )
    return Entry(f"Content-Language: {header}", said, True)


def name(player: Player, value: str) -> tuple[bool, str]:
    """NAME <words>: the name other players and the archive show for this player."""
    shown = play.display_name(player)
    given = play.usable_name(value)
    if isinstance(given, Refusal):
        now_is = f" (you are shown as {shown})" if shown else ""
        return False, f"name not changed: {given.reason}{now_is}"
    player.name = given
    return True, f"you are now shown as {given}"


def mail_format(player: Player, value: str) -> tuple[bool, str]:
    chosen = value.strip().upper()
    if chosen == "TEXT":
        player.mail_format = "text"
        return True, "from now on your mail is plain text only; pictures come as attachments"
    if chosen == "HTML":
        player.mail_format = "html"
        return True, "from now on your mail has an HTML part with the pictures shown inline"
    now_is = "plain text" if player.mail_format == "text" else "HTML"
    return False, f"write FORMAT TEXT or FORMAT HTML (your mail is {now_is} now)"


def on_vacation(player: Player, now: datetime) -> bool:
    start, end = player.vacation_start, player.vacation_end
    return start is not None and end is not None and start <= now < end


def vacation_text(player: Player, zone: str) -> str | None:
    """The vacation as the player wrote it ("2026-12-20 to 2027-01-03"), or None if none."""
    start, end = player.vacation_start, player.vacation_end
    if start is None or end is None:
        return None
    tz = ZoneInfo(zone)
    # The end is stored as the midnight after the last day.
    last = (end.astimezone(tz) - timedelta(days=1)).date()
    return f"{start.astimezone(tz):%Y-%m-%d} to {last:%Y-%m-%d} ({zone})"


def vacation(player: Player, argument: str, zone: str, now: datetime) -> tuple[bool, str]:
    words = argument.upper().split()
    today = now.astimezone(ZoneInfo(zone)).date()
    if not words:
        shown = vacation_text(player, zone)
        if shown is None or (player.vacation_end is not None and player.vacation_end <= now):
            return True, "no vacation is set"
        state = "you are on vacation" if on_vacation(player, now) else "a vacation is set"
        return True, f"{state}: {shown}; no deadline reminders meanwhile"
    if words == ["OFF"]:
        had = player.vacation_end is not None and player.vacation_end > now
        player.vacation_start = player.vacation_end = None
        return True, "vacation cancelled; reminders come as usual" if had else "no vacation was set"
    if words[0] == "UNTIL" and len(words) == 2:
        first: date | None = today
        last = _day(words[1])
    elif len(words) == 2:
        first, last = _day(words[0]), _day(words[1])
    else:
        return False, VACATION_USAGE
    if first is None or last is None:
        return False, VACATION_USAGE
    problem = _vacation_problem(first, last, today)
    if problem:
        return False, f"{problem}; nothing was changed"
    start = _midnight(first, zone)
    player.vacation_start = start
    player.vacation_end = _midnight(last + timedelta(days=1), zone)
    return True, (
        f"on vacation {vacation_text(player, zone)}: no deadline reminders meanwhile, and other "
        "players see you are away. Orders you send still count; VACATION OFF ends it early"
    )


def _vacation_problem(first: date, last: date, today: date) -> str | None:
    if last < today:
        return f"the last day, {last:%Y-%m-%d}, has passed"
    if last < first:
        return f"the last day, {last:%Y-%m-%d}, comes before the first, {first:%Y-%m-%d}"
    if first < today:
        return f"the first day, {first:%Y-%m-%d}, has passed; write VACATION UNTIL {last:%Y-%m-%d}"
    days = (last - first).days + 1
    if days > MAX_VACATION_DAYS:
        return (
            f"that is {days} days; a vacation lasts at most {MAX_VACATION_DAYS} days "
            "(ask the game master for longer)"
        )
    return None


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time(0), tzinfo=ZoneInfo(zone)).astimezone(UTC)
