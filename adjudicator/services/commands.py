"""The words a player may write besides orders: NEW, HELP, STATUS, HISTORY, RESIGN."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GAME_COMMANDS = ("HELP", "STATUS", "HISTORY", "RESIGN")
CHALLENGE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@dataclass(frozen=True)
class NewGame:
    game_key: str
    challenge: str | None = None
    options: dict[str, str] = field(default_factory=dict)


def parse_new(lines: list[str]) -> NewGame | str | None:
    """The first line starting with NEW, read as a request; None when there is none."""
    for line in lines:
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
        return NewGame(request.game_key, challenge, options)
    return None


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
