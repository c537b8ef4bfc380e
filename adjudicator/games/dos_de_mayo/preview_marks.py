"""The marks a checked order set adds to the map: a "holds" tag where a side's units stay, and
a card tag where a card is played (see ``preview``); the moves are the turn maps' own arrows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.describe import card_name
from adjudicator.games.dos_de_mayo.render_art import Painter, font, load_art


def _tag(paint: Painter, at: tuple[float, float], words: str, side: str, filled: bool) -> None:
    """A small labelled tag, its right end at ``at``: filled in the side's colour for a card,
    outlined for a hold."""
    face = font(10, True)
    width = picture.length(words, face) + 10
    x, y = at[0] - width, at[1]
    box = (x, y - 8, x + width, y + 8)
    tone = paint.colour[side]
    fill, ink = (tone, paint.colour["chip_ink"]) if filled else (paint.colour["area"], tone)
    paint.draw.rounded_rectangle(box, 4, fill=fill, outline=tone, width=2)
    picture.label(paint.draw, (x + width / 2, y + 0.5), words, face, ink, "mm")


def mark(image: Image.Image, facts: Mapping[str, Any], scale: int = 1) -> None:
    """Draw the holds and the card plays of ``facts`` (one side's) on the map ``image``, drawn
    ``scale`` times the size."""
    look = load_art()
    paint = Painter(image, look, scale)
    side = str(facts.get("side") or "")
    for area in facts.get("holds") or []:
        if look.knows(area) and side in paint.colour:
            # Astride the box's lower edge, right: clear of the name, the number and the units.
            x1, y1 = look.rect(str(area))[2:]
            _tag(paint, (x1 - 4, y1), _("holds"), side, filled=False)
    for play in facts.get("plays") or []:
        where = play.get("at")
        if where and look.knows(str(where)) and side in paint.colour:
            # Astride the box's upper edge, right: the number badge is at its left.
            y0, x1 = look.rect(str(where))[1:3]
            _tag(paint, (x1 - 4, y0), card_name(play), side, filled=True)
