"""The words a player may write besides orders: NEW, HELP, STATUS, HISTORY, RESIGN."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GAME_COMMANDS = ("HELP", "STATUS", "HISTORY", "RESIGN", "JOIN", "WAIT")
SETTINGS = ("SCHEDULE", "TIMEZONE", "EARLY", "GRACE", "REMIND", "PLAYERS", "DELAY")
CHALLENGE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class NewGame:
    game_key: str
    challenge: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    # For games of several players: seat name -> address ("me" for the sender), and the
    # game master's settings (SCHEDULE, TIMEZONE, EARLY, GRACE, REMIND) from the lines below.
    seats: dict[str, str] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)


def parse_new(lines: list[str]) -> NewGame | str | None:
    """The first line starting with NEW, read as a request; None when there is none."""
    for index, line in enumerate(lines):
        words = line.strip().split()
        if not words or words[0].upper() != "NEW":
            continue
        if len(words) < 2:
            return "NEW needs the name of a game, e.g. NEW THERMOPYLES"
        request = NewGame(game_key=words[1].lower())
        rest = words[2:]
        challenge: str | None = None
        options: dict[str, str] = {}
        while rest:
            word = rest.pop(0)
            if word.upper() == "SHARED":
                if not rest:
                    return "SHARED needs a challenge name, e.g. NEW THERMOPYLES SHARED spring-cup"
                challenge = rest.pop(0).lower()
                if not CHALLENGE_NAME.match(challenge):
                    return (
                        f"{challenge!r} cannot be a challenge name: use up to 40 letters, "
                        "digits and hyphens"
                    )
            elif "=" in word:
                key, value = word.split("=", 1)
                options[key.lower()] = value.lower()
            else:
                return f"I did not understand {word!r} after NEW {words[1]}"
        seats, settings = _block(lines[index + 1 :])
        return NewGame(request.game_key, challenge, options, seats, settings)
    return None


def _block(lines: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The lines under NEW: ``<seat> <address>`` and ``<SETTING> <value>``; chatter is skipped."""
    seats: dict[str, str] = {}
    settings: dict[str, str] = {}
    for line in lines:
        words = line.strip().split(maxsplit=1)
        if len(words) != 2:
            continue
        head, rest = words[0].rstrip(":"), words[1].strip()
        if head.upper() in SETTINGS:
            settings[head.upper()] = rest
        elif head.upper() == "OPTION" and "=" in rest:
            key, value = rest.split("=", 1)
            settings["option:" + key.strip().lower()] = value.strip().lower()
        elif "@" in rest or rest.lower() == "me":
            seats[head.lower()] = rest.strip("<>").lower()
    return seats, settings


def split_commands(lines: list[str]) -> tuple[list[str], list[str]]:
    """(command words found, the other lines) — commands are whole lines like ``HELP``."""
    commands: list[str] = []
    rest: list[str] = []
    for line in lines:
        word = line.strip().rstrip(".!").upper()
        if word in GAME_COMMANDS:
            commands.append(word)
        else:
            rest.append(line)
    return commands, rest


def take_preferences(lines: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """(``PREFERENCES <key> <value>`` settings found, the other lines)."""
    settings: list[tuple[str, str]] = []
    rest: list[str] = []
    for line in lines:
        words = line.strip().split(maxsplit=2)
        if words and words[0].upper() in ("PREFERENCES", "PREFERENCE", "PREFS"):
            key = words[1].upper() if len(words) > 1 else ""
            settings.append((key, words[2].strip() if len(words) > 2 else ""))
        else:
            rest.append(line)
    return settings, rest
