"""Properties of the 2 de Mayo rules over generated positions and orders (hypothesis): units are
conserved, the same inputs give the same result, legal orders never crash the adjudicator, and
the parser refuses every illegal order with a reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.dos_de_mayo import GAME
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.checks import CODES
from adjudicator.games.dos_de_mayo.codec import read_position
from adjudicator.games.dos_de_mayo.orders import order_set_from_json
from adjudicator.games.dos_de_mayo.state import Position

AREAS = list(board().areas)
STACKS = list(board().stacks)
TOTAL = sum(board().totals.values())
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def conserved(state: Position) -> bool:
    return state.accounted("france") + state.accounted("spain") == TOTAL and all(
        state.accounted(side) == board().totals[side] for side in GAME.seats
    )


@st.composite
def played_positions(draw: st.DrawFn) -> tuple[Position, bytes]:
    """A position reached by a few turns of random legal play from either setup."""
    seed = draw(st.binary(min_size=1, max_size=8))
    options = {
        "setup": draw(st.sampled_from(["seed", "alt"])),
        "half_stays": draw(st.sampled_from(["floor", "ceil"])),
    }
    state = GAME.new_game(options, Chance(seed, "properties", 0))
    for turn in range(1, draw(st.integers(0, 6)) + 1):
        if state.over:
            break
        orders = {}
        for seat in GAME.seats:
            legal = list(GAME.legal_orders(state, seat))
            orders[seat] = legal[draw(st.integers(0, len(legal) - 1))]
        state = GAME.resolve(state, orders, Chance(seed, "properties", turn)).state
    return state, seed


@st.composite
def odd_positions(draw: st.DrawFn) -> tuple[Position, bytes]:
    """A position built freely: any units anywhere, any hands, any turn and losses."""
    france_left, spain_left = 30, 10
    areas: dict[str, list[int]] = {}
    for area in AREAS:
        french = draw(st.integers(0, min(3, france_left)))
        spanish = draw(st.integers(0, min(2, spain_left)))
        france_left -= french
        spain_left -= spanish
        areas[area] = [french, spanish]
    stacks = {}
    for stack in STACKS:
        stacks[stack] = draw(st.integers(0, min(5, france_left)))
        france_left -= stacks[stack]
    cards = [card.id for card in card_data().cards if card.window != "on-draw"]
    held = draw(st.lists(st.sampled_from(cards), unique=True, max_size=8))
    in_play = [c for c in held if card_data().card(c).window == "lasting" and draw(st.booleans())]
    hands: dict[str, list[str]] = {"france": [], "spain": []}
    for card_id in held:
        if card_id not in in_play:
            hands[card_data().card(card_id).side].append(card_id)
    aside = {"france": min(1, france_left), "spain": draw(st.integers(0, min(2, spain_left)))}
    losses = {
        "france": draw(st.integers(0, min(3, france_left - aside["france"]))),
        "spain": draw(st.integers(0, spain_left - aside["spain"])),
    }
    data: dict[str, Any] = {
        "turn": draw(st.integers(1, 10)),
        "options": {"half_stays": draw(st.sampled_from(["floor", "ceil"]))},
        "areas": areas,
        "off_map": stacks,
        "losses": losses,
        "set_aside": aside,
        "hands": hands,
        "in_play": in_play,
    }
    position = read_position(data)
    assert not isinstance(position, list), position
    if position.loss_limit() <= position.losses.france:
        position = read_position({**data, "in_play": [], "losses": {"france": 0}})
        assert not isinstance(position, list)
    return position, draw(st.binary(min_size=1, max_size=4))


def _orders(state: Position, picks: list[int]) -> dict[str, Any]:
    orders = {}
    for seat, pick in zip(GAME.seats, picks, strict=True):
        legal = list(GAME.legal_orders(state, seat))
        orders[seat] = legal[pick % len(legal)]
    return orders


@FAST
@given(
    st.one_of(played_positions(), odd_positions()),
    st.lists(st.integers(0, 99), min_size=2, max_size=2),
)
def test_units_are_conserved_and_legal_orders_never_crash(
    sample: tuple[Position, bytes], picks: list[int]
) -> None:
    state, seed = sample
    assert conserved(state)
    if state.over:
        return
    resolution = GAME.resolve(state, _orders(state, picks), Chance(seed, "p", state.turn))
    after = resolution.state
    assert conserved(after)
    assert all(count >= 0 for side in GAME.seats for count in after.units[side])
    assert after.losses.france >= state.losses.france and after.losses.spain >= state.losses.spain
    assert GAME.load(json.loads(json.dumps(GAME.dump(after)))) == after


@FAST
@given(
    st.one_of(played_positions(), odd_positions()),
    st.lists(st.integers(0, 99), min_size=2, max_size=2),
)
def test_same_inputs_same_result(sample: tuple[Position, bytes], picks: list[int]) -> None:
    state, seed = sample
    if state.over:
        return
    orders = _orders(state, picks)
    first = GAME.resolve(state, orders, Chance(seed, "p", state.turn))
    second = GAME.resolve(state, orders, Chance(seed, "p", state.turn))
    assert GAME.dump(first.state) == GAME.dump(second.state)
    assert first.outcomes == second.outcomes and first.events == second.events
    assert json.dumps(first.facts, sort_keys=True) == json.dumps(second.facts, sort_keys=True)


@FAST
@given(played_positions(), st.sampled_from(GAME.seats), st.text(max_size=200))
def test_any_text_gets_receipts_never_a_crash(
    sample: tuple[Position, bytes], seat: str, text: str
) -> None:
    state, _ = sample
    report = GAME.parse_orders(state, seat, text)
    for line in report.lines:
        if line.status.value == "rejected":
            assert line.code in CODES and line.reason
        elif line.status.value == "accepted":
            assert line.canonical


REF = st.sampled_from([*AREAS, *STACKS, "22", "0"])


@FAST
@given(
    st.one_of(played_positions(), odd_positions()),
    st.sampled_from(GAME.seats),
    st.lists(st.tuples(REF, REF, st.one_of(st.none(), st.integers(0, 8))), max_size=6),
)
def test_illegal_moves_are_always_refused_with_a_reason(
    sample: tuple[Position, bytes], seat: str, moves: list[tuple[str, str, int | None]]
) -> None:
    state, _ = sample
    if state.over:
        return
    the_board = board()
    lines = [f"{a}-{b}" + ("" if n is None else f" x{n}") for a, b, n in moves]
    report = GAME.parse_orders(state, seat, "\n".join(lines))
    for line, (origin, destination, count) in zip(report.lines, moves, strict=True):
        if line.status.value == "rejected":
            assert line.code in CODES and line.reason
            continue
        assert line.status.value == "accepted"
        if origin in the_board.stack_gate:
            assert seat == "france" and the_board.stack_gate[origin] == destination
            assert 0 < (count or 1) <= state.stack(origin)
            continue
        assert the_board.adjacent(origin, destination)
        assert state.at(seat, origin) > 0
        if seat == "france":
            assert state.at("spain", origin) == 0, "pinned French units moved"
            assert count is None or 0 < count <= state.at(seat, origin)
    if report.orders is not None:
        counted = {
            move["path"][0]
            for move in report.orders["moves"]
            if move["path"][0] not in the_board.main_streets
        }
        if seat == "france":
            assert len(counted) <= the_board.rules.france_group_limit
        else:
            origins = [move["path"][0] for move in report.orders["moves"]]
            assert len(origins) == len(set(origins)), "Spain split a group"


RAW_MOVE = st.fixed_dictionaries(
    {
        "path": st.lists(REF, min_size=1, max_size=4),
        "units": st.one_of(st.none(), st.integers(-1, 9)),
    }
)
RAW_SET = st.fixed_dictionaries(
    {
        "add": st.booleans(),
        "take": st.one_of(st.none(), st.sampled_from([c.id for c in card_data().cards])),
        "plays": st.lists(
            st.fixed_dictionaries(
                {
                    "card": st.sampled_from([c.id for c in card_data().cards]),
                    "target": st.one_of(st.none(), REF),
                    "move": st.one_of(st.none(), RAW_MOVE),
                }
            ),
            max_size=3,
        ),
        "aims": st.dictionaries(st.sampled_from(["F-ART", "S-MOL", "F-COR"]), REF, max_size=2),
        "moves": st.lists(RAW_MOVE, max_size=6),
        "draw": st.booleans(),
    }
)


@FAST
@given(st.one_of(played_positions(), odd_positions()), RAW_SET, RAW_SET)
def test_any_order_json_is_checked_again_at_adjudication(
    sample: tuple[Position, bytes], france: dict[str, Any], spain: dict[str, Any]
) -> None:
    """Order sets that never went through the parser: refused items become outcomes with a
    code, the rest is adjudicated, and nothing crashes or breaks conservation."""
    state, seed = sample
    if state.over:
        return
    shapes = [order_set_from_json(raw) for raw in (france, spain)]
    if any(isinstance(shape, Refusal) for shape in shapes):  # not an order set at all: refused
        with pytest.raises(ValueError, match="2 de Mayo orders"):
            GAME.resolve(state, {"france": france, "spain": spain}, Chance(seed, "j", 1))
        return
    resolution = GAME.resolve(state, {"france": france, "spain": spain}, Chance(seed, "j", 1))
    assert conserved(resolution.state)
    for outcome in resolution.outcomes:
        assert outcome.code and outcome.detail
