"""What every picture shares: fonts found with a fallback, text measured and wrapped to a width,
a canvas drawn at any scale, colours mapped to a palette, and the PNG bytes.

The game maps and the archive's charts are all Pillow drawings sent by mail or served on the
web; each draws its own marks, but none should find fonts, fit labels or write PNGs its own way.
The PNG save options are set here only (``SMALLEST``, ``BALANCED``, ``PLAIN``, ``QUICK``), so
changing how pictures are compressed is one edit; a palette picture's PNG is written by
``palette_png``: its rows deflated in one call, smaller and faster than Pillow's writer makes it.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import itertools
import math
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypedDict, Unpack

from PIL import Image, ImageDraw, ImageFont

from adjudicator.core import palette_png

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, int, int]
Point = tuple[float, float]

# Pillow's own scalable font (bundled with Pillow since 10.1): the face every lookup ends with.
BUILT_IN = "Aileron"
MAX_PALETTE = 256  # an indexed PNG holds at most this many colours

# The PNG save options, the one place they are set, in Pillow's words (``compress_level``, and
# ``optimize`` for zlib's smallest, level 9): a palette picture, as every game's map is, is
# written by ``indexed`` below, which reads the same two. ``SMALLEST`` is for a picture drawn once
# and kept (a chart); ``PLAIN`` is zlib's default level, 6. ``QUICK`` (level 3) is for a small
# picture drawn twice an action: the Thermopyles picture takes 21.5 KB in some 1 ms where level 6
# gives 18.9 KB in 2. ``BALANCED`` (level 6) is for a picture stored once and mailed to every
# player (a turn's map), where both count: the 2 de Mayo map takes 30.4 KB in some 3.5 ms, where
# level 8 saves 0.9 KB for 12 ms and level 9 1.2 KB for 14, while the mail's size limit leaves
# the map a few hundred bytes to grow (tests/test_mail_sizes.py); the Musket & Pike map 73.9 KB
# in some 8 ms where Pillow's level 8 took 71.7 KB in 44 (bench/bench_dos_de_mayo_render.py
# prints every level, Pillow's own writer beside this one's).
SMALLEST: Mapping[str, Any] = MappingProxyType({"optimize": True})
PLAIN: Mapping[str, Any] = MappingProxyType({})
QUICK: Mapping[str, Any] = MappingProxyType({"compress_level": 3})
BALANCED: Mapping[str, Any] = MappingProxyType({"compress_level": 6})


# --- fonts ----------------------------------------------------------------------------------


@functools.cache
def font(size: int, names: tuple[str, ...] = ()) -> Font:
    """The first of ``names`` (font file names) found on this machine, at ``size`` pixels;
    Pillow's own font when none is, so a picture is drawn on any machine. Cached: every label
    of every picture asks again."""
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def is_built_in(face: Font) -> bool:
    """Whether ``face`` is Pillow's own font (the fallback), which has no accented letters."""
    return not isinstance(face, ImageFont.FreeTypeFont) or face.getname()[0] == BUILT_IN


def plain(text: str, face: Font) -> str:
    """``text`` as ``face`` can show it: on Pillow's own font the accents are dropped ("José"
    becomes "Jose") rather than drawn as boxes; on any other font it is unchanged."""
    if not is_built_in(face):
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# --- text -----------------------------------------------------------------------------------


def length(text: str, face: Font) -> float:
    """How many pixels ``text`` runs in ``face``."""
    return float(face.getlength(text))


def wrap(text: str, face: Font, width: float) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels, every word kept: a
    player reads a card or a place by its whole name, so nothing is ever cut short. A single
    word wider than ``width`` gets a line of its own (and runs over) rather than lose letters."""
    lines: list[str] = []
    for word in text.split():
        if lines and length(f"{lines[-1]} {word}", face) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def fitted(text: str, face: Font, width: float) -> str:
    """``text`` on one line of at most ``width`` pixels: whole when it fits, else its start
    ending in "\u2026", so the reader sees it was cut (a name in a chart's row has no room to
    wrap). No glyph but an invisible one is under a pixel wide, so more characters than
    ``width`` are never measured: Pillow refuses a string of a million."""
    most = max(int(width), 0)
    if len(text) <= most and length(text, face) <= width:
        return text
    text = text[:most]
    while text and length(f"{text.rstrip()}\u2026", face) > width:
        text = text[:-1]
    return f"{text.rstrip()}\u2026"


@dataclass(frozen=True)
class Drawn:
    """One text as a picture drew it: the words, the font size and the box it covers (left,
    top, right, bottom), in picture units."""

    text: str
    size: float
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


_DRAWN: contextvars.ContextVar[list[Drawn] | None] = contextvars.ContextVar("drawn", default=None)


@contextlib.contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Every text ``label`` draws while inside, in order: how a test reads what a picture
    says (and how big) without reading pixels."""
    found: list[Drawn] = []
    token = _DRAWN.set(found)
    try:
        yield found
    finally:
        _DRAWN.reset(token)


def label(
    draw: ImageDraw.ImageDraw | Canvas,
    xy: Point,
    text: str,
    face: Font,
    fill: Colour,
    anchor: str = "la",
) -> None:
    """Draw ``text`` at ``xy`` by ``anchor`` (Pillow's two letters: "lm" is left, middle); break
    it with ``wrap`` first to keep it to a width, and measure it with ``length`` to follow it."""
    found = _DRAWN.get()
    if found is not None:
        x0, y0, x1, y1 = face.getbbox(text, anchor=anchor)
        box = (xy[0] + x0, xy[1] + y0, xy[0] + x1, xy[1] + y1)
        found.append(Drawn(text, float(getattr(face, "size", 0)), box))
    draw.text(xy, text, fill=fill, font=face, anchor=anchor)


# --- a canvas at any scale ------------------------------------------------------------------


@functools.cache
def _scaled_face(face: Font, scale: int) -> Font:
    if scale == 1 or not isinstance(face, ImageFont.FreeTypeFont):
        return face
    return face.font_variant(size=face.size * scale)


class Paint(TypedDict, total=False):
    """How a shape in a box is painted, as Pillow's keywords: its fill and its outline (none
    where not given) and the outline's width in picture units (1 where not given)."""

    fill: Colour | None
    outline: Colour | None
    width: int


class Canvas:
    """Pillow's drawing calls in picture units on an image ``scale`` times as large: every
    point, line width, corner and font size is multiplied, so one drawing gives the mail's
    picture (scale 1) and a sharp one for zooming on the web (scale 2), and text measured in
    picture units still fits."""

    def __init__(self, image: Image.Image, scale: int = 1) -> None:
        self.draw = ImageDraw.Draw(image)
        self.scale = scale

    def _points(self, points: Sequence[Point]) -> list[Point]:
        k = self.scale
        return [(x * k, y * k) for x, y in points]

    def _box(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        k = self.scale
        return (box[0] * k, box[1] * k, box[2] * k, box[3] * k)

    def line(
        self, points: Sequence[Point], fill: Colour, width: int = 1, joint: str | None = None
    ) -> None:
        self.draw.line(self._points(points), fill=fill, width=width * self.scale, joint=joint)

    def polygon(
        self, points: Sequence[Point], fill: Colour | None = None, outline: Colour | None = None
    ) -> None:
        self.draw.polygon(self._points(points), fill=fill, outline=outline, width=self.scale)

    def _paint(self, paint: Paint) -> Paint:
        return {**paint, "width": paint.get("width", 1) * self.scale}

    def rectangle(self, box: Sequence[float], **paint: Unpack[Paint]) -> None:
        self.draw.rectangle(self._box(box), **self._paint(paint))

    def rounded_rectangle(
        self, box: Sequence[float], radius: float = 0, **paint: Unpack[Paint]
    ) -> None:
        self.draw.rounded_rectangle(self._box(box), radius * self.scale, **self._paint(paint))

    def ellipse(self, box: Sequence[float], **paint: Unpack[Paint]) -> None:
        self.draw.ellipse(self._box(box), **self._paint(paint))

    def text(self, xy: Point, text: str, fill: Colour, font: Font, anchor: str = "la") -> None:
        self.draw.text(
            (xy[0] * self.scale, xy[1] * self.scale),
            text,
            fill=fill,
            font=_scaled_face(font, self.scale),
            anchor=anchor,
        )


# --- lines ----------------------------------------------------------------------------------


def along(start: Point, end: Point, distance: float) -> Point:
    """The point ``distance`` pixels from ``start`` toward ``end``."""
    ux, uy = unit(start, end)
    return start[0] + ux * distance, start[1] + uy * distance


def unit(start: Point, end: Point) -> Point:
    """The unit vector from ``start`` toward ``end`` (any, when they are the same point)."""
    run = math.dist(start, end) or 1.0
    return (end[0] - start[0]) / run, (end[1] - start[1]) / run


def dashes(
    points: Sequence[Point], dash: float, gap: float, restart: bool = False
) -> list[tuple[Point, Point]]:
    """The dashes of a dashed line through ``points``: ``dash`` pixels drawn, ``gap`` left out.
    The pattern runs on round the corners unless ``restart``, when every segment starts with a
    whole dash."""
    found: list[tuple[Point, Point]] = []
    drawing, left = True, dash
    for start, end in itertools.pairwise(points):
        if restart:
            drawing, left = True, dash
        run = math.dist(start, end)
        done = 0.0
        while done < run:
            step = min(left, run - done)
            if drawing:
                found.append((along(start, end, done), along(start, end, done + step)))
            done += step
            left -= step
            if left <= 0:
                drawing = not drawing
                left = dash if drawing else gap
    return found


def dashed(
    draw: ImageDraw.ImageDraw | Canvas,
    points: Sequence[Point],
    fill: Colour,
    width: int,
    dash: float,
    gap: float,
    restart: bool = False,
) -> None:
    """Draw a dashed line through ``points`` (see ``dashes``)."""
    for start, end in dashes(points, dash, gap, restart):
        draw.line([start, end], fill=fill, width=width)


# --- colours and PNG ------------------------------------------------------------------------


def palette_of(colours: Iterable[Colour]) -> Image.Image:
    """A palette image to map pictures to: the first ``MAX_PALETTE`` of ``colours``, in order."""
    flat = [value for colour in itertools.islice(colours, MAX_PALETTE) for value in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def colours_of(image: Image.Image) -> list[Colour]:
    """The colours of a palette image, in order."""
    flat = image.getpalette() or []
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]


def on_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` with every pixel the nearest colour of ``palette``; no dithering, so flat fills
    stay flat (and compress well) and the same drawing always gives the same pixels."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


# A picture this large holds each of its shades many times over: its shades are chosen from
# every other pixel of every other row, real pixels (not averaged ones), in well under half the
# time, and as true to the eye (bench/bench_musket_and_pike_render.py). A smaller one is read whole.
SAMPLED_FROM = 250_000


def _sample(image: Image.Image) -> Image.Image:
    if image.width * image.height < SAMPLED_FROM:
        return image
    half = (image.width // 2, image.height // 2)
    return image.resize(half, Image.Resampling.NEAREST)


def keeping(image: Image.Image, exact: Sequence[Colour]) -> Image.Image:
    """``image`` on a full palette that keeps every colour of ``exact`` true, and fills the rest
    with the picture's own shades (its anti-aliasing), chosen for this picture."""
    shades = _sample(image).quantize(MAX_PALETTE - len(exact), dither=Image.Dither.NONE)
    return on_palette(image, palette_of([*exact, *colours_of(shades)]))


def reduced(image: Image.Image, colours: int) -> Image.Image:
    """``image`` on a palette of ``colours`` chosen for it (Pillow's median cut)."""
    return image.quantize(colors=colours)


def png(image: Image.Image, options: Mapping[str, Any] = SMALLEST) -> bytes:
    """The PNG bytes of ``image``, saved with one of this module's option sets (Pillow's save
    options: ``compress_level``, ``optimize`` for the smallest). A picture on a palette, as
    every game's map is, is written by ``palette_png``; any other by Pillow."""
    if palette_png.writes(image):
        return palette_png.indexed(
            image, 9 if options.get("optimize") else options.get("compress_level", 6)
        )
    out = io.BytesIO()
    image.save(out, format="PNG", **options)
    return out.getvalue()
