"""The map of old Madrid as a PNG: areas, streets, units, last turn's moves, the counts and cards.

It draws a view (never a state), so it shows nothing the viewer may not see. Coordinates, sizes
and colours come from ``art.toml``; the rules are not consulted. The streets, area shapes, names,
legend and panel frame never change, so they are drawn once (``base_layer``) and every picture
is drawn on a copy of that layer.
"""

from __future__ import annotations

import functools
import io
import itertools
import math
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from adjudicator.games.dos_de_mayo.describe import (
    END_WORDS,
    SIDES,
    area_order,
    art,
    board,
    card_words,
    contested,
    side_name,
)

Colour = tuple[int, int, int]
Point = tuple[float, float]
Rect = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

TITLE = "2 DE MAYO  ·  Madrid, 2 May 1808"
ARROW_WIDTH = 3
LANE = 8.0  # pixels between the lanes of the two sides' moves along one street
STOP_FRACTION = 0.5  # a stopped move is drawn this far along its first street
HAND_PAD = 10  # the hand's words keep this far inside the hand's part of the panel


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
    for name in load_art().fonts["bold" if bold else "regular"]:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def _plain(text: str, face: Font) -> str:
    """Pillow's fallback font has no accented letters: drop the accents rather than show boxes."""
    if isinstance(face, ImageFont.FreeTypeFont) and face.getname()[0] != "Aileron":
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


class Painter:
    """Drawing helpers bound to one image and the art."""

    def __init__(self, image: Image.Image, look: Art) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
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
    ) -> float:
        """Draw text (cut with an ellipsis to ``width`` if given); returns its drawn length."""
        face = font(size, bold)
        text = _plain(text, face)
        if width is not None and self.draw.textlength(text, font=face) > width:
            while text and self.draw.textlength(text + "…", font=face) > width:
                text = text[:-1]
            text = text.rstrip() + "…"
        self.draw.text(xy, text, fill=self.colour[colour], font=face, anchor=anchor)
        return float(self.draw.textlength(text, font=face))

    def polyline(self, points: Sequence[Point], colour: Colour, width: int) -> None:
        self.draw.line(list(points), fill=colour, width=width, joint="curve")

    def dashed(
        self, points: Sequence[Point], colour: Colour, width: int, dash: float = 7, gap: float = 5
    ) -> None:
        drawing, left = True, dash
        for start, end in itertools.pairwise(points):
            length = math.dist(start, end)
            done = 0.0
            while done < length:
                step = min(left, length - done)
                if drawing:
                    self.draw.line(
                        [_along(start, end, done), _along(start, end, done + step)],
                        fill=colour,
                        width=width,
                    )
                done += step
                left -= step
                if left <= 0:
                    drawing = not drawing
                    left = dash if drawing else gap

    def head(self, tip: Point, came_from: Point, colour: Colour, length: float = 11) -> None:
        ux, uy = _unit(came_from, tip)
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
        self.draw.text((x, y + 0.5), label, fill=ink, font=font(12, True), anchor="mm")


def _along(start: Point, end: Point, distance: float) -> Point:
    ux, uy = _unit(start, end)
    return start[0] + ux * distance, start[1] + uy * distance


def _unit(start: Point, end: Point) -> Point:
    length = math.dist(start, end) or 1.0
    return (end[0] - start[0]) / length, (end[1] - start[1]) / length


def _leave(rect: Rect, start: Point, end: Point) -> Point:
    """Where the segment start→end (start inside ``rect``) crosses the rect's border."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    ts = [1.0]
    if dx:
        ts.append(((rect[2] if dx > 0 else rect[0]) - start[0]) / dx)
    if dy:
        ts.append(((rect[3] if dy > 0 else rect[1]) - start[1]) / dy)
    t = max(0.0, min(ts))
    return start[0] + dx * t, start[1] + dy * t


def _around(rect: Rect, entry: Point, exit_: Point) -> list[Point]:
    """The shorter way along the border of ``rect`` from entry to exit (both on the border)."""
    x0, y0, x1, y1 = rect
    width, height = x1 - x0, y1 - y0
    perimeter = 2 * (width + height)

    def place(point: Point) -> float:
        x, y = point
        sides = [abs(y - y0), abs(x - x1), abs(y - y1), abs(x - x0)]
        nearest = sides.index(min(sides))
        return [x - x0, width + y - y0, width + height + x1 - x, 2 * width + height + y1 - y][
            nearest
        ]

    corners = [
        (width, (x1, y0)),
        (width + height, (x1, y1)),
        (2 * width + height, (x0, y1)),
        (perimeter, (x0, y0)),
    ]
    start, end = place(entry), place(exit_)
    forward = (end - start) % perimeter
    route: list[Point] = [entry]
    if forward <= perimeter / 2:
        for offset in sorted(((at - start) % perimeter, xy) for at, xy in corners):
            if 0 < offset[0] < forward:
                route.append(offset[1])
    else:
        backward = perimeter - forward
        for offset in sorted(((start - at) % perimeter, xy) for at, xy in corners):
            if 0 < offset[0] < backward:
                route.append(offset[1])
    route.append(exit_)
    return route


# --- the static layer -------------------------------------------------------------------------


def _streets(paint: Painter) -> None:
    look, where = paint.art, board()
    pairs = sorted(
        {tuple(sorted((a, b), key=area_order)) for a, bs in where.neighbours.items() for b in bs}
    )
    main = [pair for pair in pairs if set(pair) <= where.main_streets]
    for casing, fill, chosen, wide in (
        ("road_edge", "road", [p for p in pairs if p not in main], 9),
        ("main_road_edge", "main_road", main, 15),
    ):
        for a, b in chosen:
            ends = [look.centre(a), look.centre(b)]
            paint.polyline(ends, paint.colour[casing], wide)
        for a, b in chosen:
            ends = [look.centre(a), look.centre(b)]
            paint.polyline(ends, paint.colour[fill], wide - 4)
    for gate, centre in look.stacks.values():
        paint.dashed([centre, look.centre(gate)], paint.colour["road_edge"], 3)


def _badge(paint: Painter, x: float, y: float, label: str, gate: bool) -> None:
    """An area's number: a disc, or for a gate a small crenellated tower, at top-left (x, y)."""
    colour = paint.colour["badge"]
    if gate:
        paint.draw.rectangle((x, y + 3, x + 22, y + 24), fill=colour)
        for merlon in (0.0, 8.5, 17.0):
            paint.draw.rectangle((x + merlon, y - 2, x + merlon + 5, y + 3), fill=colour)
        paint.text((x + 11, y + 14.5), label, 13, "badge_ink", "mm", bold=True)
        return
    paint.draw.ellipse((x, y, x + 22, y + 22), fill=colour)
    paint.text((x + 11, y + 11), label, 13, "badge_ink", "mm", bold=True)


def _swords(paint: Painter, at: Point) -> None:
    """The contested mark: crossed blades in a disc."""
    x, y = at
    paint.draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=paint.colour["contested_edge"])
    ink = paint.colour["chip_ink"]
    paint.draw.line([(x - 5, y - 5), (x + 5, y + 5)], fill=ink, width=2)
    paint.draw.line([(x - 5, y + 5), (x + 5, y - 5)], fill=ink, width=2)


def contested_mark(paint: Painter, area: str) -> None:
    _, top, right, _ = paint.art.rect(area)
    _swords(paint, (right - 14, top + 1))


def draw_area(paint: Painter, area: str, highlight: bool = False) -> None:
    """An area's box, number badge and name; ``highlight`` marks it contested."""
    look, where = paint.art, board()
    x0, y0, x1, y1 = look.rect(area)
    gate, main = area in where.gates, area in where.main_streets
    fill = paint.colour["main_area" if main else "area"]
    edge = paint.colour["gate_edge" if gate else "area_edge"]
    width = 3 if gate else 2
    if highlight:
        fill, edge, width = paint.colour["contested"], paint.colour["contested_edge"], 4
    paint.draw.rounded_rectangle(
        (x0, y0, x1, y1), look.corner, fill=fill, outline=edge, width=width
    )
    _badge(paint, x0 + 5, y0 + 5, area, gate)
    names = look.lines[area]
    top = y0 + (16 if len(names) == 1 else 10)
    for index, line in enumerate(names):
        paint.text(
            (x0 + 32, top + index * 13), line, 12, "ink", "lm", bold=True, width=x1 - x0 - 36
        )


def _stack_frame(paint: Painter, stack: str) -> None:
    x0, y0, x1, y1 = paint.art.rect(stack)
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 6, fill=paint.colour["off_map"])
    paint.dashed(
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], paint.colour["france"], 2, 4, 3
    )
    paint.text(((x0 + x1) / 2, y0 + 10), stack, 11, "france", "mm", bold=True)


def _legend(paint: Painter) -> None:
    x0, y0, x1, y1 = paint.art.legend
    colour, ink = paint.colour, paint.colour["ink"]
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 8, fill=colour["area"], outline=colour["muted"])
    paint.text((x0 + 10, y0 + 8), "KEY", 11, "muted", bold=True)
    left, words, row = x0 + 10, x0 + 62, 16.0
    y = y0 + 32
    paint.chip((left + 10, y), "france", "2")
    paint.chip((left + 36, y), "spain", "1")
    paint.text((words, y), "French, Spanish units", 11, anchor="lm")
    y += row + 8
    paint.chip((left + 10, y), "france", "−1", lost=True)
    paint.chip((left + 36, y), "spain", "−1", lost=True)
    paint.text((words, y), "lost this turn", 11, anchor="lm")
    y += row + 6
    paint.draw.rounded_rectangle(
        (left, y - 7, left + 32, y + 7),
        4,
        fill=colour["contested"],
        outline=colour["contested_edge"],
        width=3,
    )
    _swords(paint, (left + 32, y - 7))
    paint.text((words, y), "contested: both sides", 11, anchor="lm")
    y += row + 2
    paint.polyline([(left, y), (left + 32, y)], colour["main_road_edge"], 11)
    paint.polyline([(left, y), (left + 32, y)], colour["main_road"], 7)
    paint.text((words, y), "main street", 11, anchor="lm")
    _badge(paint, x0 + 136, y - 9, "", gate=True)
    paint.text((x0 + 162, y), "gate", 11, anchor="lm")
    y += row + 2
    paint.polyline([(left, y), (left + 24, y)], ink, ARROW_WIDTH)
    paint.head((left + 34, y), (left, y), ink, 10)
    paint.text((words, y), "moved", 11, anchor="lm")
    y += row
    paint.polyline([(left, y), (left + 16, y)], ink, ARROW_WIDTH)
    paint.draw.line([(left + 16, y - 7), (left + 16, y + 7)], fill=ink, width=ARROW_WIDTH + 1)
    paint.text((words, y), "stopped by a swap", 11, anchor="lm")
    y += row
    paint.dashed([(left, y), (left + 26, y)], ink, ARROW_WIDTH - 1, 6, 4)
    _cross(paint, (left + 29, y), ink)
    paint.text((words, y), "failed: stayed", 11, anchor="lm")


def _compass(paint: Painter) -> None:
    x, y = paint.art.compass
    ink = paint.colour["muted"]
    paint.draw.polygon([(x, y - 16), (x + 6, y + 4), (x, y), (x - 6, y + 4)], fill=ink)
    paint.text((x, y + 14), "N", 12, "muted", "mm", bold=True)


def _cross(paint: Painter, at: Point, colour: Colour, size: float = 5) -> None:
    x, y = at
    paint.draw.line([(x - size, y - size), (x + size, y + size)], fill=colour, width=3)
    paint.draw.line([(x - size, y + size), (x + size, y - size)], fill=colour, width=3)


def _panel_frame(paint: Painter) -> None:
    look, colour = paint.art, paint.colour
    top = look.map_bottom
    paint.draw.rectangle((0, top, look.width, look.height), fill=colour["panel"])
    paint.draw.line([(0, top), (look.width, top)], fill=colour["panel_rule"], width=2)
    cards_x, hand_x = look.panel["cards_x"], look.panel["hand_rect"][0]
    for x in (cards_x - 10, hand_x):
        paint.draw.line([(x, top + 10), (x, look.height - 10)], fill=colour["panel_rule"], width=1)
    left = look.panel["losses_x"]
    paint.text((left, top + 10), "LOSSES", 11, "muted", bold=True)
    paint.text((left, top + 88), "INITIATIVE", 11, "muted", bold=True)
    paint.text((cards_x, top + 10), "CARDS IN PLAY", 11, "muted", bold=True)
    paint.text((cards_x, top + 72), "PLAYED LAST TURN", 11, "muted", bold=True)
    paint.text((hand_x + HAND_PAD, top + 10), "HANDS", 11, "muted", bold=True)
    x0, y0, x1, y1 = look.set_aside
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 8, fill=colour["area"], outline=colour["muted"])
    paint.text((x0 + 10, y0 + 8), "SET ASIDE", 11, "muted", bold=True)
    paint.text((x0 + 10, y1 - 12), "brought in by cards only", 10, "muted", "lm")


@functools.cache
def base_layer() -> Image.Image:
    """Everything that never changes, drawn once: callers must draw on a copy."""
    look = load_art()
    image = Image.new("RGB", (look.width, look.height), look.colours["background"])
    paint = Painter(image, look)
    paint.draw.rectangle((0, 0, look.width, look.header), fill=paint.colour["header"])
    paint.text((12, look.header / 2), TITLE, 16, "header_ink", "lm", bold=True)
    _streets(paint)
    for area in look.centres:
        draw_area(paint, area)
    for stack in look.stacks:
        _stack_frame(paint, stack)
    _legend(paint)
    _compass(paint)
    _panel_frame(paint)
    return image


# --- the position -------------------------------------------------------------------------------


def _header(paint: Painter, view: Mapping[str, Any]) -> None:
    look = paint.art
    if view["status"] == "over":
        paint.draw.rectangle((0, 0, look.width, look.header), fill=paint.colour["header_over"])
        winner = view.get("winner")
        verdict = f"GAME OVER: {side_name(winner).upper()} WINS" if winner else "GAME OVER"
        reason = END_WORDS.get(str(view.get("end_reason") or ""), "")
        paint.text((12, look.header / 2), verdict, 16, "header_ink", "lm", bold=True)
        used = font(16, True).getlength(verdict + "   ")
        if reason:
            paint.text(
                (12 + used, look.header / 2),
                reason,
                13,
                "header_ink",
                "lm",
                width=look.width - used - 130,
            )
    turn = f"Turn {view['turn']}" + (f" of {view['turns']}" if view.get("turns") else "")
    paint.text((look.width - 12, look.header / 2), turn, 16, "header_ink", "rm", bold=True)


def _losses_by_area(view: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    lost: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(SIDES, 0))
    for combat in view.get("combats") or []:
        for side in SIDES:
            lost[str(combat["area"])][side] += int(combat["lost"].get(side, 0))
    for removal in view.get("removed") or []:
        lost[str(removal["area"])][str(removal["side"])] += int(removal["units"])
    return lost


def _chips(paint: Painter, centre: Point, chips: Iterable[tuple[str, str, bool]]) -> None:
    """A centred row of chips: (side, label, lost)."""
    row = list(chips)
    step = 26
    x = centre[0] - step * (len(row) - 1) / 2
    for side, label, lost in row:
        paint.chip((x, centre[1]), side, label, lost)
        x += step


def _units(paint: Painter, view: Mapping[str, Any]) -> None:
    look = paint.art
    lost = _losses_by_area(view)
    for area in look.centres:
        groups = view["areas"].get(area, {})
        row = [(side, str(groups[side]), False) for side in SIDES if groups.get(side)]
        row += [
            (side, f"−{lost[area][side]}", True) for side in SIDES if lost.get(area, {}).get(side)
        ]
        x0, y0, x1, y1 = look.rect(area)
        _chips(paint, ((x0 + x1) / 2, y1 - 15), row)
    for stack in look.stacks:
        x0, y0, x1, y1 = look.rect(stack)
        count = int(view["off_map"].get(stack, 0))
        row = [("france", str(count), False)] if count else []
        if lost.get(stack, {}).get("france"):
            row.append(("france", f"−{lost[stack]['france']}", True))
        if row:
            _chips(paint, ((x0 + x1) / 2, y1 - 15), row)
        else:
            paint.text(((x0 + x1) / 2, y1 - 15), "empty", 10, "muted", "mm")
    x0, y0, x1, y1 = look.set_aside
    pools = view["set_aside"]
    for index, side in enumerate(SIDES):
        x = x0 + 22 + index * 64
        paint.chip((x, y0 + 40), side, str(pools.get(side, 0)))
        paint.text((x + 16, y0 + 40), side_name(side), 11, anchor="lm")


def _shift(a: str, b: str, side: str) -> float:
    """How far left of its street a move a→b runs: opposite moves, and the two sides' moves
    the same way, each get their own lane."""
    forward = 1 if area_order(a) < area_order(b) else -1
    return (LANE if side == "france" else -LANE) * forward + LANE / 2


def _leg(look: Art, a: str, b: str, side: str) -> tuple[Point, Point]:
    """One step of a move, from the border of a's box to the border of b's box."""
    (ax, ay), (bx, by) = look.centre(a), look.centre(b)
    ux, uy = _unit((ax, ay), (bx, by))
    shift = _shift(a, b, side)
    start, end = (ax + uy * shift, ay - ux * shift), (bx + uy * shift, by - ux * shift)
    return _leave(look.rect(a, 3), start, end), _leave(look.rect(b, 3), end, start)


def _move(paint: Painter, move: Mapping[str, Any]) -> None:
    look = paint.art
    path = [str(node) for node in (move.get("path") or [move["from"], move["to"]])]
    if len(path) < 2 or not all(look.knows(node) for node in path):
        return
    side = str(move["side"])
    colour = paint.colour.get(side, paint.colour["ink"])
    legs = [_leg(look, a, b, side) for a, b in itertools.pairwise(path)]
    points: list[Point] = list(legs[0])
    for middle, (start, end) in zip(path[1:], legs[1:], strict=False):
        points[-1:] = _around(look.rect(middle, 3), points[-1], start)
        points.append(end)
    first_start, first_end = legs[0]
    result = move["result"]
    if result == "stopped":
        bar = _along(first_start, first_end, math.dist(first_start, first_end) * STOP_FRACTION)
        paint.polyline([first_start, bar], colour, ARROW_WIDTH)
        ux, uy = _unit(first_start, first_end)
        paint.draw.line(
            [(bar[0] - uy * 7, bar[1] + ux * 7), (bar[0] + uy * 7, bar[1] - ux * 7)],
            fill=colour,
            width=ARROW_WIDTH + 1,
        )
        label_at = _along(first_start, bar, math.dist(first_start, bar) * 0.35)
    elif result == "failed":
        paint.dashed(points, colour, ARROW_WIDTH - 1, 6, 4)
        _cross(paint, points[-1], colour)
        label_at = _along(first_start, first_end, math.dist(first_start, first_end) * 0.3)
    else:
        paint.polyline(points, colour, ARROW_WIDTH)
        paint.head(points[-1], points[-2], colour)
        label_at = _along(first_start, first_end, math.dist(first_start, first_end) * 0.3)
    if int(move.get("units", 1)) > 1:
        _tag(paint, label_at, str(move["units"]), colour)


def _tag(paint: Painter, at: Point, label: str, colour: Colour) -> None:
    """The number of units on a move arrow."""
    x, y = at
    paint.draw.ellipse(
        (x - 7, y - 7, x + 7, y + 7), fill=paint.colour["area"], outline=colour, width=2
    )
    paint.draw.text((x, y + 0.5), label, fill=colour, font=font(10, True), anchor="mm")


def _pips(paint: Painter, x: float, y: float, side: str, filled: int, total: int) -> None:
    colour = paint.colour[side]
    for index in range(total):
        box = (x + index * 15, y - 6, x + index * 15 + 12, y + 6)
        fill = colour if index < filled else paint.colour["area"]
        if side == "france":
            paint.draw.rectangle(box, fill=fill, outline=colour, width=2)
        else:
            paint.draw.ellipse(box, fill=fill, outline=colour, width=2)


def _panel(paint: Painter, view: Mapping[str, Any]) -> None:
    look = paint.art
    top, left, line = look.map_bottom, look.panel["losses_x"], look.panel["line"]
    losses, limit = view["losses"], int(view["loss_limit"])
    paint.text((left, top + 34), f"France {losses['france']} of {limit}", 13, "france", "lm", True)
    _pips(
        paint, left + 104, top + 34, "france", int(losses["france"]), max(limit, losses["france"])
    )
    paint.text((left, top + 60), f"Spain {losses['spain']}", 13, "spain", "lm", True)
    _pips(paint, left + 104, top + 60, "spain", int(losses["spain"]), min(int(losses["spain"]), 6))
    initiative = str(view["initiative"])
    paint.text((left, top + 112), side_name(initiative), 14, initiative, "lm", True)
    paint.text((left, top + 130), "wins swap ties, acts first", 10, "muted", "lm")
    cards_x = look.panel["cards_x"]
    width = look.panel["hand_rect"][0] - cards_x - 10
    _card_list(paint, cards_x, top + 30, view.get("cards_in_play") or [], 2, line, width)
    _card_list(paint, cards_x, top + 92, view.get("cards_played_last_turn") or [], 3, line, width)
    _hands(paint, view)


def _card_list(
    paint: Painter,
    x: float,
    y: float,
    cards: Sequence[Mapping[str, Any]],
    rows: int,
    line: int,
    width: float,
) -> None:
    if not cards:
        paint.text((x, y), "none", 12, "muted", "lm")
        return
    shown = cards if len(cards) <= rows else cards[: rows - 1]
    for index, card in enumerate(shown):
        at = y + index * line
        side = str(card.get("side", ""))
        if side in SIDES:
            paint.draw.rectangle((x, at - 4, x + 8, at + 4), fill=paint.colour[side])
        words = card_words({**card, "side": None})
        paint.text((x + 14, at), words, 12, "ink", "lm", width=width - 14)
    if len(shown) < len(cards):
        paint.text(
            (x + 14, y + len(shown) * line),
            f"and {len(cards) - len(shown)} more",
            12,
            "muted",
            "lm",
        )


def _hands(paint: Painter, view: Mapping[str, Any]) -> None:
    """Hand sizes, and the viewer's own cards: the only part that differs between seats."""
    left, y0, right, _ = paint.art.panel["hand_rect"]
    x0, x1 = left + HAND_PAD, right - HAND_PAD
    sizes = view["hand_sizes"]
    for index, side in enumerate(SIDES):
        y = y0 + 34 + index * 20
        paint.text((x0, y), side_name(side), 12, side, "lm", True)
        count = int(sizes.get(side, 0))
        for card in range(min(count, 8)):
            x = x0 + 50 + card * 13
            paint.draw.rounded_rectangle(
                (x, y - 8, x + 10, y + 8),
                2,
                fill=paint.colour["card_back"],
                outline=paint.colour[side],
                width=1,
            )
        paint.text((x0 + 54 + min(count, 8) * 13, y), f"{count}", 12, "ink", "lm")
    hand = view.get("hand")
    if hand is None:
        return
    y = y0 + 80
    paint.text((x0, y), "YOUR HAND", 11, "muted", bold=True)
    names = [str(card["name"]) for card in hand] or ["empty"]
    columns = 1 if len(names) <= 3 else 2
    column_width = (x1 - x0 - 8) / columns
    for index, name in enumerate(names[: 3 * columns]):
        column, row = divmod(index, 3)
        paint.text(
            (x0 + column * column_width, y + 22 + row * 15),
            name,
            12,
            "ink",
            "lm",
            width=column_width - 6,
        )


@functools.cache
def palette() -> Image.Image:
    """One fixed palette for every picture: the base layer's own colours, every art colour and
    the anti-aliasing steps between the colours drawn on top of each other.

    Fixed rather than chosen per picture, so a change in one area changes only that area's
    pixels, and mapping to it is far cheaper than choosing one.
    """
    look = load_art()
    static = base_layer().quantize(
        colors=look.palette, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    flat = (static.getpalette() or [])[: look.palette * 3]
    colours = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
    colours += look.colours.values()
    for top, ground in look.ramps:
        (r1, g1, b1), (r2, g2, b2) = look.colours[top], look.colours[ground]
        for step in (0.25, 0.5, 0.75):
            colours.append(
                (
                    round(r1 + (r2 - r1) * step),
                    round(g1 + (g2 - g1) * step),
                    round(b1 + (b2 - b1) * step),
                )
            )
    unique = list(dict.fromkeys(colours))[:256]
    image = Image.new("P", (1, 1))
    image.putpalette([value for colour in unique for value in colour])
    return image


def encode(image: Image.Image) -> bytes:
    """A PNG on the fixed palette: flat map colours compress far below the mail budget."""
    out = io.BytesIO()
    image.quantize(palette=palette(), dither=Image.Dither.NONE).save(out, format="PNG")
    return out.getvalue()


def picture(view: Mapping[str, Any]) -> Image.Image:
    """The map for one view, as an RGB image."""
    look = load_art()
    image = base_layer().copy()
    paint = Painter(image, look)
    _header(paint, view)
    for area in contested(view):
        if area in look.centres:
            draw_area(paint, area, highlight=True)
    for move in sorted(view.get("last_moves") or [], key=lambda m: m["result"] == "moved"):
        _move(paint, move)
    for area in contested(view):
        if area in look.centres:
            contested_mark(paint, area)
    _units(paint, view)
    _panel(paint, view)
    return image


def render(view: Mapping[str, Any], facts: Mapping[str, Any] | None) -> bytes:
    """The map PNG; everything drawn comes from the view, so ``facts`` is not needed."""
    del facts
    return encode(picture(view))
