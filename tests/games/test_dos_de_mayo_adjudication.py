"""2 de Mayo golden cases: every file in tests/games/cases/dos_de_mayo, read by golden.py.

A case is a position before, each side's orders as text (read by the real parser), and what must
follow: the position after (or "same") and each order's outcome or receipt. The cases go through
``stateless.adjudicate_case``, the function behind the adjudication API. The format is in
docs/2demayo-json.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import golden
import pytest

from adjudicator.games.dos_de_mayo import codec
from adjudicator.games.dos_de_mayo.checks import CODES
from adjudicator.games.dos_de_mayo.stateless import adjudicate_case

OUTCOME_CODES = {
    "moved",
    "stopped",
    "failed",
    "played",
    "no-effect",
    "took",
    "drew",
    "no-draw",
    "deck-empty",
    "draw-limit",
    "game-over",
    "too-early",
    "accepted",
    "ignored",
}
SAME_KEYS = ("areas", "off_map", "set_aside", "losses")


ALL = golden.params("dos_de_mayo")


def _text(orders: Any) -> str:
    return "\n".join(orders) if isinstance(orders, list) else str(orders)


def _areas(raw: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Occupied areas only, as (france, spain); accepts the [france, spain] shorthand."""
    found = {}
    for area, entry in raw.items():
        pair = (
            (entry[0], entry[1])
            if isinstance(entry, list)
            else (
                entry.get("france", 0),
                entry.get("spain", 0),
            )
        )
        if any(pair):
            found[str(area)] = pair
    return found


def _stacks(raw: Mapping[str, int]) -> dict[str, int]:
    return {stack: count for stack, count in raw.items() if count}


def _check_after(expected: Any, before: dict[str, Any], after: dict[str, Any]) -> None:
    if expected == "same":
        expected = {key: before[key] for key in SAME_KEYS}
    position = codec.load(after)
    for key, want in expected.items():
        if key == "areas":
            assert _areas(after["areas"]) == _areas(want), "areas after"
        elif key == "off_map":
            assert _stacks(after["off_map"]) == _stacks(want), "off_map after"
        elif key in ("set_aside", "losses", "gone"):
            assert after[key] == {"france": 0, "spain": 0, **want}, key
        elif key == "hand_sizes":
            assert {s: len(h) for s, h in after["hands"].items()} == want, key
        elif key == "deck_sizes":
            assert {s: len(d) for s, d in after["decks"].items()} == want, key
        elif key == "loss_limit":
            assert position.loss_limit() == want, key
        elif key == "initiative":
            assert position.initiative() == want, key
        else:
            assert after[key] == want, key


def _got(side: str, key: str, result: Mapping[str, Any]) -> str:
    """What became of one line (by its text as written) or one order (by its canonical text)."""
    by_order: dict[str, str] = {}
    for outcome in result["outcomes"]:
        if outcome["seat"] == side:
            by_order.setdefault(outcome["order"], outcome["code"])
    for line in result["receipts"][side]:
        if line["text"].strip() == key:
            if line["status"] == "rejected":
                return f"rejected:{line['code']}"
            if line["status"] == "ignored":
                return "ignored"
            return by_order.get(line["canonical"], "accepted")
    return by_order.get(key, "<no such order>")


@pytest.mark.parametrize("case", ALL)
def test_case(case: dict[str, Any]) -> None:
    request = {
        "position": case["position"],
        "orders": {side: _text(text) for side, text in case.get("orders", {}).items()},
        "seed": case.get("seed"),
    }
    result = adjudicate_case(request)
    assert json.loads(json.dumps(result)) == result, "the API answers in plain JSON"
    if "errors" in case:
        assert not result["ok"]
        for fragment in case["errors"]:
            assert any(fragment in error for error in result["errors"]), result["errors"]
        return
    assert result["ok"], result.get("errors")
    before = codec.read_position(case["position"])
    assert not isinstance(before, list)
    _check_after(case.get("after", {}), codec.to_json(before), result["position"])
    for side, table in case.get("outcomes", {}).items():
        for key, want in table.items():
            assert _got(side, key, result) == want, (side, key, result["outcomes"])


def test_enough_cases_and_only_known_codes() -> None:
    assert len(ALL) >= 60
    names = [param.id for param in ALL]
    assert len(names) == len(set(names)), "case names are unique within a file"
    for param in ALL:
        case = param.values[0]
        assert case.get("checks"), f"{param.id} says what it checks"
        for table in case.get("outcomes", {}).values():
            for code in table.values():
                bare = code.removeprefix("rejected:")
                assert code in OUTCOME_CODES or bare in CODES, (param.id, code)


RULES = ("3", "4", "5", "6.1", "6.2", "6.3", "6.4", "6.5", "7", "8")


def test_every_rule_and_card_is_covered() -> None:
    """Each case lists the rules and cards it exercises; every one needs a case, the swaps, the
    half-stays, the draw limit and every card several."""
    from collections import Counter

    from adjudicator.games.dos_de_mayo.cards import card_data

    covered = Counter(tag for param in ALL for tag in param.values[0].get("covers", []))
    for rule in RULES:
        assert covered[rule] >= 1, f"no case covers rule {rule}"
    for card in card_data().cards:
        assert covered[card.id] >= 2, f"{card.id} has {covered[card.id]} cases"
    assert covered["6.2"] >= 5 and covered["4"] >= 5
    half_stays = [p for p in ALL if p.id.startswith("half_stays:")]
    assert len(half_stays) >= 5


def test_the_view_the_renderer_draws_from() -> None:
    """The view's required shape (the renderer and describe read only the view)."""
    from adjudicator.games.dos_de_mayo import GAME

    case = next(p.values[0] for p in ALL if p.id == "setup:seed-setup-opening-moves")
    result = adjudicate_case(
        {
            "position": case["position"],
            "orders": {side: _text(text) for side, text in case["orders"].items()},
        }
    )
    state = codec.load(result["position"])
    for seat in ("france", "spain", None):
        view = GAME.view(state, seat)
        assert view["game"] == "2demayo" and view["seat"] == seat
        assert (view["turn"], view["last_turn"], view["status"]) == (2, 1, "playing")
        assert view["winner"] is None and view["end_reason"] is None
        assert list(view["areas"]) == [str(n) for n in range(1, 22)]
        assert view["areas"]["14"] == {"france": 1, "spain": 3}
        assert view["off_map"] == {"OFF1": 5, "OFF6": 5, "OFF16": 5, "OFF20": 5}
        assert view["set_aside"] == {"france": 1, "spain": 2}
        assert view["losses"] == {"france": 1, "spain": 0}
        assert view["loss_limit"] == 4 and view["initiative"] == "spain"
        assert view["cards_in_play"] == []
        assert view["cards_played_last_turn"] == [
            {"id": "S-MOL", "name": "José Blas Molina y Soriano", "side": "spain", "args": "20"}
        ]
        assert view["hand_sizes"] == {"france": 2, "spain": 1}
        assert ("hand" in view) == (seat is not None)
        moves = {(m["side"], m["from"], m["to"]): m for m in view["last_moves"]}
        assert moves[("france", "16", "14")] == {
            "side": "france",
            "from": "16",
            "to": "14",
            "units": 2,
            "path": ["16", "14"],
            "result": "moved",
            "why": "",
        }
        fight = next(c for c in view["combats"] if c["area"] == "14")
        assert fight == {"area": "14", "strength": {"france": 2, "spain": 3},
                         "lost": {"france": 1, "spain": 0}}  # fmt: skip
        assert view["removed"] == []
    france_hand = [c["id"] for c in GAME.view(state, "france")["hand"]]
    assert france_hand[0] == "F-MUR" and len(france_hand) == 2  # the second: the seeded shuffle
    assert [c["id"] for c in GAME.view(state, "spain")["hand"]] == ["S-MAN"]
