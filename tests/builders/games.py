"""Games and positions built by the rules alone, without mail or a database: random play-outs,
the checker's preview facts of some orders, pictures read back as pixels."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Collection, Mapping
from typing import Any

import pytest
from PIL import Image

from adjudicator.core.chance import Chance
from adjudicator.core.contract import Game, Outcome, Resolution
from adjudicator.games.dos_de_mayo.codec import read_position
from adjudicator.games.dos_de_mayo.state import Position as DosDeMayoPosition


def play_out(
    game: Game[Any],
    seed: bytes,
    choose: random.Random,
    options: Mapping[str, str],
    most_steps: int,
) -> list[tuple[Any, Resolution[Any]]]:
    """A random legal play-out of ``game`` to its end: every (state before, resolution) pair.
    It fails the test when the game has not ended after ``most_steps``."""
    stream = f"conformance-{game.key}"
    state = game.new_game(dict(options), Chance(seed, stream, turn=0))
    history: list[tuple[Any, Resolution[Any]]] = []
    for turn in range(1, most_steps):
        pending = game.pending(state)
        if not pending:
            return history
        orders = {
            seat: choose.choice(list(game.legal_orders(state, seat))) for seat in sorted(pending)
        }
        resolution = game.resolve(state, orders, Chance(seed, stream, turn=turn))
        history.append((state, resolution))
        state = resolution.state
    pytest.fail(f"{game.key}: no end after {most_steps} steps")


def preview_facts(game: Game[Any], state: Any, seat: str, text: str) -> dict[str, Any]:
    """What the order checker would draw of ``text``, orders that must all be accepted."""
    report = game.parse_orders(state, seat, text)
    assert report.orders is not None and not report.rejected, report
    found = game.preview_facts(state, seat, report.orders)
    assert found is not None
    return dict(found)


def rgb(png: bytes) -> Image.Image:
    """A PNG read back as RGB pixels."""
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def dos_de_mayo_position(**data: Any) -> DosDeMayoPosition:
    """A 2 de Mayo position read as the database stores it: turn 4 unless ``data`` says else."""
    read = read_position({"turn": 4, **data})
    assert not isinstance(read, list), read
    return read


def dos_de_mayo_midgame(*spain_hand: str) -> DosDeMayoPosition:
    """Turn 4 of 2 de Mayo: both sides in Madrid and off the map, France's artillery in play,
    France holding the Mamelukes and the Cuirassiers, Spain the cards ``spain_hand``."""
    return dos_de_mayo_position(
        areas={"16": [3, 0], "14": [1, 1], "1": [2, 0], "6": [2, 0], "9": [0, 2], "4": [0, 1]},
        off_map={"OFF1": 5, "OFF6": 5},
        hands={"france": ["F-MAM", "F-COR"], "spain": list(spain_hand)},
        in_play=["F-ART"],
    )


def problem_codes(parsed: object, known: Collection[str], what: str) -> set[str]:
    """The codes of the problems a game's data reader found in broken ``what`` data (it must
    have refused it), each of them one of the ``known`` codes."""
    assert isinstance(parsed, list), f"the broken {what} was accepted"
    found = {problem.code for problem in parsed}
    assert found <= set(known), found - set(known)
    return found


def check_play_out(game: Game[Any], history: list[tuple[Any, Resolution[Any]]]) -> None:
    """What the game contract asks of a play-out to its end: each state survives dump and load as
    JSON, each step says what happened, each decision's default is a legal order that reads back
    as itself, and the final state is an outcome with nothing left owed or legal."""
    assert history, "a game needs at least one action to end"
    for state, resolution in history:
        for snapshot in (state, resolution.state):
            data = game.dump(snapshot)
            assert json.loads(json.dumps(data)) == data
            assert game.dump(game.load(json.loads(json.dumps(data)))) == data
        json.dumps(resolution.facts)
        assert resolution.outcomes and all(o.code and o.detail for o in resolution.outcomes)
        for seat, decision in game.pending(state).items():
            legal = list(game.legal_orders(state, seat))
            assert game.default_orders(state, seat) in legal
            parsed = game.parse_orders(state, seat, decision.default)
            assert parsed.orders == game.default_orders(state, seat), decision.default
    final = history[-1][1].state
    outcome = game.outcome(final)
    assert isinstance(outcome, Outcome) and outcome.finished and outcome.summary
    assert set(outcome.winners) <= set(game.seats)
    assert game.pending(final) == {}
    for seat in game.seats:
        assert list(game.legal_orders(final, seat)) == []
