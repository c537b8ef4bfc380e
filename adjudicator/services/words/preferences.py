"""A player's own settings, kept across games: the time zone deadlines are shown in, how long
before a deadline to be reminded, plain-text or HTML mail, and vacations.

Every function answers with (done, sentence) so the reply can say, line by line, what was done
or why not; nothing here sends mail or reads the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n, schedule
from adjudicator.core import numbers
from adjudicator.core.refusal import Refusal
from adjudicator.i18n import N_
from adjudicator.models import Game, Player
from adjudicator.services.record import play
from adjudicator.services.words import command_words
from adjudicator.services.words.commands import Command, Entry

# A vacation is for a holiday, not for leaving a game unattended: longer absences are a matter
# for the game master (REPLACE).
MAX_VACATION_DAYS = 60
VACATION_USAGE = N_(
    "write VACATION 2026-12-20 2027-01-03 (first and last day), VACATION UNTIL 2027-01-03, "
    "VACATION OFF, or VACATION alone to see it"
)


def run(
    player: Player, command: Command, zone: str, now: datetime, game: Game | None = None
) -> tuple[bool, str]:
    """Carry out a PREFERENCES, FORMAT, VACATION or NAME command; ``zone`` reads and shows
    dates. The answer is in the player's language (``game``'s for a player who chose none)."""
    lang = play.language(player, game)
    if command.word == "NAME":
        return name(player, command.argument, lang)
    if command.word == "FORMAT":
        return mail_format(player, command.argument, lang)
    if command.word == "VACATION":
        return vacation(player, command.argument, (zone, now), lang)
    words = command.argument.split(maxsplit=1)
    key = words[0].upper() if words else ""
    return preference(player, key, words[1].strip() if len(words) > 1 else "", lang)


def run_all(
    player: Player,
    personal: Sequence[Command],
    game: Game,
    mail: tuple[str, Sequence[str]],
    now: datetime,
) -> tuple[list[tuple[bool, str]], Entry | None]:
    """A mail's PREFERENCES, FORMAT, VACATION and NAME commands, answered in their order, and
    the guess at the player's language (``guess_language``; ``mail``: its Content-Language and
    its commands' words as written). The language goes first, chosen or else guessed, so that
    every other answer is written in it."""
    first = [command for command in personal if _chooses_language(command)]
    answers = {id(c): run(player, c, player.timezone or game.timezone, now, game) for c in first}
    guessed = guess_language(player, *mail)
    for command in personal:
        if id(command) not in answers:
            zone = player.timezone or game.timezone
            answers[id(command)] = run(player, command, zone, now, game)
    return [answers[id(command)] for command in personal], guessed


def _chooses_language(command: Command) -> bool:
    words = command.argument.split()
    return command.word == "PREFERENCES" and bool(words) and words[0].upper() == "LANGUAGE"


def preference(player: Player, key: str, value: str, lang: str = i18n.SOURCE) -> tuple[bool, str]:
    _ = i18n.translator(lang)
    if key in ("TIMEZONE", "TZ"):
        problem = schedule.zone_error(value)
        if problem:
            return False, _("time zone not changed: %(problem)s", problem=problem)
        player.timezone = value
        return True, _("your deadlines will now be shown in %(zone)s", zone=value)
    if key == "REMIND":
        hours = numbers.whole(value)
        if hours is not None and hours <= 168:
            player.reminder_hours = hours
            if hours:
                return True, i18n.ngettext(
                    "reminders %(num)s hour before each deadline",
                    "reminders %(num)s hours before each deadline",
                    hours,
                    lang,
                )
            return True, _("no more reminders before deadlines")
        return False, _("REMIND takes hours before the deadline, 0 to 168 (0: never)")
    if key == "FORMAT":
        return mail_format(player, value, lang)
    if key == "LANGUAGE":
        return language(player, value)
    return False, _(
        "unknown preference %(key)s; write PREFERENCES TIMEZONE Europe/Madrid, "
        "PREFERENCES REMIND 6 or FORMAT TEXT",
        key=key or _("(none)"),
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


def guess_language(player: Player, header: str, words: Sequence[str] = ()) -> Entry | None:
    """A first guess at a player who has chosen no language: the one their mail's
    Content-Language (``header``) names, if mail can be written in it, else the language of the
    first of ``words`` (the commands as written: ВСТУПИТЬ, NUEVA) that is another language's
    command. The reply's line saying so (in that language, with how to change it), or None
    when nothing was guessed."""
    code, line = i18n.supported(header), f"Content-Language: {header}"
    if code in ("", i18n.SOURCE):
        spoken = next((word for word in words if command_words.language_of(word)), "")
        code, line = command_words.language_of(spoken), spoken
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
    return Entry(line, said, True)


def sender_language(session: Session, address: str, header: str, words: Sequence[str]) -> str:
    """What to answer a sender in who may be no player (help@): their own language if they
    have one, else their mail's Content-Language (``header``), else the language of the first
    of ``words`` that is another language's command, else English. Nothing is stored."""
    player = session.scalar(select(Player).where(Player.address == address.lower()))
    spoken = next((w for w in words if command_words.language_of(w)), "")
    own = player.language if player is not None else ""
    return i18n.chosen(own, header, command_words.language_of(spoken))


def name(player: Player, value: str, lang: str = i18n.SOURCE) -> tuple[bool, str]:
    """NAME <words>: the name other players and the archive show for this player."""
    _ = i18n.translator(lang)
    shown = play.display_name(player)
    given = play.usable_name(value)
    if isinstance(given, Refusal):
        reason = i18n.localized(given.reason, lang)
        if shown:
            return False, _(
                "name not changed: %(reason)s (you are shown as %(name)s)",
                reason=reason,
                name=shown,
            )
        return False, _("name not changed: %(reason)s", reason=reason)
    player.name = given
    return True, _("you are now shown as %(name)s", name=given)


def mail_format(player: Player, value: str, lang: str = i18n.SOURCE) -> tuple[bool, str]:
    _ = i18n.translator(lang)
    chosen = value.strip().upper()
    if chosen == "TEXT":
        player.mail_format = "text"
        return True, _("from now on your mail is plain text only; pictures come as attachments")
    if chosen == "HTML":
        player.mail_format = "html"
        return True, _("from now on your mail has an HTML part with the pictures shown inline")
    if player.mail_format == "text":
        return False, _("write FORMAT TEXT or FORMAT HTML (your mail is plain text now)")
    return False, _("write FORMAT TEXT or FORMAT HTML (your mail is HTML now)")


def on_vacation(player: Player, now: datetime) -> bool:
    start, end = player.vacation_start, player.vacation_end
    return start is not None and end is not None and start <= now < end


def vacation_text(player: Player, zone: str, lang: str = i18n.SOURCE) -> str | None:
    """The vacation as the player wrote it ("2026-12-20 to 2027-01-03"), or None if none."""
    start, end = player.vacation_start, player.vacation_end
    if start is None or end is None:
        return None
    tz = ZoneInfo(zone)
    # The end is stored as the midnight after the last day.
    last = (end.astimezone(tz) - timedelta(days=1)).date()
    days = {"first": start.astimezone(tz).date().isoformat(), "last": last.isoformat()}
    return i18n.gettext("%(first)s to %(last)s (%(zone)s)", lang, zone=zone, **days)


def vacation(
    player: Player, argument: str, when: tuple[str, datetime], lang: str = i18n.SOURCE
) -> tuple[bool, str]:
    """VACATION and its argument; ``when``: the zone dates are read in, and now."""
    _ = i18n.translator(lang)
    zone, now = when
    words = argument.upper().split()
    today = now.astimezone(ZoneInfo(zone)).date()
    if not words:
        shown = vacation_text(player, zone, lang)
        if shown is None or (player.vacation_end is not None and player.vacation_end <= now):
            return True, _("no vacation is set")
        if on_vacation(player, now):
            return True, _(
                "you are on vacation: %(dates)s; no deadline reminders meanwhile", dates=shown
            )
        return True, _("a vacation is set: %(dates)s; no deadline reminders meanwhile", dates=shown)
    if words == ["OFF"]:
        had = player.vacation_end is not None and player.vacation_end > now
        player.vacation_start = player.vacation_end = None
        if had:
            return True, _("vacation cancelled; reminders come as usual")
        return True, _("no vacation was set")
    if words[0] == "UNTIL" and len(words) == 2:
        first: date | None = today
        last = _day(words[1])
    elif len(words) == 2:
        first, last = _day(words[0]), _day(words[1])
    else:
        return False, _(VACATION_USAGE)
    if first is None or last is None:
        return False, _(VACATION_USAGE)
    problem = _vacation_problem(first, last, today, lang)
    if problem:
        return False, _("%(problem)s; nothing was changed", problem=problem)
    start = _midnight(first, zone)
    player.vacation_start = start
    player.vacation_end = _midnight(last + timedelta(days=1), zone)
    return True, _(
        "on vacation %(dates)s: no deadline reminders meanwhile, and other players see you are "
        "away. Orders you send still count; VACATION OFF ends it early",
        dates=vacation_text(player, zone, lang),
    )


def _vacation_problem(first: date, last: date, today: date, lang: str) -> str | None:
    _ = i18n.translator(lang)
    days = {"first": f"{first:%Y-%m-%d}", "last": f"{last:%Y-%m-%d}"}
    if last < today:
        return _("the last day, %(last)s, has passed", **days)
    if last < first:
        return _("the last day, %(last)s, comes before the first, %(first)s", **days)
    if first < today:
        return _("the first day, %(first)s, has passed; write VACATION UNTIL %(last)s", **days)
    count = (last - first).days + 1
    if count > MAX_VACATION_DAYS:
        return _(
            "that is %(days)s days; a vacation lasts at most %(most)s days "
            "(ask the game master for longer)",
            days=count,
            most=MAX_VACATION_DAYS,
        )
    return None


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def _midnight(day: date, zone: str) -> datetime:
    return datetime.combine(day, time(0), tzinfo=ZoneInfo(zone)).astimezone(UTC)
