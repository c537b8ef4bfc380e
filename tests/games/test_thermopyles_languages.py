"""Thermopyles in Russian and Spanish: whole games played with the game's own functions inside
``i18n.speaking``, read as a player would (no English sentence left in the position, the prompt,
the outcomes, the dice, the receipts or the summary; Russian plurals in their three forms), the
sentences made in one language written anew in another, the order words of each language
read as the canonical orders, and the picture drawn in the reader's words, in a font that has
them, every text inside it and clear of the others, no cache sharing one language's words
with another."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, NamedTuple

import pytest
from PIL import Image, ImageChops, ImageDraw

from adjudicator import i18n
from adjudicator.core import picture, said, stamps
from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.games.thermopyles import GAME, grammar, render, strategy
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
    assert "Thermopyles, до первого хода." in text
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


def test_the_picture_is_drawn_in_a_font_with_accents_and_cyrillic() -> None:
    """Pillow's own font (the last resort) has neither: a Russian picture would be boxes."""
    face = render.font(16)
    assert not picture.is_built_in(face)
    # Each letter its own glyph: no box shared by all the letters the font lacks.
    masks = {bytes(face.getmask(letter)) for letter in "ЖЯёñí"}
    assert len(masks) == 5


def pictures(seed: bytes) -> Iterator[tuple[Any, Any]]:
    """Every (view, facts) a player and the public see of a game: each position with its
    action's result, the public picture, and the order checker's picture of a fight, a
    discard then a fight, and a retreat without a draw."""
    for position, resolution in played(seed):
        facts = resolution.facts if resolution is not None else None
        yield GAME.view(position, SEAT), facts
        yield GAME.view(position, None), None
        low, high = min(position.hand, default=0), max(position.hand, default=0)
        checked = [f"FIGHT {high} SUPPORT 1", f"DISCARD {low}\nFIGHT {high}"] if high else []
        for text in [*checked, "RETREAT NODRAW"]:
            report = GAME.parse_orders(position, SEAT, text)
            if report.orders is not None and not report.rejected:
                shown = GAME.preview_facts(position, SEAT, report.orders)
                if shown is not None:
                    yield GAME.view(position, SEAT), shown


def fresh_caches() -> None:
    """Every cache of drawn words emptied: the next picture draws all its words anew."""
    for cache in (render._base, render._card, render._wrapped):
        cache.cache_clear()
    stamps.STAMPS.clear()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_picture_draws_the_readers_words(lang: str) -> None:
    fresh_caches()  # the base layer's words drawn (and recorded) with the first picture
    with picture.recording() as drawn, i18n.speaking(lang):
        for view, facts in pictures(b"7"):
            GAME.render(view, facts)
    texts = {d.text for d in drawn}
    assert [text for text in texts if english_left(text)] == []
    expected = {
        "ru": (
            "THERMOPYLES  -  ход 1  -  игра идёт",
            "THERMOPYLES  -  ход 1  -  проверено, не разыграно",
            "бесплатный кубик",
            "Кладбище",
            "Колода спартанцев",
            "ДАЛЬНЯЯ",
            "белое: разбить   красное: на Кладбище   ^: доп. добор",
            "Линия фронта (отступление к 7)",
            "Ваша рука: 4, предел 5",
            "Рука (скрыта): 4, предел 5",
            "Ход 1: RETREAT",
            "БОЙ",
            "БЕЗ ДОБОРА",
        ),
        "es": (
            "THERMOPYLES  -  turno 1  -  en juego",
            "Turno 1: RETREAT",
            "dado libre este turno",
            "Cementerio",
            "Mazo espartano",
            "CERCANA",
            "Línea del frente (retirada hacia 7)",
            "Tu mano: 4, límite 5",
            "LUCHA",
            "SIN ROBAR",
        ),
    }[lang]
    assert [text for text in expected if text not in texts] == []
    assert any(text.startswith(("Ближняя", "Cercana")) for text in texts)  # a fight's result
    assert any(text.startswith(("Игра окончена", "Partida terminada")) for text in texts)


Box = tuple[float, float, float, float]


class Placed(NamedTuple):
    text: str
    box: Box  # its ink, in picture units
    on_tag: bool  # white words on a checked action's tag (preview.py), as long as they are


@contextmanager
def placed() -> Iterator[list[Placed]]:
    """Every text drawn on a whole picture (not on a card's tile) and its ink's box in picture
    units, every text drawn by Pillow (as stamped: tests/games/test_thermopyles_pixels.py)."""
    found: list[Placed] = []

    class Placing(picture.Canvas):
        def __init__(self, image: Image.Image, scale: int = 1) -> None:
            super().__init__(image, scale)
            self.whole = image.width == render.WIDTH * scale

        def text(self, xy: Any, text: str, fill: Any, font: Any, anchor: str = "la") -> None:
            super().text(xy, text, fill, font, anchor)
            k = self.scale
            face = font.font_variant(size=font.size * k) if k > 1 else font
            x0, y0, x1, y1 = self.draw.textbbox((xy[0] * k, xy[1] * k), text, face, anchor)
            if self.whole and text.strip():
                on_tag = fill == render.COLOURS["light_ink"]  # the cards' own are on tiles
                found.append(Placed(text, (x0 / k, y0 / k, x1 / k, y1 / k), on_tag))

    kept = render.StampCanvas
    render.StampCanvas = Placing  # type: ignore[misc]
    fresh_caches()
    try:
        yield found
    finally:
        render.StampCanvas = kept  # type: ignore[misc]
        fresh_caches()


def overlapping(boxes: list[Placed]) -> list[tuple[str, str]]:
    return [
        (first, second)
        for (first, a, _), (second, b, _) in itertools.combinations(boxes, 2)
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    ]


def long_ones(seed: bytes) -> Iterator[tuple[Any, Any]]:
    """A hand of eleven narrow cards, an empty one, and a result of many wrapped lines."""
    position, resolution = list(played(seed))[-1]
    view = GAME.view(position, SEAT)
    yield {**view, "hand": list(range(1, 12)), "hand_size": 11}, None
    yield {**view, "hand": [], "hand_size": 0, "status": "playing", "end": None}, None
    long = dict(resolution.facts)
    long["understood"] = "DISCARD 18\nFIGHT 17 SUPPORT 4"
    long["discards"] = [{"value": v, "why": "hand-limit"} for v in (2, 3, 4, 5, 6, 7, 8) * 4]
    long["dice"] = [{"purpose": "support", "value": 6} for _ in range(12)]
    long["strength"] = 89
    fought = {"fought": True, "beaten": True, "graveyard": True}
    long["fight"] = {"near": {"white": 10, "red": 12, **fought}, "far": None}
    long["drawn"] = {"count": 9, "values": [1, 2, 3, 4, 5, 6, 7, 8, 9]}
    yield view, long


@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_every_word_of_the_picture_fits_it_and_no_text_runs_into_another(lang: str) -> None:
    shown = [*pictures(b"7"), *pictures(b"languages 2"), *long_ones(b"7")]
    with placed() as boxes, i18n.speaking(lang):
        for view, facts in shown:
            boxes.clear()
            image = Image.open(io.BytesIO(GAME.render(view, facts)))
            outside = [
                text
                for text, (x0, y0, x1, y1), _ in boxes
                if x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height
            ]
            assert outside == [], outside
            assert overlapping(boxes) == [], overlapping(boxes)
            assert all(box[2] <= render.WIDTH - render.MARGIN + 1 for _, box, _ in boxes)
    assert boxes  # the last picture's texts were placed (a recorder that saw nothing passes)


def test_an_english_and_a_russian_picture_differ_only_where_words_are() -> None:
    for view, facts in list(pictures(b"7"))[3:9]:  # a turn's pictures and checked actions
        drawn = {}
        for lang in ("en", "ru"):
            with placed() as boxes, i18n.speaking(lang):
                png = GAME.render(view, facts)
            drawn[lang] = (Image.open(io.BytesIO(png)).convert("RGB"), boxes)
        (english, english_boxes), (russian, russian_boxes) = drawn["en"], drawn["ru"]
        assert english.size == russian.size
        words = Image.new("L", english.size, 0)
        for _, (x0, y0, x1, y1), on_tag in english_boxes + russian_boxes:
            # A tag's ground (5 px round its words, 16 high) is as long as its words too.
            middle = (y0 + y1) / 2
            grown = (x0 - 6, middle - 9, x1 + 6, middle + 9) if on_tag else (x0, y0, x1, y1)
            ImageDraw.Draw(words).rectangle(grown, fill=255)
        differing = ImageChops.difference(english, russian).convert("L").point(lambda v: v and 255)
        assert differing.getbbox() is not None  # other words
        assert ImageChops.subtract(differing, words).getbbox() is None  # nothing else


def test_no_cache_gives_one_readers_words_to_another() -> None:
    """A picture drawn after another language's is the picture drawn with every cache empty
    (base layer, cards, wrapped lines, stamps)."""
    shown = [*list(pictures(b"7"))[3:9], *long_ones(b"7")]

    def drawn(lang: str) -> list[bytes]:
        with i18n.speaking(lang):
            return [GAME.render(view, facts) for view, facts in shown]

    cold = {}
    for lang in ("en", "ru", "es"):
        fresh_caches()
        cold[lang] = drawn(lang)
    for first, then in (("en", "ru"), ("ru", "en"), ("es", "ru"), ("ru", "es")):
        fresh_caches()
        drawn(first)
        assert drawn(then) == cold[then], (first, then)
    assert all(a != b for a, b in zip(cold["en"], cold["ru"], strict=True))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_pages_cards_say_what_they_do_in_the_readers_language(lang: str) -> None:
    english = GAME.card_texts()
    with i18n.speaking(lang):
        cards = GAME.card_texts()
    assert [card.name for card in cards] == [card.name for card in english]  # names stay
    for card in cards:
        assert english_left(card.when) == [] and english_left(card.text) == [], card
