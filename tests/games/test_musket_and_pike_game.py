"""Musket & Pike under the game contract: the checks tests/core/test_conformance.py makes of every
registered game, made here directly (the game is tested before it is registered), on the small
``skirmish`` scenario; plus views, standing instructions and the rendering seam."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from builders.games import check_play_out, play_out

from adjudicator.core.chance import Chance, commitment
from adjudicator.core.contract import Resolution
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.rules import standing
from adjudicator.games.musket_and_pike.rules.state import Position

GAME = MusketAndPike()
OPTIONS = {"scenario": "skirmish"}
MAX_STEPS = 3_000
SEEDS = [bytes([n]) * 32 for n in range(1, 9)]
History = list[tuple[Position, Resolution[Position]]]


def play(seed: bytes, choose: random.Random, options: dict[str, str] = OPTIONS) -> History:
    """A random legal play-out to the end: every (state before, resolution) pair."""
    return play_out(GAME, seed, choose, options, MAX_STEPS)


@pytest.fixture(scope="module")
def histories() -> list[History]:
    return [play(seed, random.Random(index)) for index, seed in enumerate(SEEDS)]


def test_metadata_and_options() -> None:
    assert GAME.key == "musketpike" and GAME.title == "Musket & Pike"
    assert GAME.seats == ("royalist", "parliament")
    assert GAME.resolves_on_receipt
    assert GAME.help_text().strip()
    defaults = GAME.option_defaults()
    assert defaults == {"scenario": "braddock-down", "decision_hours": "24"}
    assert GAME.check_options({}) == defaults
    assert isinstance(GAME.check_options({"no-such-option": "1"}), Refusal)
    assert isinstance(GAME.check_options({"scenario": "waterloo"}), Refusal)
    assert GAME.card_texts() == ()


def test_random_playouts_end_and_round_trip(histories: list[History]) -> None:
    fought = 0
    for history in histories:
        check_play_out(GAME, history)
        for _, resolution in history:
            fought += sum(1 for d in resolution.facts["dice"] if "fire" in str(d["purpose"]))
    assert fought, "random play-outs should fire at least once"


def test_same_seed_same_game() -> None:
    first = play(SEEDS[0], random.Random(7))
    second = play(SEEDS[0], random.Random(7))
    assert len(first) == len(second)
    for (a, res_a), (b, res_b) in zip(first, second, strict=True):
        assert GAME.dump(a) == GAME.dump(b)
        assert GAME.dump(res_a.state) == GAME.dump(res_b.state)
        assert res_a.events == res_b.events and res_a.outcomes == res_b.outcomes


def test_events_are_this_resolves_draws(histories: list[History]) -> None:
    for turn, (_, resolution) in enumerate(histories[0], start=1):
        assert all(event.turn == turn for event in resolution.events)


def test_views_leak_nothing_hidden(histories: list[History]) -> None:
    viewers: list[str | None] = [*GAME.seats, None]
    for seed, history in zip(SEEDS[:4], histories[:4], strict=True):
        states = [state for state, _ in history] + [history[-1][1].state]
        for state in states[:: max(1, len(states) // 40)]:
            for seat in viewers:
                seen = GAME.view(state, seat)
                text = json.dumps(seen)
                assert seed.hex() not in text and commitment(seed) not in text
                for salt in range(4):
                    assert GAME.view(GAME.scramble_hidden(state, seat, salt), seat) == seen
                assert GAME.describe(seen).strip()


def _half_set_up() -> Position:
    state = GAME.new_game(OPTIONS, Chance(b"s" * 32, "t", 0))
    report = GAME.parse_orders(state, "royalist", "ORDERS R-A=rally R-B=receive charge")
    assert report.ok
    return GAME.resolve(state, {"royalist": report.orders}, Chance(b"s" * 32, "t", 1)).state


def test_secret_setup_orders_are_hidden_until_revealed() -> None:
    state = _half_set_up()
    assert set(GAME.pending(state)) == {"parliament"}
    for seat in ("parliament", None):
        text = json.dumps(GAME.view(state, seat))
        assert "receive_charge" not in text.split('"wings"')[0]
        assert GAME.view(state, seat)["my_setup"] is None
        assert GAME.view(state, seat)["position"]["secret_orders"] == []
        assert GAME.view(state, seat)["handed_in"] == ["royalist"]
        assert GAME.view(GAME.scramble_hidden(state, seat, 1), seat) == GAME.view(state, seat)
    own = GAME.view(state, "royalist")
    assert own["my_setup"] == [["R-A", "rally"], ["R-B", "receive_charge"]]
    assert "Your orders handed in" in GAME.describe(own)
    # The scramble really changes what is hidden (else the leak test proves nothing).
    scrambled = GAME.scramble_hidden(state, "parliament", 0)
    assert scrambled.secret_orders != state.secret_orders
    # The set-up outcome is not for the other side's eyes; its facts say only that orders came.
    resolution = GAME.resolve(
        GAME.new_game(OPTIONS, Chance(b"s" * 32, "t", 0)),
        {"royalist": {"step": "setup_orders", "answer": "orders R-A=rally R-B=receive_charge"}},
        Chance(b"s" * 32, "t", 1),
    )
    assert all(not o.public for o in resolution.outcomes)
    assert "rally" not in json.dumps(resolution.facts)


def test_reveal_when_both_are_in() -> None:
    state = _half_set_up()
    report = GAME.parse_orders(state, "parliament", "P-A charge\nP-B make ready")
    assert report.ok, report.lines
    resolution = GAME.resolve(state, {"parliament": report.orders}, Chance(b"s" * 32, "t", 2))
    after = resolution.state
    assert after.phase == "activation" and after.secret_orders == ()
    assert [w.order for w in after.wings] == ["rally", "receive_charge", "charge", "make_ready"]
    kinds = [e["kind"] for e in resolution.facts["events"]]
    assert "orders-revealed" in kinds and "initiative" in kinds


def test_standing_instructions_are_private_and_answer_decisions() -> None:
    state = GAME.new_game(OPTIONS, Chance(b"s" * 32, "t", 0))
    report = GAME.parse_orders(
        state,
        "parliament",
        "STANDING PREEMPT NEVER\nSTANDING CONTINUE UP TO 2\nSTANDING RETREAT AWAY",
    )
    assert report.ok and report.orders["answer"] is None
    after = GAME.resolve(state, {"parliament": report.orders}, Chance(b"s" * 32, "t", 1)).state
    assert standing.of(after, "parliament") == {
        "preempt": "never",
        "continue": "up-to-2",
        "retreat": "away",
    }
    assert GAME.view(after, "parliament")["standing"]["preempt"] == "never"
    assert GAME.view(after, "royalist")["standing"] == {}
    assert "standing." not in json.dumps(GAME.view(after, "royalist"))
    assert "standing." not in json.dumps(GAME.view(after, None))
    # Played on with every default: parliament is never asked to pre-empt or to continue.
    chance_turn = 2
    state = after
    while GAME.pending(state):
        for seat, decision in GAME.pending(state).items():
            if seat == "parliament":
                assert state.step not in ("preempt", "continuation"), decision
        orders = {seat: GAME.default_orders(state, seat) for seat in GAME.pending(state)}
        resolution = GAME.resolve(state, orders, Chance(b"s" * 32, "t", chance_turn))
        chance_turn += 1
        state = resolution.state
    assert state.phase == "over"


def test_standing_continue_is_used_and_reported() -> None:
    state = GAME.new_game(OPTIONS, Chance(b"c" * 32, "t", 0))
    orders = {
        "royalist": {
            "step": "setup_orders",
            "answer": "orders R-A=charge R-B=charge",
            "standing": {"continue": "up-to-3"},
        },
        "parliament": {"step": "setup_orders", "answer": "orders P-A=rally P-B=rally"},
    }
    state = GAME.resolve(state, orders, Chance(b"c" * 32, "t", 1)).state
    codes: list[str] = []
    turn = 2
    while GAME.pending(state) and state.turn == 1:
        orders = {seat: GAME.default_orders(state, seat) for seat in GAME.pending(state)}
        resolution = GAME.resolve(state, orders, Chance(b"c" * 32, "t", turn))
        codes += [o.code for o in resolution.outcomes]
        turn += 1
        state = resolution.state
        assert not (state.step == "continuation" and state.active == "royalist")
    assert "standing" in codes


def test_render_gives_png(histories: list[History]) -> None:
    history = histories[0]
    for _, resolution in (history[0], history[len(history) // 2], history[-1]):
        for seat in [*GAME.seats, None]:
            for facts in (None, resolution.facts):
                png = GAME.render(GAME.view(resolution.state, seat), facts)
                assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_the_full_scenario_opens_and_plays_a_turn() -> None:
    state = GAME.new_game(GAME.option_defaults(), Chance(b"f" * 32, "t", 0))
    assert state.scenario == "braddock-down" and set(GAME.pending(state)) == set(GAME.seats)
    assert ("option.decision_hours", "24") in state.extra
    chooser = random.Random(1)
    turn = 1
    while GAME.pending(state) and state.turn == 1:
        orders: dict[str, Any] = {
            seat: chooser.choice(list(GAME.legal_orders(state, seat)))
            for seat in GAME.pending(state)
        }
        state = GAME.resolve(state, orders, Chance(b"f" * 32, "t", turn)).state
        turn += 1
    assert state.turn == 2 or state.phase == "over"
    assert "Braddock Down" in GAME.describe(GAME.view(state, None))
