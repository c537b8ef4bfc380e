"""The marks a checked order set adds to the map over the turn maps' own arrows (see
``preview``): a ring round each target's hex, in the colour of its arrow, and a small tag under
the units that rally, reform, turn or hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core import picture
from adjudicator.games.musket_and_pike.pictures.look import Painter, art, colour, font

TAG_SIZE = 10
RING_WIDTH = 3


def _hex(value: Any) -> tuple[int, int]:
    return (int(value[0]), int(value[1]))


def _ring(paint: Painter, at: tuple[int, int], tint: str) -> None:
    corners = paint.place.corners(at, shrink=RING_WIDTH)
    paint.draw.line([*corners, corners[0]], fill=colour(tint), width=RING_WIDTH, joint="curve")


def _tag(paint: Painter, at: tuple[int, int], words: str) -> None:
    """A filled tag in the plan colour, centred under the counter of hex ``at``."""
    x, y = paint.place.centre(at)
    look = art()["counter"]
    below = (float(look["below"]) + float(look["half"])) * paint.place.radius
    face = font(TAG_SIZE, True)
    half = picture.length(words, face) / 2 + 4
    top = y + below + 1
    box = (x - half, top, x + half, top + TAG_SIZE + 4)
    paint.draw.rounded_rectangle(box, 3, fill=colour("plan"))
    paint.text((x, top + (TAG_SIZE + 4) / 2), words, TAG_SIZE, colour("counter_ink"), bold=True)


def mark(paint: Painter, facts: Mapping[str, Any]) -> None:
    """Draw the target rings and the tags of ``facts`` (one side's checked orders)."""
    for target in facts.get("targets") or []:
        tint = "melee" if target.get("kind") == "close_combat" else "fire"
        _ring(paint, _hex(target["at"]), tint)
    for tag in facts.get("tags") or []:
        _tag(paint, _hex(tag["at"]), str(tag["words"]))
