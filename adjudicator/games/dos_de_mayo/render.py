"""The map of old Madrid as a PNG: areas, streets, units, last turn's moves, the counts and cards.

It draws a view (never a state), so it shows nothing the viewer may not see. Coordinates, sizes
and colours come from ``art.toml``; the rules are not consulted. The streets, area shapes, names,
legend and panel frame never change, so they are drawn once (``base_layer``) and every picture
is drawn on a copy of that layer. Its words are the current reader's (``core.said``): the layer
is drawn once per language, and the place names and the sides stay as they are.

The parts are drawn by ``render_map`` (streets, areas, units), ``render_moves`` (last turn's
arrows) and ``render_panel`` (header, key and panel), all with the brush of ``render_art``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from adjudicator.core import picture as kit
from adjudicator.core import said
from adjudicator.core.said import N_, _
from adjudicator.games.dos_de_mayo.describe import contested
from adjudicator.games.dos_de_mayo.render_art import Art, Painter, load_art
from adjudicator.games.dos_de_mayo.render_map import (
    compass,
    contested_mark,
    draw_area,
    stack_frame,
    streets,
    units,
)
from adjudicator.games.dos_de_mayo.render_moves import draw_move
from adjudicator.games.dos_de_mayo.render_panel import (
    extra_height,
    header,
    legend,
    panel,
    panel_frame,
)

__all__ = [
    "Art",
    "base_layer",
    "encode",
    "layer",
    "load_art",
    "palette",
    "palette_of",
    "picture",
    "render",
]

TITLE = N_("2 DE MAYO  ·  Madrid, 2 May 1808")


def base_layer(scale: int = 1) -> Image.Image:
    """Everything that never changes, in the current reader's language: callers must draw on
    a copy."""
    return layer(scale, said.language())


@functools.cache
def layer(scale: int, language: str) -> Image.Image:
    """The base layer drawn once at each scale and in each language (``language`` is the
    current one: the key of the cache, the words are ``_``'s)."""
    del language
    look = load_art()
    size = (look.width * scale, look.height * scale)
    image = Image.new("RGB", size, look.colours["background"])
    paint = Painter(image, look, scale)
    paint.draw.rectangle((0, 0, look.width, look.header), fill=paint.colour["header"])
    paint.text((12, look.header / 2), _(TITLE), 16, "header_ink", "lm", bold=True)
    streets(paint)
    for area in look.centres:
        draw_area(paint, area)
    for stack in look.stacks:
        stack_frame(paint, stack)
    legend(paint)
    compass(paint)
    panel_frame(paint)
    return image


def palette() -> Image.Image:
    """One fixed palette for every picture in the current reader's language: the base layer's
    main shades, every art colour and the anti-aliasing steps between the colours drawn on top
    of each other (``art.toml``).

    Fixed rather than chosen per picture, so a change in one area changes only that area's
    pixels, and mapping to it is far cheaper than choosing one.
    """
    return _palette(said.language())


@functools.cache
def _palette(language: str) -> Image.Image:
    del language  # the key: the base layer it is taken from is drawn in it
    look = load_art()
    return palette_of(look.palette, look.ramp_steps)


def palette_of(kept: int, steps: Sequence[float]) -> Image.Image:
    """The fixed palette with ``kept`` shades of the base layer and ``steps`` along each ramp;
    ``palette`` takes both from the art, a benchmark may weigh others."""
    look = load_art()
    static = base_layer().quantize(
        colors=kept, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    colours = kit.colours_of(static)[:kept]
    colours += look.colours.values()
    for top, ground in look.ramps:
        (r1, g1, b1), (r2, g2, b2) = look.colours[top], look.colours[ground]
        for step in steps:
            colours.append(
                (
                    round(r1 + (r2 - r1) * step),
                    round(g1 + (g2 - g1) * step),
                    round(b1 + (b2 - b1) * step),
                )
            )
    return kit.palette_of(dict.fromkeys(colours))


def encode(image: Image.Image, on: Image.Image | None = None) -> bytes:
    """A PNG on the fixed palette (or ``on``, another), at zlib's ``BALANCED`` level: some 4% over
    the smallest file in a quarter of the time of searching for it (the levels are measured side
    by side by bench/bench_dos_de_mayo_render.py)."""
    return kit.png(kit.on_palette(image, palette() if on is None else on), kit.BALANCED)


def picture(view: Mapping[str, Any], scale: int = 1) -> Image.Image:
    """The map for one view, as an RGB image; ``scale`` 2 draws it twice the size, for the web."""
    look = load_art()
    image = base_layer(scale).copy()
    paint = Painter(image, look, scale)
    grow = extra_height(paint, view)
    if grow:
        # A hand longer than the panel: the panel runs on below, its rules with it.
        size = (look.width * scale, (look.height + grow) * scale)
        taller = Image.new("RGB", size, look.colours["panel"])
        taller.paste(image)
        image, paint = taller, Painter(taller, look, scale)
        for x in (look.panel["cards_x"] - 10, look.panel["hand_rect"][0]):
            bottom = look.height + grow - 10
            paint.draw.line([(x, look.height - 10), (x, bottom)], look.colours["panel_rule"], 1)
    header(paint, view)
    for area in contested(view):
        if area in look.centres:
            draw_area(paint, area, highlight=True)
    for move in sorted(view.get("last_moves") or [], key=lambda m: m["result"] == "moved"):
        draw_move(paint, move)
    for area in contested(view):
        if area in look.centres:
            contested_mark(paint, area)
    units(paint, view)
    panel(paint, view)
    return image


def render(view: Mapping[str, Any], facts: Mapping[str, Any] | None, scale: int = 1) -> bytes:
    """The map PNG; everything drawn comes from the view, so ``facts`` is not needed. The
    fixed palette serves every scale: a 2x picture has the same colours, only more pixels."""
    del facts
    return encode(picture(view, scale))
