"""The Thermopyles picture and its words: readable size, small file, nothing hidden shown, any
scale, every result line whole."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops, ImageStat

from adjudicator.core import picture
from adjudicator.core.chance import Chance
from adjudicator.games.thermopyles import GAME, strategy
from adjudicator.games.thermopyles import render as render_module
from adjudicator.games.thermopyles.describe import result_lines
from adjudicator.games.thermopyles.render import (
    BOTTOM,
    COLOURS,
    HAND_Y,
    HEIGHT,
    MARGIN,
    RESULT_SIZE,
    RESULT_STEP,
    RESULT_WIDTH,
    WIDTH,
    draw,
    font,
    hand_card,
    height_for,
    lines_for,
    palette,
    wrapped,
)

PNG_BUDGET = 60_000


def _game_with_history() -> list[tuple[object, dict[str, object]]]:
    """(state, facts) after every action of one strategy-played game."""
    seed = b"render"
    state = GAME.new_game({}, Chance(seed, "render", 0))
    history = []
    while not state.over:
        orders = {"spartans": strategy.choose(state).to_json()}
        resolution = GAME.resolve(state, orders, Chance(seed, "render", state.turn + 1))
        state = resolution.state
        history.append((state, dict(resolution.facts)))
    return history


HISTORY = _game_with_history()


def _image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_picture_is_mail_sized_and_small() -> None:
    for state, facts in (HISTORY[0], HISTORY[len(HISTORY) // 2], HISTORY[-1]):
        for seat in ("spartans", None):
            png = GAME.render(GAME.view(state, seat), facts)
            image = _image(png)
            assert 640 <= image.width <= 800 and image.height <= 700
            assert len(png) < PNG_BUDGET


def test_public_picture_does_not_depend_on_the_hidden_hand() -> None:
    state, _ = HISTORY[1]
    public = GAME.render(GAME.view(state, None), None)
    for salt in range(3):
        scrambled = GAME.scramble_hidden(state, None, salt)
        assert GAME.render(GAME.view(scrambled, None), None) == public
    assert GAME.render(GAME.view(state, "spartans"), None) != public


def test_picture_changes_with_the_position_and_the_facts() -> None:
    (first, facts), (second, _) = HISTORY[0], HISTORY[1]
    view = GAME.view(first, "spartans")
    assert GAME.render(view, None) != GAME.render(GAME.view(second, "spartans"), None)
    assert GAME.render(view, facts) != GAME.render(view, None)


def test_hand_cards_are_drawn_in_spartan_red_or_as_backs() -> None:
    state, _ = HISTORY[0]
    assert state.hand
    private = _image(GAME.render(GAME.view(state, "spartans"), None)).convert("RGB")
    public = _image(GAME.render(GAME.view(state, None), None)).convert("RGB")
    # The middle of the first hand card: Spartan red for the player, a dark back for the public.
    red, back = private.getpixel((30, 380)), public.getpixel((30, 380))
    assert isinstance(red, tuple) and isinstance(back, tuple)
    assert red[0] > 150 and red[1] < 90
    assert max(back) < 120


def test_describe_says_what_the_picture_shows() -> None:
    state, _ = HISTORY[0]
    own, public = GAME.view(state, "spartans"), GAME.view(state, None)
    text = GAME.describe(own)
    near = own["near"]
    assert f"Near Persian: {near['white']} white / {near['red']} red" in text
    assert "Your hand: " + ", ".join(str(card) for card in own["hand"]) in text
    assert f"Graveyard {own['graveyard']['count']} of 12" in text
    assert "Hot Gates" in text and "Last Stand" in text
    assert "Support cards left: " in text
    public_text = GAME.describe(public)
    assert "not shown" in public_text and "Your hand" not in public_text
    final, _ = HISTORY[-1]
    assert "Game over" in GAME.describe(GAME.view(final, None))


def test_help_text_has_the_syntax_and_examples() -> None:
    text = GAME.help_text()
    for needle in ("FIGHT <card> [SUPPORT <n>]", "RETREAT NODRAW", "DISCARD <card>", "F 17 S 2"):
        assert needle in text


def _blocks(png: bytes) -> Image.Image:
    """The picture in 8x8-pixel blocks of the 1x picture (16x16 of the 2x): the averages that
    the eye sees, where single pixels of anti-aliasing no longer count."""
    return _image(png).convert("RGB").resize((WIDTH // 8, HEIGHT // 8), Image.Resampling.BOX)


def _block_difference(first: bytes, second: bytes) -> tuple[int, float]:
    """The largest and the mean difference of one channel between two pictures' blocks."""
    difference = ImageChops.difference(_blocks(first), _blocks(second))
    largest = max(high for _, high in difference.getextrema())  # type: ignore[union-attr]
    return largest, sum(ImageStat.Stat(difference).mean) / 3


def test_scale_two_is_the_same_picture_twice_the_size() -> None:
    for (state, facts), (other, other_facts) in (
        (HISTORY[0], HISTORY[1]),
        (HISTORY[5], HISTORY[6]),
    ):
        view = GAME.view(state, "spartans")
        one, two = GAME.render(view, facts), GAME.render(view, facts, 2)
        assert _image(two).size == (2 * WIDTH, 2 * HEIGHT)
        assert GAME.render(view, facts, 1) == one
        # Seen at the size of the 1x picture, the 2x one is the same drawing ...
        largest, mean = _block_difference(one, two)
        assert largest <= 60 and mean <= 3, (largest, mean)
        # ... where the next position's picture, by the same measure, is not.
        next_view = GAME.view(other, "spartans")
        assert _block_difference(one, GAME.render(next_view, other_facts))[0] > 60
        # Not blank: a hand card's middle is Spartan red at twice the coordinates.
        red = _image(two).convert("RGB").getpixel((2 * 30, 2 * 380))
        assert isinstance(red, tuple) and red[0] > 150 and red[1] < 90


def _long_facts() -> dict[str, Any]:
    """A turn whose result needs far more than six lines, several of them wider than the panel."""
    _, facts = HISTORY[len(HISTORY) // 2]
    long = dict(facts)
    long["understood"] = "DISCARD 18\nFIGHT 17 SUPPORT 4 " + "with every support card left " * 4
    long["discards"] = [{"value": v, "why": "hand-limit"} for v in (2, 3, 4, 5, 6, 7, 8) * 4]
    long["dice"] = [{"purpose": "support", "value": 6} for _ in range(12)]
    long["strength"] = 89
    long["fight"] = {
        "card": 17,
        "support": 4,
        "near": {"white": 10, "red": 12, "fought": True, "beaten": True, "graveyard": True},
        "far": {"white": 20, "red": 25, "fought": True, "beaten": True, "graveyard": False},
    }
    long["drawn"] = {"count": 9, "values": [1, 2, 3, 4, 5, 6, 7, 8, 9]}
    long["end"] = {"result": "won", "sentence": "twelve Persian units lie in the Graveyard " * 3}
    return long


def test_every_result_line_is_shown_whole_and_wrapped() -> None:
    state, _ = HISTORY[len(HISTORY) // 2]
    view, facts = GAME.view(state, "spartans"), _long_facts()
    lines = result_lines(facts, own=True)
    assert len(wrapped(lines)) > 6  # the panel once showed six lines, each cut at its end
    face = font(RESULT_SIZE)
    assert any(picture.length(line, face) > RESULT_WIDTH for line in lines)
    with picture.recording() as drawn:
        png = GAME.render(view, facts)
    image = _image(png).convert("RGB")
    shown = [d.text for d in drawn if d.size == RESULT_SIZE]
    # Every word of every line is drawn, in order, on lines no wider than the panel.
    said = " ".join(shown[-len(wrapped(lines)) :]).split()
    assert said == " ".join(lines).split()
    assert all(picture.length(text, face) <= RESULT_WIDTH for text in shown)
    # The picture grew to hold them: taller than the usual, its last rows empty band, and
    # ink in the row of the last line (it is drawn, not cut off below the image).
    assert image.width == WIDTH and image.height == height_for(len(wrapped(lines))) > HEIGHT
    band = COLOURS["band"]
    bottom = image.crop((0, image.height - BOTTOM + 2, WIDTH, image.height))
    assert bottom.getcolors() == [(bottom.width * bottom.height, band)]
    last = image.crop((MARGIN, image.height - BOTTOM - RESULT_STEP, WIDTH, image.height - BOTTOM))
    assert any(colour != band for _, colour in last.getcolors(10_000) or [])
    assert len(png) < PNG_BUDGET


def test_a_long_hand_shows_every_card() -> None:
    state, _ = HISTORY[0]
    view = dict(GAME.view(state, "spartans"))
    view["hand"] = list(range(1, 12))
    view["hand_size"] = 11
    # Card tiles drawn by an earlier test are pasted, not drawn again: draw them all anew.
    render_module._card.cache_clear()
    with picture.recording() as drawn:
        image = _image(GAME.render(view, None)).convert("RGB")
    texts = [d.text for d in drawn]
    assert all(str(card) in texts for card in view["hand"])
    right = hand_card(10, 11)[2]
    assert right <= WIDTH - MARGIN
    # The last card really is there, in Spartan red, inside the picture.
    red = image.getpixel((int(right) - 6, HAND_Y + 10))
    assert isinstance(red, tuple) and red[0] > 150 and red[1] < 90


def test_the_fixed_palette_keeps_the_drawing_true() -> None:
    state, facts = HISTORY[len(HISTORY) // 2]
    view = GAME.view(state, "spartans")
    drawn = draw(view, lines_for(view, facts)).image
    png = GAME.render(view, facts)
    stored = _image(png)
    assert stored.mode == "P"
    # The fixed palette, whatever the picture: every art colour first, exactly.
    assert picture.colours_of(stored) == picture.colours_of(palette())
    art = list(dict.fromkeys(COLOURS.values()))
    assert picture.colours_of(stored)[: len(art)] == art
    # On average well under one step of 255 per channel from the drawing itself.
    error = ImageStat.Stat(ImageChops.difference(stored.convert("RGB"), drawn)).mean
    assert max(error) < 1.0, error


def test_the_welcomes_picture_names_no_turn_and_ends_with_the_hand() -> None:
    """Before turn 1 there is no result to show: the picture says the battle has not begun (not
    "turn 0 - in play") and stops below the hand, with no empty band under it."""
    opening = GAME.new_game({}, Chance(b"render", "render", 0))
    view = GAME.view(opening, "spartans")
    assert lines_for(view, None) == []
    brush = draw(view, [])
    assert render_module.title(view) == "THERMOPYLES  -  before the first turn"
    image = brush.image
    assert image.height == height_for(0) < HEIGHT
    # The hand is whole, and below it only the background's margin, no band of the panel.
    assert image.height > hand_card(0, 1)[3]
    bottom = image.convert("RGB").crop((0, image.height - 4, WIDTH, image.height))
    colours = {colour for _, colour in bottom.getcolors(WIDTH * 4) or []}
    assert colours == {COLOURS["background"]}, colours
    # Once a turn is played its result fills the panel again, at the usual height.
    state, facts = HISTORY[0]
    played = GAME.view(state, "spartans")
    assert "turn 1" in render_module.title(played)
    assert _image(GAME.render(played, facts)).height == HEIGHT
