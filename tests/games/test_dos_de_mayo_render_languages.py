"""The 2 de Mayo map in its reader's language: the title, key, header and panel in Spanish or
Russian, the cards by their Spanish names, the places as they are; every translation inside its
box; and each language's static layer its own, so no picture shows another reader's words."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image
from test_dos_de_mayo_render import (
    LONGEST_CARDS,
    LONGEST_HAND,
    decode,
    finished_view,
    longest_view,
    midgame_view,
)

from adjudicator import i18n
from adjudicator.core import picture as kit
from adjudicator.games.dos_de_mayo import describe as words
from adjudicator.games.dos_de_mayo import render as picture
from adjudicator.games.dos_de_mayo.render_art import font
from adjudicator.games.dos_de_mayo.render_panel import KEY_MARGIN, KEY_WORDS_X

# What the map says in each language, drawn as one text each (the words, not the layout).
SAID = {
    "en": ["KEY", "lost this turn", "LOSSES", "CARDS IN PLAY", "YOUR HAND", "Turn 5 of 10"],
    "es": [
        "LEYENDA",
        "bajas de este turno",
        "BAJAS",
        "CARTAS EN JUEGO",
        "TU MANO",
        "Turno 5 de 10",
    ],
    "ru": ["ЛЕГЕНДА", "потери за этот ход", "ПОТЕРИ", "КАРТЫ В ИГРЕ", "ВАША РУКА", "Ход 5 из 10"],
}
# The key's words that must keep to one line beside their marks (the units' may take two).
ONE_LINE = ["lost this turn", "contested: both sides", "moved", "stopped by a swap"]
ONE_LINE += ["failed: stayed", "main street", "gate"]


def drawn_in(lang: str, view: dict[str, Any], scale: int = 1) -> tuple[list[str], Image.Image]:
    """The texts the picture of ``view`` draws for a reader of ``lang``, and the picture."""
    with i18n.speaking(lang), kit.recording() as drawn:
        png = picture.render(view, None, scale)
    return [text.text for text in drawn], decode(png)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_map_is_drawn_in_its_readers_language(lang: str) -> None:
    picture.layer.cache_clear()  # the key and the headings are drawn into the base layer
    texts, _ = drawn_in(lang, midgame_view("spain"))
    for text in SAID[lang]:
        assert text in texts, f"{text!r} not drawn in {lang}: {texts}"
    for other in {"en", "es", "ru"} - {lang}:
        assert not set(SAID[other]) & set(texts), f"{other} words on the {lang} map"
    # Places keep their names; cards are named as the mail names them.
    assert "Puerta del Sol" in " ".join(texts)
    spanish = lang != "en"
    assert ("Artillería" in texts) is spanish and ("Artillery" in texts) is not spanish
    hand = " ".join(texts[texts.index(SAID[lang][4]) :])
    assert ("Levantamiento de los barrios" in hand) is spanish


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_finished_games_header_says_who_won_in_the_readers_words(lang: str) -> None:
    texts, _ = drawn_in(lang, finished_view())
    with i18n.speaking(lang):
        # The side by its name in the reader's language (ESPAÑA, ИСПАНИЯ), as every text has it.
        winner = {"es": "ESPAÑA", "ru": "ИСПАНИЯ"}[lang]
        verdict = i18n.gettext("GAME OVER: %(side)s WINS", lang, side=winner)
        reason = i18n.gettext(words.END_WORDS["loss-limit"], lang)
    assert verdict in texts and "GAME OVER" not in " ".join(texts)
    assert reason in " ".join(texts)


def test_each_language_has_its_own_static_layer_and_english_is_unchanged() -> None:
    english = picture.render(midgame_view(None), None)
    with i18n.speaking("ru"):
        russian = picture.render(midgame_view(None), None)
        assert picture.base_layer() is picture.layer(1, "ru")
        palette = picture.palette()
    with i18n.speaking("es"):
        spanish = picture.render(midgame_view(None), None)
    assert len({english, russian, spanish}) == 3
    assert picture.render(midgame_view(None), None) == english
    assert picture.base_layer() is picture.layer(1, "en")
    assert picture.palette() is not palette


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_every_translation_fits_its_place(lang: str) -> None:
    look = picture.load_art()
    x0, y0, x1, y1 = look.legend
    regular, note = font(11), font(10)
    room = x1 - KEY_MARGIN - (x0 + KEY_WORDS_X)
    for message in ONE_LINE:
        shown = i18n.gettext(message, lang)
        assert kit.length(shown, regular) <= room, f"{shown!r} runs out of the key"
    # The gate and the main street share a line: both words and the tower fit on it.
    both = [kit.length(i18n.gettext(m, lang), regular) for m in ("main street", "gate")]
    assert sum(both) + 25 + 5 <= room
    set_aside = look.set_aside[2] - look.set_aside[0] - 20
    assert kit.length(i18n.gettext("brought in by cards only", lang), note) <= set_aside
    column = look.panel["cards_x"] - 10 - look.panel["losses_x"] - 6
    assert kit.length(i18n.gettext("wins swap ties, acts first", lang), note) <= column
    losses = i18n.gettext("%(side)s %(lost)s of %(limit)s", lang, side="France", lost=9, limit=9)
    assert kit.length(losses, font(13, True)) <= 104 - 6  # the pips start there
    # Nothing drawn reaches the key's right edge, at either scale.
    for scale in (1, 2):
        _, image = drawn_in(lang, midgame_view(None), scale)
        edge = image.crop(
            (
                int((x1 - KEY_MARGIN + 1) * scale),
                int((y0 + 20) * scale),
                int((x1 - 2) * scale),
                int((y1 - 10) * scale),
            )
        )
        assert edge.getcolors() == [(edge.width * edge.height, look.colours["area"])]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_longest_cards_are_drawn_whole_in_every_language(lang: str) -> None:
    texts, _ = drawn_in(lang, longest_view())
    said = " ".join(texts)
    with i18n.speaking(lang):
        wanted = [words.card_words({**card, "side": None}) for card in LONGEST_CARDS]
        wanted += [words.card_name(card) for card in LONGEST_HAND]
    for text in wanted:
        assert text in said, f"{text!r} is not drawn whole"


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_no_two_words_of_the_panel_or_the_set_aside_pools_overlap(lang: str) -> None:
    # The sides' names are longer in some languages ("Франция", "España"): what follows them
    # (the loss pips, the hand's cards and count, the other pool) moves past them.
    view = midgame_view("spain")
    view["hand_sizes"] = {"france": 0, "spain": 8}
    with i18n.speaking(lang), kit.recording() as drawn:
        picture.render(view, None)
    look = picture.load_art()
    x0, y0, x1, y1 = look.set_aside
    boxes = [
        text
        for text in drawn
        if text.box[1] >= look.map_bottom
        or (x0 <= text.box[0] and text.box[2] <= x1 and y0 <= text.box[1] and text.box[3] <= y1)
    ]
    assert len(boxes) > 10
    for index, one in enumerate(boxes):
        for other in boxes[index + 1 :]:
            a, b = one.box, other.box
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (lang, one.text, other.text)
