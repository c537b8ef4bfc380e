"""Last turn's moves on the 2 de Mayo map: each a coloured arrow from box border to box border,
in its side's lane of the street, round the boxes it passes through; stopped moves end on a bar,
failed ones are dashed and end on a cross, and a number tells how many units went."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from adjudicator.core import picture
from adjudicator.core.picture import Colour, Point, along, unit
from adjudicator.games.dos_de_mayo.describe import area_order
from adjudicator.games.dos_de_mayo.render_art import Art, Painter, Rect, font

ARROW_WIDTH = 3
LANE = 8.0  # pixels between the lanes of the two sides' moves along one street
STOP_FRACTION = 0.5  # a stopped move is drawn this far along its first street


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


def _shift(a: str, b: str, side: str) -> float:
    """How far left of its street a move a→b runs: opposite moves, and the two sides' moves
    the same way, each get their own lane."""
    forward = 1 if area_order(a) < area_order(b) else -1
    return (LANE if side == "france" else -LANE) * forward + LANE / 2


def _leg(look: Art, a: str, b: str, side: str) -> tuple[Point, Point]:
    """One step of a move, from the border of a's box to the border of b's box."""
    (ax, ay), (bx, by) = look.centre(a), look.centre(b)
    ux, uy = unit((ax, ay), (bx, by))
    shift = _shift(a, b, side)
    start, end = (ax + uy * shift, ay - ux * shift), (bx + uy * shift, by - ux * shift)
    return _leave(look.rect(a, 3), start, end), _leave(look.rect(b, 3), end, start)


def draw_move(paint: Painter, move: Mapping[str, Any]) -> None:
    """One move of last turn, as its result shows it; a move through a place the art does not
    know is not drawn."""
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
        bar = along(first_start, first_end, math.dist(first_start, first_end) * STOP_FRACTION)
        paint.polyline([first_start, bar], colour, ARROW_WIDTH)
        ux, uy = unit(first_start, first_end)
        paint.draw.line(
            [(bar[0] - uy * 7, bar[1] + ux * 7), (bar[0] + uy * 7, bar[1] - ux * 7)],
            fill=colour,
            width=ARROW_WIDTH + 1,
        )
        label_at = along(first_start, bar, math.dist(first_start, bar) * 0.35)
    elif result == "failed":
        paint.dashed(points, colour, ARROW_WIDTH - 1, 6, 4)
        paint.cross(points[-1], colour)
        label_at = along(first_start, first_end, math.dist(first_start, first_end) * 0.3)
    else:
        paint.polyline(points, colour, ARROW_WIDTH)
        paint.head(points[-1], points[-2], colour)
        label_at = along(first_start, first_end, math.dist(first_start, first_end) * 0.3)
    if int(move.get("units", 1)) > 1:
        _tag(paint, label_at, str(move["units"]), colour)


def _tag(paint: Painter, at: Point, label: str, colour: Colour) -> None:
    """The number of units on a move arrow."""
    x, y = at
    paint.draw.ellipse(
        (x - 7, y - 7, x + 7, y + 7), fill=paint.colour["area"], outline=colour, width=2
    )
    picture.label(paint.draw, (x, y + 0.5), label, font(10, True), colour, anchor="mm")
