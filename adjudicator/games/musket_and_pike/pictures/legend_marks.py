"""What the Musket & Pike map's pieces and arrows mean, as entries of its key (``legend``).

Every icon is drawn by the code that draws it on the map (``pieces``, ``Painter.arrow``), at the
size of Braddock Down's hexes, so the key shows the very counter, tag and disc a player sees.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace

from adjudicator.core.picture import Colour, Point
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.pictures import pieces
from adjudicator.games.musket_and_pike.pictures.legend_entry import Entry, Icon
from adjudicator.games.musket_and_pike.pictures.look import (
    Painter,
    art,
    badge,
    badge_width,
    colour,
    side_colour,
)
from adjudicator.games.musket_and_pike.rules.state import Leader, Position, Unit

RADIUS = 32.0  # the hex radius the key's pieces are drawn for, about Braddock Down's
ROW = 34  # the pieces' rows: a counter of that size, its facing bar above it
ARROW = 30  # an arrow's length

# A counter's marks: the letters, their tag's fill and ink (by art colour name), and meaning.
MARKS = (
    ("D", "disordered", "ink", N_("disordered")),
    ("B", "broken", "ink", N_("formation broken")),
    ("S", "shaken", "ink", N_("shaken")),
    ("R", "routed", "counter_ink", N_("routed")),
    ("Sv", "salvo", "side", N_("fired its salvo this turn")),
    ("F", "salvo", "side", N_("artillery fired this turn")),
)


def _sized(paint: Painter) -> Painter:
    """The painter drawing pieces at the key's size, on the same picture."""
    small = copy.copy(paint)
    small.place = replace(paint.place, radius=RADIUS)
    return small


def _counter(sample: Unit) -> tuple[Icon, float]:
    wide = float(art()["counter"]["half_width"]) * RADIUS

    def draw(paint: Painter, at: Point) -> None:
        pieces.counter(_sized(paint), sample, (at[0] + wide, at[1] + 2))

    return draw, 2 * wide


def _tick(side: str) -> tuple[Icon, float]:
    """The facing bar as it runs out of a counter's edge (the counter's edge drawn with it)."""

    def draw(paint: Painter, at: Point) -> None:
        x, y = at
        tint = side_colour(paint.position, side)
        paint.draw.line([(x, y), (x + 12, y)], fill=tint, width=int(art()["counter"]["tick_width"]))
        paint.draw.rounded_rectangle(
            (x + 10, y - 9, x + 22, y + 9), 3, fill=tint, outline=colour("ink")
        )

    return draw, 22


def _tag(letters: str, fill: Colour, ink: Colour) -> tuple[Icon, float]:
    wide = badge_width(letters)

    def draw(paint: Painter, at: Point) -> None:
        badge(paint, (at[0] + wide / 2, at[1]), letters, fill, ink)

    return draw, wide


def _disc(chief: Leader) -> tuple[Icon, float]:
    size = max(6.0, 0.24 * RADIUS)

    def draw(paint: Painter, at: Point) -> None:
        pieces.leader(_sized(paint), chief, (at[0] + size, at[1]))

    return draw, 2 * size


def _entry(words: str, made: tuple[Icon, float]) -> Entry:
    icon, wide = made
    return Entry(words, icon, wide)


def _mark_entries(side: str, position: Position) -> list[Entry]:
    found = []
    for letters, fill, ink, meaning in MARKS:
        tint = side_colour(position, side) if ink == "side" else colour(ink)
        found.append(_entry(_(meaning), _tag(letters, colour(fill), tint)))
    return found


def _leader_entries(position: Position) -> list[Entry]:
    """A disc for each role on the map (A, W) and a finished leader's "F"."""
    roles = {"AC": N_("army commander"), "WC": N_("wing commander")}
    found = []
    chiefs = {chief.role: chief for chief in reversed(position.leaders)}
    for role, words in roles.items():
        if role in chiefs:
            found.append(_entry(_(words), _disc(replace(chiefs[role], finished=False))))
    if chiefs:
        done = replace(next(iter(chiefs.values())), finished=True)
        found.append(_entry(_("leader whose wing has finished"), _disc(done)))
    return found


def pieces_entries(position: Position) -> list[Entry]:
    """A counter (its id, strength and morale), its facing bar, its marks, the leaders."""
    if not position.units:
        return _leader_entries(position)
    first = position.units[0]
    sample = replace(
        first, formation="normal", morale_state="good", salvo=False, fired=False, facing=0
    )
    said = _("unit: the id orders use, strength (SP), morale (m)")
    found = [_entry(said, _counter(sample)), _entry(_("the way it faces"), _tick(first.side))]
    return found + _mark_entries(first.side, position) + _leader_entries(position)


def _arrow(tint: Callable[[Painter], Colour], width: int) -> tuple[Icon, float]:
    def draw(paint: Painter, at: Point) -> None:
        paint.arrow([at, (at[0] + ARROW, at[1])], tint(paint), width)

    return draw, ARROW


def arrows(position: Position) -> list[Entry]:
    """The last step's arrows, as ``render`` draws them."""
    side = position.sides[0] if position.sides else ""
    return [
        _entry(_("move"), _arrow(lambda paint: side_colour(paint.position, side), 3)),
        _entry(_("retreat or rout"), _arrow(lambda paint: colour("muted"), 3)),
        _entry(_("fire"), _arrow(lambda paint: colour("fire"), 2)),
        _entry(_("close combat"), _arrow(lambda paint: colour("melee"), 4)),
    ]
