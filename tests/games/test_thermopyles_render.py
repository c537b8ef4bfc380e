"""The Thermopyles picture and its words: readable size, small file, nothing hidden shown."""

from __future__ import annotations

import io

from PIL import Image

from adjudicator.core.chance import Chance
from adjudicator.games.thermopyles import GAME, strategy

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
