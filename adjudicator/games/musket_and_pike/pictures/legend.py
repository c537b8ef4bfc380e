"""The key under the Musket & Pike map, in the reader's language: each kind of ground on this
battle's map as a swatch of its colour with its name, then what the pieces carry (a counter's
id, strength and morale, its facing bar and marks, the leaders' discs) and the arrows, each
drawn as the map draws it (``marks``).

The key is laid out as a flow of entries (an icon drawn as the map draws it, then its words),
wrapped to the picture's width: a longer word in Spanish or Russian moves what follows it, and
the band grows a row rather than cut anything short.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from adjudicator.core.picture import Point
from adjudicator.core.said import N_, _, words_of
from adjudicator.games.musket_and_pike.pictures import legend_marks as marks
from adjudicator.games.musket_and_pike.pictures.legend_entry import ICON_GAP, ROW, SIZE, Entry, Icon
from adjudicator.games.musket_and_pike.pictures.look import Painter, art, colour, rgb
from adjudicator.games.musket_and_pike.rules.data import Ruleset
from adjudicator.games.musket_and_pike.rules.scenario import Scenario
from adjudicator.games.musket_and_pike.rules.state import Position

TERRAIN_WORDS = {
    "clear": N_("clear"),
    "road": N_("road"),
    "woods": N_("woods"),
    "rough": N_("rough ground"),
    "hill": N_("hill"),
    "enclosure": N_("enclosures"),
    "village": N_("village"),
    "ford": N_("ford"),
    "river": N_("river"),
}

# The key's margins and gaps; its type and rows are ``legend_entry``'s.
LEFT, GAP, PAD = 14, 20, 10
SWATCH = 10  # the radius of a terrain swatch, a small hex


@dataclass(frozen=True)
class Section:
    """A heading and its entries, on rows ``row`` pixels high."""

    entries: Sequence[Entry]
    row: float = ROW


def _swatch(name: str) -> Icon:
    def draw(paint: Painter, at: Point) -> None:
        x, y = at[0] + SWATCH, at[1]
        corners = [
            (x + SWATCH * dx, y + SWATCH * dy)
            for dx, dy in (
                (1, 0),
                (0.5, 0.866),
                (-0.5, 0.866),
                (-1, 0),
                (-0.5, -0.866),
                (0.5, -0.866),
            )
        ]
        paint.draw.polygon(corners, fill=rgb(art()["terrain"][name]), outline=colour("hex_edge"))

    return draw


def terrain_shown(battle: Scenario, rules: Ruleset) -> list[str]:
    """The kinds of ground on this battle's map, in the ruleset's order."""
    letters = {
        battle.letter((column, row))
        for row in range(battle.height)
        for column in range(battle.width)
    }
    found = {rules.letters[letter] for letter in letters if letter in rules.letters}
    return [name for name in rules.terrain if name in found]


def _terrain_words(name: str, rules: Ruleset) -> str:
    words = words_of(TERRAIN_WORDS, name)
    if not rules.terrain[name].cost:
        return _("%(terrain)s (impassable)", terrain=words)
    return words


def sections(battle: Scenario, rules: Ruleset, position: Position) -> list[Section]:
    """The key's sections: the ground, then the pieces' marks and the arrows."""
    ground = [
        Entry(_terrain_words(name, rules), _swatch(name), 2 * SWATCH)
        for name in terrain_shown(battle, rules)
        if name in art()["terrain"]
    ]
    return [
        Section([Entry(_("Terrain"), heading=True), *ground]),
        Section([Entry(_("Pieces"), heading=True), *marks.pieces_entries(position)], marks.ROW),
        Section([Entry(_("Arrows"), heading=True), *marks.arrows(position)]),
    ]


def _placed(parts: Sequence[Section], width: float) -> Iterator[tuple[Entry, Point]]:
    """Each entry and where it starts (its left, its row's middle), relative to the band's top:
    each section on a row of its own, wrapped to ``width``."""
    top: float = PAD
    for part in parts:
        x: float = LEFT
        for entry in part.entries:
            wide = entry.width()
            if x > LEFT and x + wide > width - LEFT:
                top, x = top + part.row, LEFT + GAP
            yield entry, (x, top + part.row / 2)
            x += wide + GAP
        top += part.row


def height(parts: Sequence[Section], width: float) -> int:
    """The band's height for ``parts`` at ``width``: down to its last row, and the padding."""
    if not parts:
        return 0
    last = max(at[1] for entry, at in _placed(parts, width))
    return math.ceil(last + parts[-1].row / 2 + PAD)


def draw(paint: Painter, parts: Sequence[Section], top: float, bottom: float) -> None:
    """The key on a band from ``top`` to ``bottom``."""
    width = paint.place.width
    paint.draw.rectangle((0, top, width, bottom), fill=colour("background"))
    paint.draw.line([(0, top), (width, top)], fill=colour("hex_edge"), width=1)
    for entry, (x, y) in _placed(parts, width):
        if entry.icon is not None:
            entry.icon(paint, (x, top + y))
            x += entry.wide + ICON_GAP
        tint = colour("muted") if entry.heading else colour("ink")
        paint.left_text((x, top + y), entry.words, SIZE, tint, entry.heading)
