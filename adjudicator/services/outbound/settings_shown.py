"""A game's options and settings shown back once chosen: the game's own options (house rules,
scenario) with the value each has in this game, then the game master's clock and conduct
(SCHEDULE, TIMEZONE, EARLY, DELAY, GRACE, REMIND, DKIM, LANGUAGE), each with what it means.

The game master's mails, the start mail, the game's page and the API all show this one list.
Each meaning is a core.said sentence: written in its reader's language where it is shown (a
template shows one alone in its render's language; ``json`` writes them in the one asked for).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.models import Game
from adjudicator.services.record import play


@dataclass(frozen=True)
class Setting:
    """One option or setting: its name as the game master writes it, its value in this game,
    and what that means."""

    name: str
    value: str
    meaning: str  # a said sentence
    # One of the game's own options, written name=value on the NEW line; else a setting, written
    # on a line of its own under NEW, its word and its value.
    option: bool = False


def shown(game: Game) -> list[Setting]:
    """Every option of the game's rules (defaults included), then the clock's settings where
    the game has a clock."""
    rules = play.rules_for(game)
    checked = rules.check_options(game.options)
    chosen = checked if isinstance(checked, dict) else dict(game.options)
    settings = [
        Setting(option.key, str(chosen.get(option.key, option.default)), option.help, True)
        for option in rules.options
    ]
    if game.schedule:
        settings += _clock(game)
    return settings


def _clock(game: Game) -> list[Setting]:
    """The game master's settings of a game with deadlines, as NEW's lines name them."""
    yes, no = said._("yes"), said._("no")
    return [
        Setting(
            "SCHEDULE",
            game.schedule,
            said._("how long each turn runs, or the weekly times its deadlines fall on"),
        ),
        Setting(
            "TIMEZONE",
            game.timezone,
            said._("the zone deadlines are set in, and shown in to players who chose none"),
        ),
        Setting(
            "EARLY",
            yes if game.early else no,
            said._("a turn is played as soon as every player has orders on file")
            if game.early
            else said._("a turn always waits for its deadline"),
        ),
        Setting(
            "DELAY",
            said._("%(minutes)s min", minutes=game.early_delay_minutes),
            said._("how long an early turn waits after the last orders, which may still change"),
        ),
        Setting(
            "GRACE",
            said._("%(minutes)s min", minutes=game.grace_minutes),
            said._("how long after its deadline a turn is played"),
        ),
        Setting(
            "REMIND",
            said._("%(hours)s h", hours=game.reminder_hours),
            said._("how long before a deadline players without orders are reminded (0: never)"),
        ),
        Setting(
            "DKIM",
            said._("required") if game.require_dkim else said._("optional"),
            said._("orders are taken only from mail whose DKIM signature verifies")
            if game.require_dkim
            else said._("orders are taken from any mail from the player's address"),
        ),
        Setting(
            "LANGUAGE",
            game.language or "en",
            said._("what the game's mail is written in for a player who chose no language"),
        ),
    ]


def json(game: Game, lang: str) -> list[dict[str, Any]]:
    """``shown`` as data, its words in ``lang``: what the API and the mails' contexts carry."""
    return [
        {
            "name": setting.name,
            "value": i18n.localized(setting.value, lang),
            "meaning": i18n.localized(setting.meaning, lang),
            "option": setting.option,
        }
        for setting in shown(game)
    ]
