"""The key under the Musket & Pike map, in the reader's language: each kind of ground on this
battle's map as a swatch of its colour with its name.

The key is laid out as a flow of entries (an icon drawn as the map draws it, then its words),
wrapped to the picture's width: a longer word in Spanish or Russian moves what follows it, and
the band grows a row rather than cut anything short.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from adjudicator.core import picture
from adjudicator.core.picture import Point
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.data import Ruleset
from adjudicator.games.musket_and_pike.look import Painter, art, colour, font, rgb
from adjudicator.games.musket_and_pike.scenario import Scenario

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

# The key's type (the size of the hex labels, which mail shows 10 px high), its rows and gaps.
SIZE, ROW, LEFT, GAP, ICON_GAP, PAD = 14, 26, 14, 20, 6, 10
SWATCH = 10  # the radius of a terrain swatch, a small hex

Icon = Callable[[Painter, Point], None]


@dataclass(frozen=True)
class Entry:
    """One entry of the key: an icon ``wide`` pixels wide (none for a heading), then words."""

    words: str
    icon: Icon | None = None
    wide: float = 0
    heading: bool = False

    def width(self) -> float:
        gap = self.wide + ICON_GAP if self.icon else 0
        return gap + picture.length(self.words, font(SIZE, self.heading))


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
    words = _(TERRAIN_WORDS[name]) if name in TERRAIN_WORDS else name
    if not rules.terrain[name].cost:
        return _("%(terrain)s (impassable)", terrain=words)
    return words


def sections(battle: Scenario, rules: Ruleset) -> list[list[Entry]]:
    """The key's sections, each a heading and its entries."""
    ground = [
        Entry(_terrain_words(name, rules), _swatch(name), 2 * SWATCH)
        for name in terrain_shown(battle, rules)
        if name in art()["terrain"]
    ]
    return [[Entry(_("Terrain"), heading=True), *ground]]


def _placed(parts: Sequence[Sequence[Entry]], width: float) -> Iterator[tuple[Entry, Point]]:
    """Each entry and where it starts (its left, its row's middle), relative to the band's top:
    each section on a row of its own, wrapped to ``width``."""
    row = 0
    for part in parts:
        x: float = LEFT
        for entry in part:
            wide = entry.width()
            if x > LEFT and x + wide > width - LEFT:
                row, x = row + 1, LEFT + GAP
            yield entry, (x, PAD + ROW * row + ROW / 2)
            x += wide + GAP
        row += 1


def height(parts: Sequence[Sequence[Entry]], width: float) -> int:
    """The band's height for ``parts`` at ``width``: every row, and the padding round them."""
    rows = max((at[1] for _, at in _placed(parts, width)), default=-ROW / 2)
    return int(rows + ROW / 2 + PAD)


def draw(paint: Painter, parts: Sequence[Sequence[Entry]], top: float, bottom: float) -> None:
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
