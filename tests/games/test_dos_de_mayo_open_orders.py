"""The mail's "what you can do now" list for 2 de Mayo comes from the checks that judge orders:
every option it offers, mailed alone, is accepted, and every single order a random legal set
holds is on it. Positions from seeded play-outs and freely built ones (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from test_dos_de_mayo_properties import FAST, odd_positions, played_positions

from adjudicator.core.refusal import Refusal
from adjudicator.games.dos_de_mayo import GAME
from adjudicator.games.dos_de_mayo.codec import read_position
from adjudicator.games.dos_de_mayo.open_orders import accepted_alone, entries
from adjudicator.games.dos_de_mayo.orders import Add, Hold, Item, Move, Play, order_set_from_json
from adjudicator.games.dos_de_mayo.state import Position


def _key(item: Item) -> tuple[Any, ...]:
    """What makes an order the one offered: its kind and arguments, not a French unit count."""
    if isinstance(item, Move):
        return ("move", item.path)
    if isinstance(item, Play):
        move = None if item.move is None else item.move.path
        return ("play", item.card, item.target, move)
    return (type(item).__name__, item)


@FAST
@given(st.one_of(played_positions(), odd_positions()))
def test_every_option_is_accepted_alone_and_every_legal_order_is_offered(
    sample: tuple[Position, bytes],
) -> None:
    state, _ = sample
    for seat in GAME.seats:
        offered = [item for entry in entries(state, seat) for item in entry.examples]
        # Every option, filled in and mailed alone, is accepted by the mail's own reader.
        for item in offered:
            report = GAME.parse_orders(state, seat, item.text())
            assert report.ok, (seat, item.text(), [line.reason for line in report.lines])
        keys = {_key(item) for item in offered}
        # Every single order of a random legal set that stands alone is on the list (HOLD is
        # what a group without orders does anyway; the prompt says so).
        for legal_set in GAME.legal_orders(state, seat):
            order_set = order_set_from_json(legal_set)
            assert not isinstance(order_set, Refusal)
            for item in order_set.items():
                if isinstance(item, Hold | Add) or not accepted_alone(state, seat, item):
                    continue
                assert _key(item) in keys, (seat, item.text(), forms(state, seat))


def position(**changes: Any) -> Position:
    data: dict[str, Any] = {
        "turn": 5,
        "areas": {"10": [2, 1], "12": [2, 0], "15": [0, 2]},
        "off_map": {},
        "hands": {"france": [], "spain": []},
        "in_play": [],
    }
    data.update(changes)
    built = read_position(data)
    assert not isinstance(built, list), built
    return built


def forms(state: Position, seat: str) -> list[str]:
    """The list as the mail shows it."""
    return list(GAME.pending(state)[seat].legal)


def test_a_pinned_french_group_is_not_offered_a_move() -> None:
    shown = forms(position(), "france")
    assert not any(form.startswith("10-") for form in shown), shown
    assert any(form.startswith("12-") for form in shown), shown


def test_cards_are_offered_only_when_the_rules_take_them() -> None:
    hands = {"france": ["F-TOQ", "F-BAN"], "spain": ["S-RUI", "S-MOL"]}
    # Turn 9: Curfew is for turn 10; no stack holds a unit for Proclamation.
    france = forms(position(turn=9, hands=hands), "france")
    assert not any("CURFEW" in form or "PROCLAMATION" in form for form in france), france
    assert any("CURFEW" in form for form in forms(position(turn=10, hands=hands), "france"))
    with_stack = forms(position(hands=hands, off_map={"OFF1": 2}), "france")
    assert any(form.startswith("PLAY PROCLAMATION") for form in with_stack), with_stack
    # Ruiz needs Móstoles or Shootings played first; Molina's area must hold both sides.
    spain = forms(position(turn=9, hands=hands), "spain")
    assert not any("RUIZ" in form for form in spain), spain
    assert "PLAY MOLINA 10" in spain, spain
    apart = {"12": [2, 0], "15": [0, 2]}
    alone = forms(position(hands=hands, areas=apart), "spain")
    assert not any("MOLINA" in form for form in alone), alone
