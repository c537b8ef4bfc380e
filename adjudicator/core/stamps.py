"""Text drawn once and stamped after: the same words in the same font come back picture after
picture (a Thermopyles action's title both its pictures share, the counts, the labels of the
hand; the 2 de Mayo map's chips, badges and panel), and FreeType's drawing of a line costs up to
some 2 ms where pasting its stamp costs a few microseconds. The games that stamp draw on a
``StampCanvas``; every stamp is kept in one store (``STAMPS``) shared by them.

A stamp is the text's coverage (Pillow's own ``draw.text`` on a blank greyscale image) pasted in the
text's colour through it: the pixels ``draw.text`` would give (both blend the colour through the
same mask; tests/games/test_thermopyles_pixels.py proves it on every picture). A stamp is kept
for the font, the text, the anchor and where the text starts within its first pixel (FreeType
places glyphs at fractions of a pixel), never for a colour or a place: kept by its words, a
stamp drawn for one reader's language is never another's. The stamps kept are bounded by their
bytes, the least recently used dropped first.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict

from PIL import Image, ImageDraw, ImageFont

from adjudicator.core import picture
from adjudicator.core.picture import Colour, Font, Point

BUDGET = 8_000_000  # bytes of stamps kept: a 2x result line is some 60 KB, a count a few hundred

Key = tuple[Font, int, str, str, float, float]
Stamp = tuple[Image.Image, int, int]  # the coverage, and where it goes from the text's pixel


class Stamps:
    """Stamps by key, at most ``budget`` bytes of them; safe to share between threads."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.used = 0
        self._kept: OrderedDict[Key, Stamp] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> Stamp | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: Key, stamp: Stamp) -> None:
        size = stamp[0].width * stamp[0].height
        if size > self.budget:
            return
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = stamp
            self.used += size
            while self.used > self.budget:
                _, (dropped, _, _) = self._kept.popitem(last=False)
                self.used -= dropped.width * dropped.height

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.used = 0


STAMPS = Stamps()


@functools.lru_cache(maxsize=64)
def scaled(face: Font, scale: int) -> Font:
    """``face`` at ``scale`` times its size, as ``picture.Canvas`` draws it."""
    if scale == 1 or not isinstance(face, ImageFont.FreeTypeFont):
        return face
    return face.font_variant(size=face.size * scale)


def make(face: ImageFont.FreeTypeFont, text: str, anchor: str, start: Point) -> Stamp | None:
    """The coverage of ``text`` drawn from ``start`` (a fraction of a pixel) by ``anchor``, or
    None when the text reaches its stamp's edge (then a stamp could cut it: it is drawn)."""
    # Room for any anchor without measuring first (measuring a line costs half its drawing):
    # the point in the middle of a blank a generous em a letter wide either way, two ems up and
    # down, cut to the ink after.
    em = int(face.size)
    x, y = (len(text) + 2) * em * 3 // 2, 2 * em
    size = (2 * x, 2 * y)
    coverage = Image.new("L", size, 0)
    ImageDraw.Draw(coverage).text((x + start[0], y + start[1]), text, 255, face, anchor)
    inked = coverage.getbbox()
    if inked is None:
        return Image.new("L", (1, 1), 0), 0, 0
    if inked[0] == 0 or inked[1] == 0 or inked[2] == size[0] or inked[3] == size[1]:
        return None
    return coverage.crop(inked), inked[0] - x, inked[1] - y


def _stampable(text: str, font: Font, fx: float, fy: float) -> bool:
    """Whether ``text`` from a point of fractions ``fx``, ``fy`` is stamped: one line, in a
    FreeType font, from a point right of and below the origin (a negative one has its whole
    pixel counted toward 0), a fraction in 64ths (FreeType's unit, and exact when the stamp adds
    whole pixels to it)."""
    return (
        "\n" not in text
        and isinstance(font, ImageFont.FreeTypeFont)
        and 0 <= fx < 1
        and 0 <= fy < 1
        and (fx * 64).is_integer()
        and (fy * 64).is_integer()
    )


class StampCanvas(picture.Canvas):
    """A ``picture.Canvas`` whose text is stamped (``STAMPS``) rather than drawn each time."""

    def __init__(self, image: Image.Image, scale: int = 1, stamps: Stamps = STAMPS) -> None:
        super().__init__(image, scale)
        self.image = image
        self.stamps = stamps

    def text(self, xy: Point, text: str, fill: Colour, font: Font, anchor: str = "la") -> None:
        x, y = xy[0] * self.scale, xy[1] * self.scale
        # Pillow draws from the point's whole pixel and its fraction, as stamps are kept.
        (fx, whole_x), (fy, whole_y) = math.modf(x), math.modf(y)
        if not _stampable(text, font, fx, fy):
            super().text(xy, text, fill, font, anchor)
            return
        key = (font, self.scale, text, anchor, fx, fy)
        stamp = self.stamps.get(key)
        if stamp is None:
            face = scaled(font, self.scale)
            assert isinstance(face, ImageFont.FreeTypeFont)
            stamp = make(face, text, anchor, (fx, fy))
            if stamp is None:
                super().text(xy, text, fill, font, anchor)
                return
            self.stamps.put(key, stamp)
        coverage, dx, dy = stamp
        self.image.paste(fill, (int(whole_x) + dx, int(whole_y) + dy), coverage)
