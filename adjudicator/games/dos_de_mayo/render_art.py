"""The 2 de Mayo picture's art and brush: the geometry, colours and fonts read from ``art.toml``,
and the marks every part of the map is drawn with (text, lines, arrow heads, chips, badges).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.picture import Colour, Font, Point
from adjudicator.core.stamps import StampCanvas
from adjudicator.games.dos_de_mayo.describe import art

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Art:
    """The geometry and colours of the picture, read from ``art.toml``."""

    width: int
    height: int
    header: int
    map_bottom: int
    box: tuple[int, int]
    corner: int
    palette: int
    ramps: tuple[tuple[str, str], ...]
    ramp_steps: tuple[float, ...]
    colours: Mapping[str, Colour]
    centres: Mapping[str, Point]
    lines: Mapping[str, tuple[str, ...]]
    stacks: Mapping[str, tuple[str, Point]]  # stack id -> (its gate, its centre)
    stack_box: tuple[int, int]
    set_aside: Rect
    legend: Rect
    compass: Point
    panel: Mapping[str, Any]
    fonts: Mapping[str, tuple[str, ...]]

    def rect(self, node: str, grow: float = 0) -> Rect:
        """The box of an area or an off-map stack, grown by ``grow`` on every side."""
        if node in self.centres:
            (x, y), (width, height) = self.centres[node], self.box
        else:
            (x, y), (width, height) = self.stacks[node][1], self.stack_box
        return (
            x - width / 2 - grow,
            y - height / 2 - grow,
            x + width / 2 + grow,
            y + height / 2 + grow,
        )

    def centre(self, node: str) -> Point:
        return self.centres[node] if node in self.centres else self.stacks[node][1]

    def knows(self, node: str) -> bool:
        return node in self.centres or node in self.stacks


def _pair(value: Sequence[Any]) -> tuple[int, int]:
    return int(value[0]), int(value[1])


def _rect(value: Sequence[Any]) -> Rect:
    return float(value[0]), float(value[1]), float(value[2]), float(value[3])


@functools.cache
def load_art() -> Art:
    data = art()
    canvas = data["canvas"]
    areas = data["areas"]
    stacks = data["off_map"]["stacks"]
    return Art(
        width=int(canvas["width"]),
        height=int(canvas["height"]),
        header=int(canvas["header"]),
        map_bottom=int(canvas["map_bottom"]),
        box=_pair(canvas["box"]),
        corner=int(canvas["corner"]),
        palette=int(canvas["palette"]),
        ramps=tuple((str(top), str(ground)) for top, ground in canvas["ramps"]),
        ramp_steps=tuple(float(step) for step in canvas["ramp_steps"]),
        colours={name: (int(c[0]), int(c[1]), int(c[2])) for name, c in data["colours"].items()},
        centres={str(a): (float(e["at"][0]), float(e["at"][1])) for a, e in areas.items()},
        lines={str(a): tuple(str(line) for line in e["lines"]) for a, e in areas.items()},
        stacks={
            str(s): (str(e["gate"]), (float(e["at"][0]), float(e["at"][1])))
            for s, e in stacks.items()
        },
        stack_box=_pair(data["off_map"]["box"]),
        set_aside=_rect(data["set_aside"]["rect"]),
        legend=_rect(data["legend"]["rect"]),
        compass=(float(data["compass"]["at"][0]), float(data["compass"]["at"][1])),
        panel=data["panel"],
        fonts={kind: tuple(str(name) for name in names) for kind, names in data["fonts"].items()},
    )


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """The first art font found on this machine; Pillow's own font as the last resort."""
    return picture.font(size, load_art().fonts["bold" if bold else "regular"])


class Painter:
    """Drawing helpers bound to one image and the art."""

    def __init__(self, image: Image.Image, look: Art, scale: int = 1) -> None:
        self.image = image
        # Text stamped: the names, counts and labels come back picture after picture.
        self.draw: picture.Canvas = StampCanvas(image, scale)
        self.art = look
        self.colour = look.colours

    def text(
        self,
        xy: Point,
        text: str,
        size: int,
        colour: str = "ink",
        anchor: str = "la",
        bold: bool = False,
        width: float | None = None,
        leading: float | None = None,
    ) -> int:
        """Draw text, wrapped to ``width`` if given (never cut short), its lines ``leading``
        pixels apart (the size and a quarter unless given); returns how many lines it took."""
        face = font(size, bold)
        shown = picture.plain(text, face)
        lines = [shown] if width is None else picture.wrap(shown, face, width)
        step = size * 1.25 if leading is None else leading
        for index, line in enumerate(lines):
            at = (xy[0], xy[1] + index * step)
            picture.label(self.draw, at, line, face, self.colour[colour], anchor)
        return len(lines)

    def lines(self, text: str, size: int, width: float, bold: bool = False) -> int:
        """How many lines ``text`` takes wrapped to ``width`` (as ``text`` would draw it)."""
        face = font(size, bold)
        return len(picture.wrap(picture.plain(text, face), face, width))

    def polyline(self, points: Sequence[Point], colour: Colour, width: int) -> None:
        self.draw.line(list(points), fill=colour, width=width, joint="curve")

    def dashed(
        self, points: Sequence[Point], colour: Colour, width: int, dash: float = 7, gap: float = 5
    ) -> None:
        picture.dashed(self.draw, points, colour, width, dash, gap)

    def head(self, tip: Point, came_from: Point, colour: Colour, length: float = 11) -> None:
        ux, uy = picture.unit(came_from, tip)
        back = (tip[0] - ux * length, tip[1] - uy * length)
        half = length * 0.55
        self.draw.polygon(
            [
                tip,
                (back[0] - uy * half, back[1] + ux * half),
                (back[0] + uy * half, back[1] - ux * half),
            ],
            fill=colour,
        )

    def chip(self, centre: Point, side: str, label: str, lost: bool = False) -> None:
        """A French square or a Spanish disc with a count; pale with a minus count when lost."""
        x, y = centre
        shape = (x - 11, y - 10, x + 11, y + 10)
        tone = self.colour[side]
        fill, ink = (
            (self.colour[f"{side}_light"], tone) if lost else (tone, self.colour["chip_ink"])
        )
        if side == "france":
            self.draw.rounded_rectangle(shape, 3, fill=fill, outline=tone, width=1 if lost else 2)
        else:
            self.draw.ellipse(shape, fill=fill, outline=tone, width=1 if lost else 2)
        picture.label(self.draw, (x, y + 0.5), label, font(12, True), ink, anchor="mm")

    def badge(self, x: float, y: float, label: str, gate: bool) -> None:
        """An area's number: a disc, or for a gate a small crenellated tower, at top-left (x, y)."""
        colour = self.colour["badge"]
        if gate:
            self.draw.rectangle((x, y + 3, x + 22, y + 24), fill=colour)
            for merlon in (0.0, 8.5, 17.0):
                self.draw.rectangle((x + merlon, y - 2, x + merlon + 5, y + 3), fill=colour)
            self.text((x + 11, y + 14.5), label, 13, "badge_ink", "mm", bold=True)
            return
        self.draw.ellipse((x, y, x + 22, y + 22), fill=colour)
        self.text((x + 11, y + 11), label, 13, "badge_ink", "mm", bold=True)

    def swords(self, at: Point) -> None:
        """The contested mark: crossed blades in a disc."""
        x, y = at
        self.draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=self.colour["contested_edge"])
        ink = self.colour["chip_ink"]
        self.draw.line([(x - 5, y - 5), (x + 5, y + 5)], fill=ink, width=2)
        self.draw.line([(x - 5, y + 5), (x + 5, y - 5)], fill=ink, width=2)

    def cross(self, at: Point, colour: Colour, size: float = 5) -> None:
        """The end of a failed move: the unit stayed."""
        x, y = at
        self.draw.line([(x - size, y - size), (x + size, y + size)], fill=colour, width=3)
        self.draw.line([(x - size, y + size), (x + size, y - size)], fill=colour, width=3)
