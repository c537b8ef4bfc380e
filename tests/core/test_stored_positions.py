"""Positions stored by earlier versions still load, and dump back to the very same JSON, key order
included: games in the database were written in this form and are read again every turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core.registry import games

# Dumps from random play-outs of every game (and a Musket & Pike close combat paused for a retreat
# path, and one with secret set-up orders), written before the games shared one codec.
STORED = json.loads((Path(__file__).parent / "data" / "stored_positions.json").read_text())


def _stored() -> list[tuple[str, int, Any]]:
    return [(key, n, data) for key, dumps in STORED.items() for n, data in enumerate(dumps)]


def test_every_game_has_stored_positions() -> None:
    assert set(STORED) == set(games())


@pytest.mark.parametrize(("key", "n", "data"), _stored(), ids=lambda v: str(v)[:12])
def test_a_stored_position_loads_and_dumps_the_same(key: str, n: int, data: Any) -> None:
    game = games()[key]
    again = game.dump(game.load(data))
    assert json.dumps(again) == json.dumps(data)
