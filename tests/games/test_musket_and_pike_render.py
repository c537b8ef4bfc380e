"""The Musket & Pike map picture: a mail-sized PNG with both sides' colours, marks and arrows."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.actions import resolve_activation
from adjudicator.games.musket_and_pike.render import colour, render, side_colour
from adjudicator.games.musket_and_pike.scenario import scenario

PNG_BUDGET = 150_000


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def colours_in(image: Image.Image) -> set[tuple[int, int, int]]:
    found = image.getcolors(maxcolors=1 << 16)
    assert found is not None
    return {rgb for _, rgb in found}


def test_the_battle_map_is_mail_sized() -> None:
    opening = scenario("braddock-down").opening
    data = render(opening)
    assert data.startswith(b"\x89PNG") and len(data) <= PNG_BUDGET
    image = picture(data)
    assert 900 <= image.width <= 1100 and 600 <= image.height <= 1200
    shown = colours_in(image)
    royal, parliament = side_colour(opening, "royalist"), side_colour(opening, "parliament")
    assert royal != parliament
    assert royal in shown and parliament in shown


def test_marks_and_arrows_change_the_picture() -> None:
    start = replace(scenario("skirmish").opening, phase="activation")
    plain = picture(render(start))
    marked = start.with_unit(
        replace(start.units[0], formation="disordered", morale_state="shaken", salvo=True)
    )
    assert colour("disordered") in colours_in(picture(render(marked)))
    done = resolve_activation(
        start,
        "R-A",
        [{"unit": "R-HI-1", "action": "move", "path": [[2, 3], [2, 2]]}],
        Chance(b"render-test-seed", "test", 1),
    )
    assert not isinstance(done, Refusal)
    after, events = done
    moved = picture(render(after, events))
    assert moved.size == plain.size
    assert moved.tobytes() != picture(render(after)).tobytes()  # the arrow shows


def test_secret_orders_are_not_drawn_during_setup() -> None:
    start = scenario("skirmish").opening
    charged = start.with_wing(replace(start.wings[1], order="charge"))
    # The set-up picture shows "?" for every order, so a different order draws the same image.
    assert render(start) == render(charged)
    playing = replace(start, phase="activation")
    assert render(playing) != render(replace(charged, phase="activation"))
