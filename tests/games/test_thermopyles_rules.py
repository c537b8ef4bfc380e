"""Thermopyles rules: positions built by hand, dice chosen by picking seeds, each rule checked."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from collections.abc import Sequence
from importlib import resources
from typing import Any

import pytest

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.thermopyles import GAME, rules, strategy
from adjudicator.games.thermopyles.actions import Action, action_from_json
from adjudicator.games.thermopyles.cards import card_data, parse_card_data
from adjudicator.games.thermopyles.state import Position, Settings, dump, load

STREAM = "rules-test"


def build(
    hand: Sequence[int],
    near: str | None = "20b",
    far: str | None = "17b",
    persian_deck: Sequence[str] | None = None,
    spartan_deck: Sequence[int] | None = None,
    graveyard: Sequence[str] = (),
    marker: int = 1,
    supports: int = 4,
    win_when: str = "deck-empty",
    hand_limit: int = 5,
) -> Position:
    """A legal position with the named cards placed; every other card goes to a deck (or, when
    the deck is given, to the discard pile), so the card-conservation check on load holds."""
    data = card_data()
    rest = Counter(data.spartans) - Counter(hand)
    deck = sorted(rest.elements()) if spartan_deck is None else list(spartan_deck)
    spartan_discard = rest - Counter(deck)
    face_up = {card for card in (near, far) if card is not None}
    unplaced = [c.id for c in data.persians if c.id not in face_up and c.id not in graveyard]
    persians = unplaced if persian_deck is None else list(persian_deck)
    position = Position(
        settings=Settings(win_when, hand_limit),
        spartan_deck=tuple(deck),
        hand=tuple(sorted(hand)),
        spartan_discard=tuple(sorted(spartan_discard.elements())),
        persian_deck=tuple(persians),
        near=near,
        far=far,
        graveyard=tuple(graveyard),
        persian_discard=tuple(card for card in unplaced if card not in persians),
        marker=marker,
        supports=supports,
        turn=5,
    )
    return load(dump(position))  # the same checks a stored state gets


def chance_rolling(support: Sequence[int] = (), free: Sequence[int] = ()) -> Chance:
    """A Chance for turn 6 whose seed makes the support and free dice come up as asked."""
    for number in range(200_000):
        seed = f"pick-{number}".encode()
        probe = Chance(seed, STREAM, 6)
        if [probe.roll("support") for _ in support] == list(support) and [
            probe.roll("free-die") for _ in free
        ] == list(free):
            return Chance(seed, STREAM, 6)
    raise AssertionError("no seed found")


def no_dice() -> Chance:
    return Chance(b"no dice expected", STREAM, 6)


def play(position: Position, order: dict[str, Any], chance: Chance | None = None) -> rules.Turn:
    action = action_from_json(order)
    assert isinstance(action, Action)
    return rules.resolve(position, action, chance or no_dice())


def fight(value: int, support: int = 0, discard: int | None = None) -> dict[str, Any]:
    return {"discard": discard, "action": "fight", "value": value, "support": support}


def retreat(draw: bool = True, discard: int | None = None) -> dict[str, Any]:
    return {"discard": discard, "action": "retreat", "draw": draw}


# --- card data ------------------------------------------------------------------------------


def test_card_data_matches_the_reference() -> None:
    data = card_data()
    assert len(data.spartans) == 20 and sum(data.spartans) == 300
    assert Counter(data.spartans) == Counter(
        {10: 1, 11: 2, 12: 2, 13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 2, 20: 1}
    )
    whites = Counter(card.white for card in data.persians)
    assert whites == Counter(
        {22: 1, 21: 4, 20: 4, 19: 4, 18: 4, 17: 4, 16: 2, 15: 2, 14: 1, 13: 1, 12: 1}
    )
    assert all(card.red == card.white + 3 for card in data.persians)
    bonus = sorted(card.white for card in data.persians if card.bonus)
    assert bonus == [15, 16, 17, 18, 19, 20, 21, 22]
    assert (data.track_length, sorted(data.free_die_spaces)) == (7, [3, 6])
    assert (data.supports, data.opening_hand, data.graveyard_target, data.hand_limit) == (
        4,
        4,
        12,
        5,
    )


def _raw_cards() -> dict[str, Any]:
    text = resources.files("adjudicator.games.thermopyles").joinpath("cards.toml").read_text()
    return tomllib.loads(text)


def test_card_data_problems_are_all_reported() -> None:
    raw = _raw_cards()
    raw["spartans"][0]["value"] = 9  # the 300 become 299
    raw["persians"][1]["id"] = raw["persians"][0]["id"]
    raw["persians"][2]["red"] = 99
    raw["battle"]["free_die_spaces"] = [3, 9]
    problems = parse_card_data(raw)
    assert isinstance(problems, list)
    text = "\n".join(problems)
    assert "checks.spartan_sum is 300 but the cards give 299" in text
    assert "used more than once" in text
    assert "red 99" in text
    assert "space 9" in text
    assert not isinstance(parse_card_data(_raw_cards()), list)


# --- setup ----------------------------------------------------------------------------------


def test_new_game_deals_as_the_rules_say() -> None:
    chance = Chance(b"setup", STREAM, 0)
    position = GAME.new_game({}, chance)
    assert len(position.hand) == 4 and list(position.hand) == sorted(position.hand)
    assert len(position.spartan_deck) == 16
    assert position.near and position.far and len(position.persian_deck) == 26
    assert (position.marker, position.supports, position.turn) == (1, 4, 0)
    assert [event.label for event in chance.events] == ["spartan-deck", "persian-deck"]
    assert position.settings == Settings("deck-empty", 5)
    again = GAME.new_game({}, Chance(b"setup", STREAM, 0))
    assert again == position
    assert GAME.new_game({}, Chance(b"other", STREAM, 0)) != position


def test_options_are_kept_in_the_state() -> None:
    options = {"win_when": "all-beaten", "hand_limit": "6"}
    position = GAME.new_game(options, Chance(b"opts", STREAM, 0))
    assert position.settings == Settings("all-beaten", 6)
    assert load(dump(position)).settings == Settings("all-beaten", 6)
    assert isinstance(GAME.check_options({"hand_limit": "2"}), Refusal)
    with pytest.raises(ValueError):
        GAME.new_game({"win_when": "never"}, Chance(b"opts", STREAM, 0))


# --- fights ---------------------------------------------------------------------------------


def test_beating_both_graveyard_at_red_discard_below_and_bonus_draw() -> None:
    # Near 17a: 17/20 with the bonus; far 19b: 19/22. Strength 20 reaches the near red exactly
    # (Graveyard) and the far white but not its red (discard).
    position = build([20, 11], near="17a", far="19b", persian_deck=["12a", "13a", "14a"],
                     spartan_deck=[14, 15])  # fmt: skip
    turn = play(position, fight(20))
    after = turn.position
    assert turn.code == "fight-won-both"
    assert after.graveyard == ("17a",) and after.persian_discard[-1] == "19b"
    assert after.hand == (11, 14)  # the 20 is spent; one bonus draw brought the 14
    assert after.spartan_deck == (15,) and after.spartan_discard[-1] == 20
    assert (after.near, after.far, after.persian_deck) == ("12a", "13a", ("14a",))
    assert turn.facts["strength"] == 20 and turn.facts["dice"] == []
    assert turn.facts["drawn"] == {"count": 1, "values": [14], "asked": 1}
    assert turn.facts["refill"]["slid"] is False and len(turn.facts["refill"]["dealt"]) == 2
    assert after.turn == position.turn + 1


def test_near_holds_so_far_is_never_fought() -> None:
    position = build([15, 19], near="18b", far="12a", persian_deck=["13a"])
    turn = play(position, fight(15))
    after = turn.position
    assert turn.code == "fight-lost"
    assert (after.near, after.far, after.persian_deck) == ("18b", "12a", ("13a",))
    assert after.hand == (19,) and after.spartan_discard[-1] == 15
    assert after.graveyard == () and after.beaten == position.beaten
    assert turn.facts["fight"]["far"]["fought"] is False
    assert not after.over  # a lost fight has no other penalty


def test_only_near_beaten_far_slides_and_one_card_is_dealt() -> None:
    position = build([16, 12], near="15b", far="21b", persian_deck=["13a", "14a"])
    turn = play(position, fight(16))
    after = turn.position
    assert turn.code == "fight-won-near"
    assert after.persian_discard[-1] == "15b"  # 16 < red 18: discard, not Graveyard
    assert (after.near, after.far, after.persian_deck) == ("21b", "13a", ("14a",))
    assert turn.facts["refill"]["slid"] is True
    assert [card["id"] for card in turn.facts["refill"]["dealt"]] == ["13a"]


def test_support_and_free_dice_add_to_strength_and_are_recorded() -> None:
    # Marker on 3 (Hot Gates): a free die as well. 11 + 6 + 5 + 4 = 26 beats 22/25 and 21/24.
    position = build([11], near="22a", far="21b", marker=3, persian_deck=["12a", "13a", "14a"],
                     spartan_deck=[10, 12])  # fmt: skip
    chance = chance_rolling(support=[6, 5], free=[4])
    turn = play(position, fight(11, support=2), chance)
    assert turn.facts["strength"] == 26
    assert turn.facts["dice"] == [
        {"purpose": "support", "value": 6},
        {"purpose": "support", "value": 5},
        {"purpose": "free-die", "value": 4},
    ]
    assert [e.label for e in chance.events] == ["support", "support", "free-die"]
    after = turn.position
    assert after.supports == 2
    assert after.graveyard == ("22a", "21b")
    assert after.hand == (10,)  # the 22a carries the bonus: one draw


def test_free_die_only_on_its_spaces() -> None:
    for marker, dice in ((2, 0), (3, 1), (4, 0), (6, 1)):
        chance = Chance(b"free", STREAM, 6)
        play(build([18, 19], marker=marker), fight(18), chance)
        assert len(chance.events) == dice, marker


def test_bonus_draw_stops_at_an_empty_deck() -> None:
    position = build([20, 10], near="17a", far="15a", spartan_deck=[])
    turn = play(position, fight(20))
    assert turn.facts["drawn"] == {"count": 0, "values": [], "asked": 2}
    assert turn.position.hand == (10,)


# --- retreat --------------------------------------------------------------------------------


def test_retreat_moves_the_marker_and_draws_unless_nodraw() -> None:
    position = build([12], marker=2, spartan_deck=[17, 18])
    turn = play(position, retreat())
    assert turn.code == "retreated" and turn.position.marker == 3
    assert turn.position.hand == (12, 17) and turn.position.spartan_deck == (18,)
    quiet = play(position, retreat(draw=False))
    assert quiet.position.marker == 3 and quiet.position.hand == (12,)


def test_retreat_onto_seven_loses_at_once_without_a_draw() -> None:
    turn = play(build([12], marker=6, spartan_deck=[17]), retreat())
    assert turn.code == "retreated-lost"
    assert turn.position.status == "lost" and turn.position.end_reason == "front"
    assert turn.position.hand == (12,)
    assert turn.facts["end"]["reason"] == "front"


def test_empty_hand_allows_only_retreat() -> None:
    position = build([], spartan_deck=[13])
    kinds = {action.kind for action in rules.legal_actions(position)}
    assert kinds == {"retreat"}
    problem = rules.check(position, Action("fight", value=13))
    assert problem is not None and problem.code == "empty-hand"
    with pytest.raises(ValueError):
        play(position, fight(13))


# --- hand limit -----------------------------------------------------------------------------


def test_declared_discard_then_action() -> None:
    position = build([11, 12, 15, 17, 18, 19], near="12a", far="13a")
    turn = play(position, fight(17, discard=15))
    assert turn.facts["discards"] == [{"value": 15, "why": "declared"}]
    assert turn.position.hand == (11, 12, 18, 19)
    assert 15 in turn.position.spartan_discard


def test_missing_discard_throws_the_lowest_but_never_the_fighting_card() -> None:
    position = build([11, 12, 15, 17, 18, 19], near="12a", far="13a")
    plain = play(position, retreat(draw=False))
    assert plain.facts["discards"] == [{"value": 11, "why": "hand-limit"}]
    assert plain.position.hand == (12, 15, 17, 18, 19)
    with_lowest = play(position, fight(11))
    assert with_lowest.facts["discards"] == [{"value": 12, "why": "hand-limit"}]
    assert with_lowest.position.hand == (15, 17, 18, 19)


def test_discard_only_when_over_the_limit_and_draws_may_exceed_it() -> None:
    position = build([11, 12, 15, 17, 18], spartan_deck=[19])
    assert rules.check(position, Action("retreat", discard=11)) is not None
    assert all(action.discard is None for action in rules.legal_actions(position))
    turn = play(position, retreat())
    assert len(turn.position.hand) == 6  # the draw is taken; the next order owes a DISCARD
    assert rules.excess(turn.position) == 1
    assert {a.discard for a in rules.legal_actions(turn.position)} == {None, 11, 12, 15, 17, 18, 19}


def test_hand_limit_option_is_used() -> None:
    position = build([11, 12, 15, 17, 18, 19], hand_limit=6)
    assert rules.excess(position) == 0
    assert play(position, retreat(draw=False)).facts["discards"] == []


# --- the end --------------------------------------------------------------------------------


def test_twelfth_graveyard_card_wins() -> None:
    grave = ["21a", "21c", "21d", "20a", "20c", "20d", "19a", "19c", "19d", "18a", "18c"]
    position = build([18, 12], near="12a", far="22a", graveyard=grave)
    turn = play(position, fight(18))
    assert len(turn.position.graveyard) == 12
    assert (turn.position.status, turn.position.end_reason) == ("won", "graveyard")
    assert GAME.pending(turn.position) == {}


def test_persian_deck_running_out_wins_by_default_but_not_under_all_beaten() -> None:
    for win_when, status in (("deck-empty", "won"), ("all-beaten", "playing")):
        position = build([18, 17], near="12a", far="22a", persian_deck=["13a"], win_when=win_when)
        turn = play(position, fight(18))
        assert turn.position.persian_deck == ()
        assert (turn.position.near, turn.position.far) == ("22a", "13a")
        assert turn.position.status == status, win_when


def test_all_beaten_wins_when_the_last_persians_fall() -> None:
    position = build([20, 17], near="12a", far="13a", persian_deck=[], win_when="all-beaten")
    turn = play(position, fight(20))
    assert (turn.position.near, turn.position.far) == (None, None)
    assert (turn.position.status, turn.position.end_reason) == ("won", "all-beaten")


def test_last_persian_alone_on_the_near_slot() -> None:
    position = build([14, 20], near="12a", far="22a", persian_deck=[], win_when="all-beaten")
    turn = play(position, fight(14))
    assert (turn.position.near, turn.position.far) == ("22a", None)
    final = play(turn.position, fight(20, support=0), chance_rolling())
    assert final.position.status == "playing"  # 20 < 22: it holds
    assert final.code == "fight-lost" and final.facts["fight"]["far"] is None


def test_no_spartans_left_loses_but_a_win_is_checked_first() -> None:
    lost = play(build([15], near="18b", far="12a", spartan_deck=[]), fight(15))
    assert (lost.position.status, lost.position.end_reason) == ("lost", "no-spartans")
    # The same last card, but it empties the Persian deck: the win comes first.
    position = build([19], near="18b", far="12a", spartan_deck=[], persian_deck=["13a"])
    won = play(position, fight(19))
    assert not won.position.hand and not won.position.spartan_deck
    assert (won.position.status, won.position.end_reason) == ("won", "deck-empty")


def test_outcome_scores_order_a_leaderboard() -> None:
    grave = ["21a", "21c", "21d", "20a", "20c", "20d", "19a", "19c", "19d", "18a", "18c"]
    won = play(build([18, 12], near="12a", far="22a", graveyard=grave), fight(18)).position
    lost = play(build([12], marker=6, graveyard=grave[:3]), retreat()).position
    won_outcome, lost_outcome = GAME.outcome(won), GAME.outcome(lost)
    assert won_outcome.finished and won_outcome.winners == ("spartans",)
    assert lost_outcome.finished and lost_outcome.winners == ()
    assert won_outcome.score == (1, 12, -6) and lost_outcome.score == (0, 3, -6)
    assert won_outcome.score > lost_outcome.score
    assert "Graveyard" in won_outcome.summary
    assert not GAME.outcome(build([12])).finished


# --- the contract around the rules ----------------------------------------------------------


def test_resolution_reports_events_outcome_and_json_facts() -> None:
    position = build([11, 12, 15], near="22a", far="21b", marker=3)
    chance = chance_rolling(support=[2], free=[1])
    resolution = GAME.resolve(position, {"spartans": fight(15, support=1)}, chance)
    assert resolution.events == tuple(chance.events) and len(resolution.events) == 2
    (outcome,) = resolution.outcomes
    assert (outcome.seat, outcome.order, outcome.code) == (
        "spartans",
        "FIGHT 15 SUPPORT 1",
        "fight-lost",
    )
    facts = json.loads(json.dumps(resolution.facts))
    assert facts["understood"] == "FIGHT 15 SUPPORT 1" and facts["strength"] == 18
    assert facts["fight"]["near"]["white"] == 22 and facts["fight"]["near"]["beaten"] is False
    assert facts["after"]["supports"] == 3 and facts["end"] is None


def test_resolve_refuses_illegal_orders() -> None:
    position = build([12, 15])
    for orders in (fight(17), fight(12, support=5), {"action": "hold"}, retreat(discard=12)):
        with pytest.raises(ValueError):
            GAME.resolve(position, {"spartans": orders}, no_dice())


def test_missing_orders_resolve_as_the_default_retreat() -> None:
    position = build([12, 15], marker=2)
    resolution = GAME.resolve(position, {}, no_dice())
    assert resolution.outcomes[0].code == "retreated" and resolution.state.marker == 3
    assert GAME.default_orders(position, "spartans") == retreat()


def test_load_refuses_damaged_or_foreign_records() -> None:
    data = dump(build([12, 15]))
    assert load(data) == build([12, 15])
    for damage in (
        {"schema": 99},
        {"hand": [12, 15, 15]},
        {"near": "99z"},
        {"status": "paused"},
    ):
        with pytest.raises(ValueError):
            load({**data, **damage})
    with pytest.raises(ValueError):
        load({key: value for key, value in data.items() if key != "marker"})


def test_scramble_really_moves_hidden_cards() -> None:
    position = GAME.new_game({}, Chance(b"scramble", STREAM, 0))
    own = [GAME.scramble_hidden(position, "spartans", salt) for salt in range(5)]
    assert all(s.hand == position.hand for s in own)
    assert any(s.spartan_deck != position.spartan_deck for s in own)
    assert any(s.persian_deck != position.persian_deck for s in own)
    public = [GAME.scramble_hidden(position, None, salt) for salt in range(5)]
    assert any(s.hand != position.hand for s in public)
    assert all(len(s.hand) == len(position.hand) for s in public)
    view = GAME.view(position, None)
    assert "hand" not in view and view["hand_size"] == 4
    assert GAME.view(position, "spartans")["hand"] == list(position.hand)


# --- the competent strategy -----------------------------------------------------------------


def _strategy_win_rate(games: int, first_seed: int) -> float:
    wins = 0
    for number in range(first_seed, first_seed + games):
        seed = number.to_bytes(8, "big")
        position = GAME.new_game({}, Chance(seed, "strategy", 0))
        while not position.over:
            action = strategy.choose(position)
            position = rules.resolve(
                position, action, Chance(seed, "strategy", position.turn + 1)
            ).position
        wins += position.status == "won"
    return wins / games


def test_simple_competent_strategy_wins_about_one_game_in_three() -> None:
    rate = _strategy_win_rate(2000, first_seed=0)
    assert 0.2 <= rate <= 0.45, rate
    # And it is competent: random legal play practically never wins.
    assert rate > 0.1
