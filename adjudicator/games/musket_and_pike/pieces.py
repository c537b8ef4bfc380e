"""The pieces on the Musket & Pike map: a unit's counter with its facing tick and marks, and the
leaders' discs. Drawn at a hex on the map, or at any point (the map's key shows one of each).
"""

from __future__ import annotations

import math

from adjudicator.core.picture import Point
from adjudicator.games.musket_and_pike.hexes import Hex
from adjudicator.games.musket_and_pike.look import Painter, art, badge, colour, side_colour
from adjudicator.games.musket_and_pike.state import Leader, Unit


def counter_centre(paint: Painter, where: Hex) -> Point:
    """Where a counter stands in hex ``where``: below the hex's middle, leaving the hex's label
    above it readable."""
    x, y = paint.place.centre(where)
    return (x, y + float(art()["counter"]["below"]) * paint.place.radius)


def counters(paint: Painter) -> None:
    for piece in paint.position.units:
        if piece.hex is not None:
            counter(paint, piece, counter_centre(paint, piece.hex))


def counter(paint: Painter, piece: Unit, at: Point) -> None:
    """``piece``'s counter centred at ``at``."""
    place = paint.place
    x, y = at
    look = art()["counter"]
    half = float(look["half"]) * place.radius
    body = side_colour(paint.position, piece.side)
    routed = piece.morale_state == "routed"
    # The facing tick runs out from the counter's edge only a little, so a tick to the north
    # ends below the hex's label instead of crossing it.
    bearing = math.radians(60 * piece.facing)
    reach = half + float(look["tick"]) * place.radius
    tick_to = (x + reach * math.sin(bearing), y - reach * math.cos(bearing))
    paint.draw.line([(x, y), tick_to], fill=body, width=int(look["tick_width"]))
    edge = colour("routed") if routed else colour("ink")
    paint.draw.rounded_rectangle(
        (x - half, y - half, x + half, y + half),
        4,
        fill=body,
        outline=edge,
        width=3 if routed else 1,
    )
    ink = colour("counter_ink")
    paint.text((x, y - 0.33 * half * 2 / 1.2), piece.kind, 9, ink, bold=True)
    paint.text((x, y + 1), str(piece.sp), 14, ink, bold=True)
    paint.text((x, y + 0.62 * half), f"m{piece.morale}", 8, ink)
    if piece.formation != "normal":
        mark = "D" if piece.formation == "disordered" else "B"
        badge(paint, (x + half, y - half), mark, colour(piece.formation), colour("ink"))
    if piece.morale_state != "good":
        mark = "S" if piece.morale_state == "shaken" else "R"
        fill = colour("shaken") if mark == "S" else colour("routed")
        ink_mark = colour("ink") if mark == "S" else colour("counter_ink")
        badge(paint, (x + half, y + half), mark, fill, ink_mark)
    if piece.salvo:
        badge(paint, (x - half, y - half), "Sv", colour("salvo"), body)
    if piece.fired:
        badge(paint, (x - half, y - half), "F", colour("salvo"), body)


def leader_size(paint: Painter) -> float:
    """The radius of a leader's disc."""
    return max(6.0, 0.24 * paint.place.radius)


def leaders(paint: Painter) -> None:
    stacks: dict[Hex, list[Leader]] = {}
    for chief in paint.position.leaders:
        if chief.hex is not None:
            stacks.setdefault(chief.hex, []).append(chief)
    size = leader_size(paint)
    for where, chiefs in stacks.items():
        # Level with the counter, below the hex's label.
        x, y = counter_centre(paint, where)
        for number, chief in enumerate(chiefs):
            cx, cy = x - 0.72 * paint.place.radius, y - size * (len(chiefs) - 1) + 2 * size * number
            leader(paint, chief, (cx, cy))


def leader(paint: Painter, chief: Leader, at: Point) -> None:
    """``chief``'s disc centred at ``at``: its role's letter, or "F" once its wing finished."""
    cx, cy = at
    size = leader_size(paint)
    fill = colour("leader_finished") if chief.finished else colour("leader")
    paint.draw.ellipse(
        (cx - size, cy - size, cx + size, cy + size),
        fill=fill,
        outline=side_colour(paint.position, chief.side),
        width=2,
    )
    label = "F" if chief.finished else chief.role[0]
    paint.text((cx, cy), label, 9, colour("ink"), bold=True)
