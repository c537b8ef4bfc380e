"""The contract every registered game must keep: random legal play-outs end, states survive
dump/load as JSON, the same seed replays identically, and views leak nothing hidden."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from builders.games import check_play_out, play_out
from PIL import Image
from tiny_game import GAME as TINY

from adjudicator.core.chance import Chance, commitment
from adjudicator.core.contract import Game, Resolution
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.games.registry import games

# Every built-in game, and the test-only one that shows what a new game must provide.
GAMES = [*games().values(), TINY]
MAX_STEPS = 5_000  # far above any real game; a play-out that gets here never ends
SEEDS = [bytes([n]) * 32 for n in range(1, 25)]


def _play(game: Game[Any], seed: bytes, choose: random.Random) -> list[tuple[Any, Resolution[Any]]]:
    """A random legal play-out to the end: every (state before, resolution) pair."""
    return play_out(game, seed, choose, game.option_defaults(), MAX_STEPS)


def _final(history: list[tuple[Any, Resolution[Any]]]) -> Any:
    return history[-1][1].state


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_metadata_and_options(game: Game[Any]) -> None:
    assert game.key and game.title and game.seats
    assert game.help_text().strip()
    assert game.check_options({}) == game.option_defaults()
    assert isinstance(game.check_options({"no-such-option": "1"}), Refusal)
    for option in game.options:
        assert not option.choices or option.default in option.choices
        if option.choices:
            assert isinstance(game.check_options({option.key: "not-a-choice"}), Refusal)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_random_playouts_end_and_round_trip(game: Game[Any]) -> None:
    for index, seed in enumerate(SEEDS):
        history = _play(game, seed, random.Random(index))
        check_play_out(game, history)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_same_seed_same_game(game: Game[Any]) -> None:
    for index, seed in enumerate(SEEDS[:8]):
        first = _play(game, seed, random.Random(index))
        second = _play(game, seed, random.Random(index))
        assert len(first) == len(second)
        for (state_a, res_a), (state_b, res_b) in zip(first, second, strict=True):
            assert game.dump(state_a) == game.dump(state_b)
            assert game.dump(res_a.state) == game.dump(res_b.state)
            assert res_a.events == res_b.events
            assert res_a.outcomes == res_b.outcomes
            assert json.dumps(res_a.facts, sort_keys=True) == json.dumps(
                res_b.facts, sort_keys=True
            )
    # A different seed gives a different deal, for a game whose opening is dealt at all; one
    # whose scenario fixes the opening draws nothing, and then the seed must not matter.
    options = game.option_defaults()
    first_chance, second_chance = Chance(SEEDS[0], "s", 0), Chance(SEEDS[1], "s", 0)
    one = game.new_game(options, first_chance)
    two = game.new_game(options, second_chance)
    if first_chance.events:
        assert game.dump(one) != game.dump(two)
    else:
        assert not second_chance.events and game.dump(one) == game.dump(two)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_events_are_this_resolves_draws(game: Game[Any]) -> None:
    history = _play(game, SEEDS[3], random.Random(3))
    for turn, (_, resolution) in enumerate(history, start=1):
        assert all(event.turn == turn for event in resolution.events)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_views_leak_nothing_hidden(game: Game[Any]) -> None:
    viewers: list[str | None] = [*game.seats, None]
    for index, seed in enumerate(SEEDS[:12]):
        history = _play(game, seed, random.Random(100 + index))
        states = [state for state, _ in history] + [_final(history)]
        secrets = (seed.hex(), repr(seed))
        for state in states:
            for seat in viewers:
                seen = game.view(state, seat)
                text = json.dumps(seen)
                assert not any(secret in text for secret in secrets)
                assert commitment(seed) not in text
                for salt in range(4):
                    scrambled = game.scramble_hidden(state, seat, salt)
                    assert game.view(scrambled, seat) == seen, (seat, salt)
                assert game.describe(seen).strip()


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_render_gives_png(game: Game[Any]) -> None:
    history = _play(game, SEEDS[5], random.Random(5))
    for _, resolution in (history[0], history[-1]):
        for seat in [*game.seats, None]:
            for facts in (None, resolution.facts):
                png = game.render(game.view(resolution.state, seat), facts)
                assert png.startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.key)
def test_render_at_scale_two_is_the_same_picture_twice_the_size(game: Game[Any]) -> None:
    # The web's picture for zooming: the contract's render at scale 2, for every game.
    history = _play(game, SEEDS[6], random.Random(6))
    for _, resolution in (history[0], history[-1]):
        view = game.view(resolution.state, None)
        for facts in (None, resolution.facts):
            one = Image.open(io.BytesIO(game.render(view, facts)))
            two = Image.open(io.BytesIO(game.render(view, facts, 2)))
            assert two.format == "PNG"
            assert two.size == (2 * one.width, 2 * one.height)


def test_a_new_game_plugs_into_the_registry() -> None:
    """A game registered beside the built-in ones is found by its key and played like them."""
    registry.register(TINY)
    try:
        assert registry.get("COUNTDOWN") is TINY and TINY in registry.games().values()
        state = TINY.new_game(TINY.option_defaults(), Chance(SEEDS[0], "tiny", 0))
        report = TINY.parse_orders(state, "player", "Hello!\n> TAKE 1\nTAKE 2\nTAEK 3\nTAKE 9")
        statuses = [line.status.name for line in report.lines]
        assert statuses == ["IGNORED", "IGNORED", "ACCEPTED", "REJECTED", "REJECTED"]
        assert report.lines[1].reason == "quoted text"
        assert report.lines[3].suggestion == "did you mean TAKE?"
        assert report.orders == {"take": 2}
    finally:
        registry.withdraw(TINY.key)
    assert registry.get("countdown") is None
