"""Positions stored by earlier versions still load, and dump back to the very same JSON, key order
included: games in the database were written in this form and are read again every turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.games.registry import games

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


@pytest.mark.parametrize(
    ("key", "damage", "message"),
    [
        (
            "musketpike",
            lambda d: d["units"][3].update(sp="4"),
            "units[3].sp: expected a whole number",
        ),
        (
            "musketpike",
            lambda d: d["units"][0].update(hex=[1]),
            "units[0].hex: expected a list of 2",
        ),
        ("musketpike", lambda d: d.pop("extra"), "extra is missing"),
        ("musketpike", lambda d: d.update(schema=3), "schema 3; expected 2"),
        (
            "thermopyles",
            lambda d: d.update(status="paused"),
            "status: expected 'playing' or 'won' or 'lost'",
        ),
        (
            "thermopyles",
            lambda d: d["options"].update(hand_limit="seven"),
            "options.hand_limit: expected a whole number as text",
        ),
        (
            "2demayo",
            lambda d: d["areas"]["14"].update(spain=-1),
            "areas.14.spain: expected a count (0 or more)",
        ),
        ("2demayo", lambda d: d["hands"].update(spain="S-MOL"), "hands.spain: expected a list"),
        ("2demayo", lambda d: d.update(winner="england"), "winner: expected 'france' or 'spain'"),
        ("2demayo", lambda d: d["off_map"].update(OFF99=1), "off_map: unknown stack 'OFF99'"),
    ],
)
def test_a_damaged_position_is_refused_naming_the_wrong_part(
    key: str, damage: Any, message: str
) -> None:
    game = games()[key]
    data = json.loads(json.dumps(STORED[key][-1]))
    damage(data)
    with pytest.raises(ValueError) as raised:
        game.load(data)
    assert str(raised.value).endswith(message)


def test_a_musket_and_pike_position_of_schema_1_has_no_close_combat_waiting() -> None:
    data = {**STORED["musketpike"][-1], "schema": 1}
    del data["combats"], data["retreats"]
    position = games()["musketpike"].load(data)
    assert position.combats == () and position.retreats == ()
