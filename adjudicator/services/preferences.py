"""A player's own settings, kept across games: the time zone deadlines are shown in, and how
long before a deadline to be reminded."""

from __future__ import annotations

from adjudicator import schedule
from adjudicator.models import Player


def apply(player: Player, settings: list[tuple[str, str]]) -> list[str]:
    """Change what is valid and say, line by line, what was done or why not."""
    answers = []
    for key, value in settings:
        if key in ("TIMEZONE", "TZ"):
            problem = schedule.zone_error(value)
            if problem:
                answers.append(f"time zone not changed: {problem}")
            else:
                player.timezone = value
                answers.append(f"deadlines are now shown in {value}")
        elif key == "REMIND":
            if value.isdigit() and int(value) <= 168:
                player.reminder_hours = int(value)
                answers.append(
                    f"reminders now come {value} h before a deadline"
                    if int(value)
                    else "no more reminders"
                )
            else:
                answers.append("REMIND takes hours before the deadline, 0 to 168 (0: never)")
        else:
            answers.append(
                f"unknown preference {key or '(none)'}; write PREFERENCES TIMEZONE "
                "Europe/Madrid or PREFERENCES REMIND 6"
            )
    return answers
