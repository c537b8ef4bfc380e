"""The explicit list of games the service plays. Adding a game means a loader and one line in
``_BUILT_IN``.

It lives beside the games, not in ``core``: core is what games build on, and names none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.core.contract import Game


def _thermopyles() -> Game[Any]:
    from adjudicator.games.thermopyles import GAME

    return GAME


def _dos_de_mayo() -> Game[Any]:
    from adjudicator.games.dos_de_mayo import GAME

    return GAME


def _musket_and_pike() -> Game[Any]:
    from adjudicator.games.musket_and_pike.game import MusketAndPike

    return MusketAndPike()


# Each game is imported on first use, and only that game: a process that asks for no game
# (`pbem mail parse`) loads none, and `pbem adjudicate 2demayo` loads 2 de Mayo alone. The order
# is the order games are listed in.
_BUILT_IN: dict[str, Callable[[], Game[Any]]] = {
    "thermopyles": _thermopyles,
    "2demayo": _dos_de_mayo,
    "musketpike": _musket_and_pike,
}
_LOADED: dict[str, Game[Any]] = {}


def _load(key: str) -> Game[Any] | None:
    if key not in _LOADED and key in _BUILT_IN:
        _LOADED[key] = _BUILT_IN[key]()
    return _LOADED.get(key)


def games() -> dict[str, Game[Any]]:
    for key in _BUILT_IN:
        _load(key)
    built_in = {key: _LOADED[key] for key in _BUILT_IN if key in _LOADED}
    return built_in | {key: game for key, game in _LOADED.items() if key not in built_in}


def titles() -> list[tuple[str, str]]:
    """Each game's key and title, as a mail's NEW and HELP lines may name it."""
    return [(key, game.title) for key, game in games().items()]


def get(key: str) -> Game[Any] | None:
    return _load(key.lower())


def register(game: Game[Any]) -> None:
    """Add a game beside the built-in ones (a test's own game; a plug-in): from then on it is
    found, listed and played like them."""
    _LOADED[game.key] = game


def withdraw(key: str) -> None:
    """Take a registered game out again; a built-in one is loaded afresh when next asked for."""
    _LOADED.pop(key, None)
