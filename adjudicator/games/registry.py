"""The explicit list of games the service plays. Adding a game means adding one line here.

It lives beside the games, not in ``core``: core is what games build on, and names none.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.contract import Game


def _games() -> dict[str, Game[Any]]:
    # Imported on first use, so a process that asks for no game (`pbem mail parse`) loads no
    # game's rules or data.
    from adjudicator.games.dos_de_mayo import GAME as DOS_DE_MAYO
    from adjudicator.games.musket_and_pike.game import MusketAndPike
    from adjudicator.games.thermopyles import GAME as THERMOPYLES

    return {game.key: game for game in (THERMOPYLES, DOS_DE_MAYO, MusketAndPike())}


_REGISTRY: dict[str, Game[Any]] | None = None


def games() -> dict[str, Game[Any]]:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _games()
    return _REGISTRY


def get(key: str) -> Game[Any] | None:
    return games().get(key.lower())


def register(game: Game[Any]) -> None:
    """Add a game beside the built-in ones (a test's own game; a plug-in): from then on it is
    found, listed and played like them."""
    games()[game.key] = game


def withdraw(key: str) -> None:
    """Take a registered game out again; the built-in ones stay."""
    games().pop(key, None)
