"""The pieces on the Musket & Pike map: a unit's counter with its facing tick and marks, and the
leaders' discs. Drawn at a hex on the map, or at any point (the map's key shows one of each).
"""

from __future__ import annotations

import math

from adjudicator.core.picture import Colour, Point
from adjudicator.games.musket_and_pike.pictures.look import Painter, art, badge, colour, side_colour
from adjudicator.games.musket_and_pike.rules.hexes import Hex
from adjudicator.games.musket_and_pike.rules.state import Leader, Unit


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
    """``piece``'s counter centred at ``at``: its facing tick, its body in its side's colour,
    the id the orders name it by ("R-HI-1") over its strength (SP) and morale ("m6"), and its
    marks at the corners."""
    x, y = at
    look = art()["counter"]
    half = float(look["half"]) * paint.place.radius
    wide = float(look["half_width"]) * paint.place.radius
    body = side_colour(paint.position, piece.side)
    routed = piece.morale_state == "routed"
    _tick(paint, piece, at, body)
    edge = colour("routed") if routed else colour("ink")
    paint.draw.rounded_rectangle(
        (x - wide, y - half, x + wide, y + half),
        4,
        fill=body,
        outline=edge,
        width=3 if routed else 1,
    )
    ink = colour("counter_ink")
    paint.text((x, y - 0.38 * half), piece.id, 9, ink, bold=True)
    paint.text((x - 0.3 * wide, y + 0.42 * half), str(piece.sp), 14, ink, bold=True)
    paint.text((x + 0.45 * wide, y + 0.45 * half), f"m{piece.morale}", 9, ink)
    # The marks sit on the counter's top edge, out of the numbers' way, and never on its bottom
    # corners, where a neighbouring hex's counter comes nearest: its state at the right corner,
    # fire at the left.
    right = x + wide
    for mark, fill, mark_ink in _states(piece):
        right -= badge(paint, (right, y - half), mark, fill, mark_ink, anchor="r") + 1
    if piece.salvo or piece.fired:
        badge(paint, (x - wide, y - half), "Sv" if piece.salvo else "F", colour("salvo"), body)


def _states(piece: Unit) -> list[tuple[str, Colour, Colour]]:
    """The counter's state marks, right to left: formation (D, B), then morale (S, R), each
    with its fill and ink."""
    found: list[tuple[str, Colour, Colour]] = []
    if piece.formation != "normal":
        mark = "D" if piece.formation == "disordered" else "B"
        found.append((mark, colour(piece.formation), colour("ink")))
    if piece.morale_state == "shaken":
        found.append(("S", colour("shaken"), colour("ink")))
    elif piece.morale_state != "good":
        found.append(("R", colour("routed"), colour("counter_ink")))
    return found


def _tick(paint: Painter, piece: Unit, at: Point, body: Colour) -> None:
    """The facing tick: from the counter's edge it runs out only a little, so a tick to the
    north ends below the hex's label instead of crossing it."""
    look = art()["counter"]
    half = float(look["half"]) * paint.place.radius
    wide = float(look["half_width"]) * paint.place.radius
    bearing = math.radians(60 * piece.facing)
    across, down = math.sin(bearing), -math.cos(bearing)
    # How far the counter's edge is along the bearing (the nearer of its sides and its top).
    edge = min(wide / abs(across) if across else math.inf, half / abs(down) if down else math.inf)
    reach = edge + float(look["tick"]) * paint.place.radius
    tick_to = (at[0] + reach * across, at[1] + reach * down)
    paint.draw.line([at, tick_to], fill=body, width=int(look["tick_width"]))


def leader_size(paint: Painter) -> float:
    """The radius of a leader's disc."""
    return max(6.0, 0.24 * paint.place.radius)


def leaders(paint: Painter) -> None:
    stacks: dict[Hex, list[Leader]] = {}
    for chief in paint.position.leaders:
        if chief.hex is not None:
            stacks.setdefault(chief.hex, []).append(chief)
    size = leader_size(paint)
    manned = {piece.hex for piece in paint.position.units if piece.hex is not None}
    for where, chiefs in stacks.items():
        # Level with the counter, below the hex's label.
        x, y = counter_centre(paint, where)
        for number, chief in enumerate(chiefs):
            if where in manned:
                # Left of the counter, over its edge only a little: clear of the id on it.
                cx = x - float(art()["counter"]["half_width"]) * paint.place.radius - 0.8 * size
                cy = y - size * (len(chiefs) - 1) + 2 * size * number
            else:
                # Alone, where a counter would stand, so it is read as in this hex.
                cx, cy = x - size * (len(chiefs) - 1) + 2 * size * number, y
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
