"""One entry of the Musket & Pike map's key: an icon drawn as the map draws it, then words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.core import picture
from adjudicator.core.picture import Point
from adjudicator.games.musket_and_pike.pictures.look import Painter, font

# The key's type (the size of the hex labels, which mail shows 10 px high), its rows, and the
# gap between an icon and its words.
SIZE, ROW, ICON_GAP = 14, 26, 6

# Draws an icon whose left end is at the point, on its row's middle line.
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
