"""Order sets stored as JSON read back through the shared codec: a set of another shape is a
refusal that says what is wrong, never an exception."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core.refusal import Refusal
from adjudicator.games.dos_de_mayo.orders import Aim, Move, OrderSet, Play, order_set_from_json
from adjudicator.games.thermopyles.actions import Action, action_from_json

FULL = {
    "add": False,
    "take": "F-ART",
    "plays": [{"card": "F-MAM", "target": None, "move": {"path": ["16", "14", "9"], "units": 2}}],
    "aims": {"F-ART": "14"},
    "moves": [{"path": ["16", "12"], "units": 2}, {"path": ["14", "9"], "units": None}],
    "draw": True,
}


def test_a_2_de_mayo_order_set_reads_back_and_writes_the_same_json() -> None:
    read = order_set_from_json(FULL)
    assert read == OrderSet(
        take="F-ART",
        plays=(Play("F-MAM", None, Move(("16", "14", "9"), 2)),),
        aims=(Aim("F-ART", "14"),),
        moves=(Move(("16", "12"), 2), Move(("14", "9"))),
    )
    assert isinstance(read, OrderSet) and read.to_json() == FULL
    assert order_set_from_json({}) == OrderSet()  # every key has its default


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("16-12", "the order set must be a JSON object"),
        ({"moves": {}}, "moves: expected a list"),
        ({"moves": [{"path": ["16", 12]}]}, "moves[0].path[1]: expected text"),
        ({"moves": [{"path": ["16"]}]}, "a move's path must list two or three areas"),
        (
            {"moves": [{"path": ["16", "12"], "units": 0}]},
            "a move's units must be a positive count or null",
        ),
        ({"plays": [{"card": "F-XXX"}]}, "a play must name a known card: 'F-XXX'"),
        ({"plays": [{"target": "14"}]}, "plays[0].card is missing"),
        ({"take": "S-MOL!"}, "unknown start card 'S-MOL!'"),
        ({"aims": {"F-XXX": "14"}}, "aims must name known cards"),
        ({"aims": ["F-ART"]}, "aims: expected an object mapping a card id to an area"),
        ({"draw": "yes"}, "draw: expected true or false"),
    ],
)
def test_a_2_de_mayo_order_set_of_another_shape_is_refused(data: Any, reason: str) -> None:
    refused = order_set_from_json(data)
    assert isinstance(refused, Refusal) and refused.reason == reason


def test_a_thermopyles_action_reads_back() -> None:
    fight = {"discard": None, "action": "fight", "value": 17, "support": 1}
    assert action_from_json(fight) == Action("fight", value=17, support=1)
    retreat = {"discard": 3, "action": "retreat", "draw": False}
    assert action_from_json(retreat) == Action("retreat", draw=False, discard=3)
    for action in (Action("fight", value=17, support=1), Action("retreat", discard=3)):
        assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "the order set must be a JSON object"),
        ({"action": "charge"}, "action: expected 'fight' or 'retreat'"),
        ({"action": "retreat", "draw": 1}, "draw: expected true or false"),
        ({"action": "retreat", "discard": True}, "discard: expected a whole number"),
        ({"action": "fight"}, "a fight needs a card value and a support count of 0 or more"),
        (
            {"action": "fight", "value": 3, "support": -1},
            "a fight needs a card value and a support count of 0 or more",
        ),
    ],
)
def test_a_thermopyles_action_of_another_shape_is_refused(data: Any, reason: str) -> None:
    refused = action_from_json(data)
    assert isinstance(refused, Refusal) and refused.reason == reason
