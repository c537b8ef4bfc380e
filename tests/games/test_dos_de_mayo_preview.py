"""The order checker's picture of 2 de Mayo orders: the parsed orders as the facts the turn
maps draw (arrows, card and hold tags), nothing resolved and nothing hidden drawn."""

from __future__ import annotations

from tiny_game import GAME as TINY

from adjudicator.core.chance import Chance
from adjudicator.games import registry
from adjudicator.services.reading import checker

RULES = registry.games()["2demayo"]


def facts_of(seat: str, text: str) -> dict:
    state = checker.opening(RULES)
    report = RULES.parse_orders(state, seat, text)
    assert report.orders is not None and not report.rejected, report
    found = RULES.preview_facts(state, seat, report.orders)
    assert found is not None
    return dict(found)


def test_moves_are_drawn_as_ordered_with_their_units() -> None:
    facts = facts_of("france", "TAKE MURAT\n16-14 x1\n1-10")
    moves = {tuple(move["path"]): move for move in facts["moves"]}
    assert moves[("16", "14")]["units"] == 1
    # Without a count a French group moves the units the other lines leave: both of 1's.
    assert moves[("1", "10")]["units"] == 2
    assert all(move["result"] == "moved" and move["side"] == "france" for move in moves.values())
    # 16 keeps a unit and 6, 10 and 20 are not ordered: they hold; 1 left whole.
    assert set(facts["holds"]) == {"6", "10", "16", "20"}


def test_card_plays_are_marked_where_they_act() -> None:
    facts = facts_of("france", "TAKE ARTILLERY\nPLAY ARTILLERY\nARTILLERY 16")
    assert {(play["name"], play["at"]) for play in facts["plays"]} >= {("Artillery", "16")}


def test_nothing_is_resolved_and_the_picture_changes_with_the_orders() -> None:
    state = checker.opening(RULES)
    before = RULES.dump(state)
    view = RULES.view(state, None)
    one = RULES.render(view, facts_of("france", "16-14 x1"))
    other = RULES.render(view, facts_of("france", "1-10 x1"))
    assert one != other and one != RULES.render(view, None)
    assert RULES.dump(state) == before


def test_the_picture_shows_only_what_the_viewer_may_see() -> None:
    state = checker.opening(RULES)
    facts = facts_of("spain", "9-14")
    for salt in range(3):
        hidden = RULES.scramble_hidden(state, None, salt)
        assert RULES.render(RULES.view(hidden, None), facts) == RULES.render(
            RULES.view(state, None), facts
        )


def test_a_game_without_a_preview_draws_none() -> None:
    # Every built-in game draws one; the contract's default draws none.
    state = TINY.new_game(TINY.option_defaults(), Chance(b"tiny", "tiny", 0))
    assert (
        TINY.preview_facts(state, TINY.seats[0], TINY.default_orders(state, TINY.seats[0])) is None
    )
    for rules in registry.games().values():
        opening = checker.opening(rules)
        for seat in rules.seats:
            report = rules.parse_orders(
                opening, seat, rules.orders_text(rules.default_orders(opening, seat)) or ""
            )
            if report.orders is not None:
                assert rules.preview_facts(opening, seat, report.orders) is not None, rules.key
