"""What every part of the Musket & Pike map shares: the art file (``art.toml``), its colours and
fonts, where hexes fall on the canvas (``Layout``), and the painter that draws in picture units.

The map itself (``render``), its counters and leaders (``pieces``) and its key (``legend``) all
draw through these, so a counter in the key is the very counter on the map.
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.picture import Colour, Font, Point
from adjudicator.games.musket_and_pike.rules.hexes import SQRT3, Hex
from adjudicator.games.musket_and_pike.rules.scenario import Scenario
from adjudicator.games.musket_and_pike.rules.state import Position


@functools.cache
def art() -> Mapping[str, Any]:
    text = resources.files("adjudicator.games.musket_and_pike").joinpath("art.toml").read_text()
    return tomllib.loads(text)


def rgb(value: Sequence[int]) -> Colour:
    return (int(value[0]), int(value[1]), int(value[2]))


def colour(name: str) -> Colour:
    return rgb(art()["colours"][name])


def side_colour(position: Position, side: str) -> Colour:
    palette = art()["sides"]
    if side in palette.get("named", {}):
        return rgb(palette["named"][side])
    index = position.sides.index(side) if side in position.sides else 0
    return rgb(palette["order"][index % len(palette["order"])])


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """The first art font found on this machine; Pillow's own font as the last resort."""
    return picture.font(
        size, tuple(str(name) for name in art()["fonts"]["bold" if bold else "regular"])
    )


@dataclass(frozen=True)
class Layout:
    """Where hexes fall on the canvas for one map size."""

    radius: float
    origin: Point
    width: int
    height: int
    map_bottom: float

    def centre(self, where: Hex) -> Point:
        column, row = where
        x = self.origin[0] + self.radius + 1.5 * self.radius * column
        y = self.origin[1] + SQRT3 * self.radius * (row + 0.5 + 0.5 * (column & 1))
        return (x, y)

    def corners(self, where: Hex, shrink: float = 0.0) -> list[Point]:
        x, y = self.centre(where)
        size = self.radius - shrink
        return [
            (x + size * math.cos(math.radians(60 * k)), y + size * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def toward(self, where: Hex, facing: int, reach: float) -> Point:
        """The point ``reach`` radii from the centre, across hexside ``facing``."""
        x, y = self.centre(where)
        bearing = math.radians(60 * facing)
        return (
            x + reach * self.radius * math.sin(bearing),
            y - reach * self.radius * math.cos(bearing),
        )


def layout(battle: Scenario) -> Layout:
    canvas = art()["canvas"]
    margin, width = int(canvas["margin"]), int(canvas["width"])
    across = 1.5 * (battle.width - 1) + 2
    radius = min((width - 2 * margin) / across, float(canvas["max_radius"]))
    map_height = SQRT3 * radius * (battle.height + 0.5)
    top = int(canvas["header"]) + margin
    left = (width - across * radius) / 2
    bottom = top + map_height
    return Layout(
        radius=radius,
        origin=(left, top),
        width=width,
        height=int(bottom + margin + int(canvas["panel"])),
        map_bottom=bottom,
    )


class Painter:
    def __init__(
        self, image: Image.Image, place: Layout, position: Position, scale: int = 1
    ) -> None:
        self.draw = picture.Canvas(image, scale)
        self.place = place
        self.position = position

    def text(self, xy: Point, words: str, size: int, fill: Colour, bold: bool = False) -> None:
        picture.label(self.draw, xy, words, font(size, bold), fill, anchor="mm")

    def left_text(self, xy: Point, words: str, size: int, fill: Colour, bold: bool = False) -> None:
        picture.label(self.draw, xy, words, font(size, bold), fill, anchor="lm")

    def arrow(self, points: Sequence[Point], fill: Colour, width: int) -> None:
        if len(points) < 2:
            return
        self.draw.line(list(points), fill=fill, width=width, joint="curve")
        (x0, y0), (x1, y1) = points[-2], points[-1]
        angle = math.atan2(y1 - y0, x1 - x0)
        size = 4 + 2 * width
        head = [
            (x1, y1),
            (x1 - size * math.cos(angle - 0.45), y1 - size * math.sin(angle - 0.45)),
            (x1 - size * math.cos(angle + 0.45), y1 - size * math.sin(angle + 0.45)),
        ]
        self.draw.polygon(head, fill=fill)


def hex_label_size() -> int:
    """The font size of the hex labels ("3.7"), in pixels of the mailed picture."""
    return int(art()["hex_label"]["size"])


def badge_width(words: str) -> float:
    """How wide a mark's tag is."""
    look = art()["badge"]
    return 2 * float(look["pad"]) + picture.length(words, font(int(look["size"]), True))


def badge(
    paint: Painter, xy: Point, words: str, fill: Colour, ink: Colour, anchor: str = "m"
) -> float:
    """A mark's letters on a small rounded tag, centred on ``xy`` (``anchor`` "r": its right
    end there); its width."""
    look = art()["badge"]
    size, high = int(look["size"]), float(look["half_height"])
    half = badge_width(words) / 2
    x, y = xy
    if anchor == "r":
        x -= half
    paint.draw.rounded_rectangle(
        (x - half, y - high, x + half, y + high), 3, fill=fill, outline=ink
    )
    paint.text((x, y), words, size, ink, bold=True)
    return 2 * half
