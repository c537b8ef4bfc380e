"""What each seat owes is worked out once per position, kept by the position's stored state
(services/record/positions.py): never by a row's id, which another database or a rollback
gives to another position."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core.chance import Chance
from adjudicator.games import registry
from adjudicator.models import Turn
from adjudicator.services.record import positions

SEED = bytes(range(32))


def turn_of(state: Any, row_id: int) -> Turn:
    rules = registry.games()["2demayo"]
    return Turn(id=row_id, game_id=1, number=0, state=rules.dump(state))


def test_the_same_position_is_asked_of_the_rules_once_and_another_under_the_same_id_anew() -> None:
    rules = registry.games()["2demayo"]
    start = rules.new_game({}, Chance(SEED, "memo", 0))
    orders = {"france": "TAKE MURAT\n16-14 x1\nDRAW", "spain": "9-14\nNODRAW"}
    parsed = {seat: rules.parse_orders(start, seat, text).orders for seat, text in orders.items()}
    later = rules.resolve(start, parsed, Chance(SEED, "memo", 1)).state
    asked: list[Any] = []
    with pytest.MonkeyPatch.context() as patch:
        real = type(rules).pending

        def counted(self: Any, state: Any) -> Any:
            asked.append(state)
            return real(self, state)

        patch.setattr(type(rules), "pending", counted)
        patch.setattr(positions, "_OWED", positions.Recent(8))
        first = positions.Snapshot(rules, turn_of(start, 7)).owed
        again = positions.Snapshot(rules, turn_of(start, 8)).owed
        other = positions.Snapshot(rules, turn_of(later, 7)).owed
    assert len(asked) == 2  # the start once, the later position once
    assert first == again == dict(rules.pending(start))
    assert other == dict(rules.pending(later)) and other != first
