"""Thermopyles in Russian and Spanish: whole games played with the game's own functions inside
``i18n.speaking``, read as a player would (no English sentence left in the position, the prompt,
the outcomes, the dice, the receipts or the summary; Russian plurals in their three forms), the
sentences made in one language written anew in another, and the order words of each language
read as the canonical orders."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.games.thermopyles import GAME, grammar, strategy
from adjudicator.games.thermopyles.state import SEAT, Position

# Words of an English sentence the game writes: none may be left in a Russian or Spanish text
# (matched as whole words; the canonical order forms and the names are taken out first).
ENGLISH = (
    "turn",
    "turns",
    "near",
    "far",
    "marker",
    "support",
    "cards",
    "card",
    "hand",
    "Graveyard",
    "Persian",
    "Persians",
    "Spartan",
    "Spartans",
    "beaten",
    "holds",
    "left",
    "limit",
    "strength",
    "fall",
    "back",
    "draw",
    "Game over",
    "won",
    "lost",
    "in play",
    "Legal",
    "legal",
    "did you mean",
    "you",
    "your",
    "Send",
    "action",
    "empty",
    "none",
    "die",
    "dice",
    "deck",
    "space",
    "white",
    "red",
    "the",
    "of",
    "and",
    "or",
    "to",
    "with",
    "not",
)
# What stays as it is in every language: the canonical order forms (receipts and the archive
# read the same order), the game's and the places' names.
KEPT = re.compile(
    r"\b(FIGHT|SUPPORT|RETREAT|NODRAW|DISCARD)\b|Thermopyles|Hot Gates|Last Stand|Fallen|"
    r"'spartans'|'athenians'"
)
LANGUAGES = ("ru", "es")
# A game whose opening hand is 13, 14, 15, 17.
OPENING = GAME.new_game({}, Chance(b"7", "s", 0))


def english_left(text: str) -> list[str]:
    """The English words left in ``text`` once the canonical forms and the names are out."""
    bare = KEPT.sub(" ", str(text))
    return [word for word in ENGLISH if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", bare)]


def played(seed: bytes) -> Iterator[tuple[Position, Any]]:
    """Every position of a game the competent strategy plays from ``seed``, with the resolution
    that led to it (None for the first)."""
    position = GAME.new_game({}, Chance(seed, "languages", 0))
    resolution = None
    while True:
        yield position, resolution
        if GAME.outcome(position).finished:
            return
        action = strategy.choose(position)
        chance = Chance(seed, "languages", position.turn + 1)
        resolution = GAME.resolve(position, {SEAT: action.to_json()}, chance)
        position = resolution.state


def read_by_the_player(position: Position, resolution: Any) -> list[str]:
    """Everything the player reads of a turn: its outcomes, dice and step report, the position
    in words, the prompt, the brief and the legal forms, the game's summary."""
    texts: list[str] = []
    if resolution is not None:
        texts += [outcome.detail for outcome in resolution.outcomes]
        texts += [GAME.chance_words(event.label) for event in resolution.events]
        texts.append(GAME.step_report(resolution.facts))
    texts.append(GAME.describe(GAME.view(position, SEAT)))
    texts.append(GAME.describe(GAME.view(position, None)))
    for decision in GAME.pending(position).values():
        texts += [decision.prompt, decision.brief, *decision.legal]
    texts.append(GAME.outcome(position).summary)
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", [b"7", b"languages 2", b"languages 3"])
def test_a_whole_game_reads_with_no_english_sentence_left(lang: str, seed: bytes) -> None:
    codes: set[str] = set()
    with i18n.speaking(lang):
        for position, resolution in played(seed):
            if resolution is not None:
                codes |= {outcome.code for outcome in resolution.outcomes}
            for text in read_by_the_player(position, resolution):
                assert english_left(text) == [], text
        summary = GAME.outcome(position).summary
    assert position.over and codes & {"retreated", "fight-won-near", "fight-won-both"}
    opening = {"ru": ("Победа после", "Поражение после"), "es": ("Victoria tras", "Derrota tras")}
    assert summary.startswith(opening[lang]), summary


def test_the_russian_game_reads_as_russian() -> None:
    with i18n.speaking("ru"):
        position = OPENING
        text = GAME.describe(GAME.view(position, SEAT))
        decision = GAME.pending(position)[SEAT]
    assert "Thermopyles, ход 0: игра идёт." in text
    assert "Маркер фронта: клетка 1 из 7" in text and "3 Hot Gates и 6 Last Stand" in text
    assert "Ваша рука: 13, 14, 15, 17 (4 карты, предел 5)." in text
    assert decision.prompt.startswith("Ход 1: ближняя 14 белое / 17 красное;")
    assert "БОЙ <карта> [ПОДДЕРЖКА n]" in decision.prompt
    assert decision.brief == "бой с ближней или дальней картой или отступление (ход 1)"


@pytest.mark.parametrize(
    ("size", "cards"), [(1, "1 карта,"), (2, "2 карты,"), (4, "4 карты,"), (5, "5 карт,")]
)
def test_russian_counts_take_their_three_forms(size: int, cards: str) -> None:
    position = GAME.new_game({"hand_limit": "10"}, Chance(b"plurals", "languages", 0))
    everything = position.hand + position.spartan_deck
    hand = tuple(sorted(everything[:size]))
    position = replace(position, hand=hand, spartan_deck=everything[size:])
    with i18n.speaking("ru"):
        assert f"({cards} предел 10)" in GAME.describe(GAME.view(position, SEAT))
        assert f"Рука: {cards} не показан" in GAME.describe(GAME.view(position, None))


@pytest.mark.parametrize(
    ("turns", "words"),
    [(1, "после 1 хода"), (3, "после 3 ходов"), (11, "после 11 ходов"), (21, "после 21 хода")],
)
def test_the_russian_summary_counts_the_turns(turns: int, words: str) -> None:
    position = replace(GAME.new_game({}, Chance(b"summary", "languages", 0)), turn=turns)
    with i18n.speaking("ru"):
        summary = GAME.outcome(position).summary
        over = GAME.outcome(replace(position, status="lost", end_reason="front")).summary
    assert summary.startswith(f"Игра идёт {words}: на Кладбище 0 из 12"), summary
    assert over.startswith(f"Поражение {words}: фронт отступил до клетки 7;"), over


def test_a_sentence_made_in_english_is_written_anew_for_each_reader() -> None:
    """The service resolves a turn once and writes its outcome in each reader's language."""
    seen = {}
    for position, resolution in played(b"7"):
        if resolution is None:
            continue
        for outcome in resolution.outcomes:
            seen.setdefault(outcome.code, outcome.detail)
        report = GAME.parse_orders(position, SEAT, "FIGHT 99\nRETREAT\nRETREAT")
        decision = GAME.pending(position).get(SEAT)
        if decision is not None:
            seen.setdefault("prompt", decision.prompt)
            seen.setdefault("brief", decision.brief)
        seen.setdefault("reason", report.lines[0].reason)
        seen.setdefault("suggestion", report.lines[0].suggestion)
        seen.setdefault("ignored", report.lines[2].reason)
    seen["summary"] = GAME.outcome(position).summary
    assert {"retreated", "prompt", "reason", "ignored", "summary"} <= set(seen)
    for lang in LANGUAGES:
        with i18n.speaking(lang):
            for what, text in seen.items():
                again = said.anew(text)
                assert again != text and english_left(again) == [], (lang, what, again)
    assert said.anew(seen["retreated"]) == seen["retreated"]  # English is the text as made


@pytest.mark.parametrize("lang", LANGUAGES)
def test_receipts_give_their_reasons_in_the_readers_language(lang: str) -> None:
    position = OPENING
    full = replace(position, hand=(*position.hand, 18, 19), spartan_deck=position.spartan_deck[2:])
    mails = [
        (position, "FIGHT 99 SUPPORT 2"),
        (position, "fihgt 17"),
        (position, "FIGHT 17 SUPPORT 9"),
        (position, "FIGHT 17 SUPPORT"),
        (position, "FIGHT 13 14"),
        (position, "17"),
        (position, "DISCARD 13"),
        (position, "FIGHT 17\nRETREAT"),
        (full, "FIGHT 19"),
        (full, "DISCARD 5\nFIGHT 19"),
        (full, "DISCARD 13\nDISCARD 14\nRETREAT"),
        (replace(position, hand=()), "FIGHT 17"),
        (replace(position, status="lost", end_reason="front"), "RETREAT"),
    ]
    with i18n.speaking(lang):
        for where, text in mails:
            report = GAME.parse_orders(where, SEAT, text)
            for line in report.lines:
                for words in (line.reason, line.suggestion):
                    assert english_left(words or "") == [], (text, words)
            for words in report.missing:
                assert english_left(words) == [], (text, words)
        report = GAME.parse_orders(position, "athenians", "RETREAT")
        assert english_left(report.lines[0].reason or "") == []
        suggested = GAME.parse_orders(position, SEAT, "FIGHT 16 SUPPORT 1").lines[0].suggestion
    assert suggested is not None and "FIGHT 17 SUPPORT 1" in suggested  # the order canonical


# --- order words -----------------------------------------------------------------------------

SAME_ORDERS = [
    ("БОЙ 17 ПОДДЕРЖКА 2", "FIGHT 17 SUPPORT 2"),
    ("бой 17 поддержка 2", "FIGHT 17 SUPPORT 2"),
    ("Атакую картой 17, поддержка 1", "FIGHT 17 SUPPORT 1"),
    ("атаковать 17 с поддержкой два", "FIGHT 17 SUPPORT 2"),
    ("сражаюсь 17 +1", "FIGHT 17 SUPPORT 1"),
    ("бой 17 без поддержки", "FIGHT 17"),
    ("ОТСТУПИТЬ", "RETREAT"),
    ("отступаю", "RETREAT"),
    ("Отход", "RETREAT"),
    ("ОТСТУПИТЬ БЕЗ ДОБОРА", "RETREAT NODRAW"),
    ("отступить бездобора", "RETREAT NODRAW"),
    ("отступаю и не беру карту", "RETREAT NODRAW"),
    ("LUCHAR 17 APOYO 2", "FIGHT 17 SUPPORT 2"),
    ("lucho con la 17, apoyo uno", "FIGHT 17 SUPPORT 1"),
    ("Ataco 17 mas 1", "FIGHT 17 SUPPORT 1"),
    ("combato 17", "FIGHT 17"),
    ("RETIRADA", "RETREAT"),
    ("retírate", "RETREAT"),
    ("retirate", "RETREAT"),
    ("Retroceder sin robar", "RETREAT NODRAW"),
    ("RETIRADA SINROBAR", "RETREAT NODRAW"),
]


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
@pytest.mark.parametrize(("written", "canonical"), SAME_ORDERS)
def test_spanish_and_russian_order_words_are_the_canonical_orders(
    lang: str, written: str, canonical: str
) -> None:
    position = OPENING
    with i18n.speaking(lang):  # read from any player, whatever their language
        report = GAME.parse_orders(position, SEAT, written)
    english = GAME.parse_orders(position, SEAT, canonical)
    assert report.ok and report.orders == english.orders, [line.reason for line in report.lines]
    assert [line.canonical for line in report.lines] == [canonical]


def test_a_discard_in_spanish_or_russian_is_the_canonical_discard() -> None:
    position = OPENING
    full = replace(position, hand=(*position.hand, 18, 19), spartan_deck=position.spartan_deck[2:])
    english = GAME.parse_orders(full, SEAT, "DISCARD 13\nFIGHT 19 SUPPORT 1")
    for text in ("СБРОСИТЬ 13\nБОЙ 19 ПОДДЕРЖКА 1", "descarto 13\nlucho 19 apoyo 1"):
        report = GAME.parse_orders(full, SEAT, text)
        assert report.ok and report.orders == english.orders
        assert [line.canonical for line in report.lines] == ["DISCARD 13", "FIGHT 19 SUPPORT 1"]


@pytest.mark.parametrize(
    "chat",
    ["Привет, как дела?", "Спасибо за игру", "бой был хороший", "Hola, ¿qué tal?", "Lucha bien"],
)
def test_chat_in_spanish_or_russian_is_no_order(chat: str) -> None:
    position = OPENING
    report = GAME.parse_orders(position, SEAT, chat)
    assert report.orders is None
    assert [line.status for line in report.lines] == [LineStatus.IGNORED]


def test_every_word_list_has_each_language() -> None:
    words = grammar.order_words()
    for group in ("support", "counts", "nodraw", "draw", "negations", "filler"):
        assert set(words[group]) == {"en", "es", "ru"}, group
    for keyword, languages in words["keywords"].items():
        assert set(languages) == {"en", "es", "ru"}, keyword
        for word in (word for listed in languages.values() for word in listed):
            assert grammar.KEYWORDS[grammar.folded(word)] == keyword
    assert grammar.folded("RETÍRATE") == "retirate" and grammar.folded("ОТХОДИТЬ") == "отходить"
    assert grammar.folded("йё") == "йе"  # Cyrillic keeps its letters; ё is е


# --- help and picture ------------------------------------------------------------------------


def test_the_help_is_in_the_readers_language_with_its_order_words() -> None:
    english = GAME.help_text()
    with i18n.speaking("ru"):
        russian = GAME.help_text()
    with i18n.speaking("es"):
        spanish = GAME.help_text()
    assert english.startswith("THERMOPYLES - ORDERS BY MAIL") and "FIGHT <card>" in english
    assert "БОЙ <карта> [ПОДДЕРЖКА <n>]" in russian and "ОТСТУПИТЬ БЕЗ ДОБОРА" in russian
    assert "LUCHAR <carta> [APOYO <n>]" in spanish and "RETIRADA SIN ROBAR" in spanish
    assert GAME.help_text() == english  # no cache shares one language's help with another
    position = OPENING
    for example in ("БОЙ 17", "бой 17 поддержка 2", "Атакую картой 17, поддержка 1", "ОТСТУПИТЬ"):
        assert example in russian and GAME.parse_orders(position, SEAT, example).ok
    for example in ("LUCHAR 17", "luchar 17 apoyo 1", "Lucho con la 17, apoyo 2", "RETIRADA"):
        assert example in spanish and GAME.parse_orders(position, SEAT, example).ok


def test_the_picture_is_drawn_in_english_whoever_reads_it() -> None:
    """Its font draws no Cyrillic: the mail gives the position in words beside it."""
    position, resolution = list(played(b"7"))[2]
    view, facts = GAME.view(position, SEAT), resolution.facts
    english = GAME.render(view, facts)
    with i18n.speaking("ru"):
        russian = GAME.render(GAME.view(position, SEAT), facts)
    assert russian == english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_pages_cards_say_what_they_do_in_the_readers_language(lang: str) -> None:
    english = GAME.card_texts()
    with i18n.speaking(lang):
        cards = GAME.card_texts()
    assert [card.name for card in cards] == [card.name for card in english]  # names stay
    for card in cards:
        assert english_left(card.when) == [] and english_left(card.text) == [], card
