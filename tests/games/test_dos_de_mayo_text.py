"""Canonical order text: what a scripted player mails is read back as the same order set."""

from __future__ import annotations

import random
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.games import registry

GAME = registry.games()["2demayo"]


def test_every_legal_set_round_trips_through_its_text() -> None:
    chooser = random.Random(7)
    checked = 0
    for seed in range(12):
        state: Any = GAME.new_game(GAME.option_defaults(), Chance(bytes([seed]) * 32, "t", 0))
        for turn in range(1, 11):
            if GAME.outcome(state).finished:
                break
            chosen = {}
            for seat in GAME.pending(state):
                for orders in GAME.legal_orders(state, seat):
                    text = GAME.orders_text(orders)
                    assert text is not None
                    report = GAME.parse_orders(state, seat, text)
                    assert report.ok, (text, [line.reason for line in report.rejected])
                    assert report.orders == orders, text
                    checked += 1
                chosen[seat] = chooser.choice(GAME.legal_orders(state, seat))
            state = GAME.resolve(state, chosen, Chance(bytes([seed]) * 32, "t", turn)).state
    assert checked > 200


def test_unusable_json_gives_no_text() -> None:
    assert GAME.orders_text({"moves": "everywhere"}) is None
    assert registry.games()["thermopyles"].orders_text({"action": "retreat"}) is None


def test_the_description_counts_turns_of_the_whole_game() -> None:
    state: Any = GAME.new_game(GAME.option_defaults(), Chance(b"d" * 32, "t", 0))
    orders = {seat: GAME.default_orders(state, seat) for seat in GAME.pending(state)}
    state = GAME.resolve(state, orders, Chance(b"d" * 32, "t", 1)).state
    assert "Turn 2 of 10, in play." in GAME.describe(GAME.view(state, None))


def test_no_card_text_carries_the_rules_references_source_marks() -> None:
    """ "(seed)" in the rules reference says where a rule comes from; to a player it reads as the
    dice's seed, so no card's text, in any language, carries it."""
    from adjudicator.games.dos_de_mayo.cards import card_data
    from adjudicator.games.dos_de_mayo.help import card_help
    from adjudicator.i18n import speaking

    for lang in ("en", "es", "ru"):
        with speaking(lang):
            for card in card_data().cards:
                text = card_help(card)
                assert "(seed)" not in text and "[house]" not in text, (lang, card.id, text)
