"""The battle line as a small PNG: Persian cards, the front track, the counts and the hand.

It draws a view (never a state), so it can show nothing the viewer may not see. Geometry is the
constants below, colours, the fixed palette and the fonts ``art.toml``; the rules are not
consulted. Its words are the current reader's (``said``), in a font with Latin accents and
Cyrillic. The bands, labels and the track never change within a game, so they are drawn once a
scale and language (``base_layer``) and every picture is drawn on a copy. Everything is drawn in
picture units on a ``picture.Canvas``: ``scale`` 2 gives the same picture twice the size, for
the web.
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from PIL import Image

from adjudicator.core import picture, said
from adjudicator.core.picture import Colour, Font
from adjudicator.core.said import N_, _, ngettext
from adjudicator.core.stamps import StampCanvas
from adjudicator.games.thermopyles.describe import TITLES, end_words, result_lines, standing

WIDTH, HEIGHT = 720, 600
MARGIN = 16
PERSIAN_CARD = (120, 150)  # width, height
PERSIAN_Y = 64
FAR_X, NEAR_X = MARGIN, MARGIN + 136  # the Persians attack from the left, the near one closer
COUNTS_X, COUNTS_VALUE_X, COUNTS_STEP = 300, 480, 30
TRACK_Y, TRACK_BOX, TRACK_GAP = 248, (92, 64), 6
HAND_Y, HAND_CARD, HAND_GAP = 356, (78, 100), 10
RESULT_Y, RESULT_SIZE, RESULT_STEP = 470, 16, 20
RESULT_WIDTH = WIDTH - 2 * MARGIN  # result lines are wrapped to this, never cut
BOTTOM = 10  # below the last result line
# The words of the base layer, translated where drawn (``_base``).
LEGEND = N_("white: beat it   red: to the Graveyard   chevron ^: bonus draw")
COUNT_NAMES = (N_("Graveyard"), N_("Persians beaten"), N_("Persian deck"), N_("Spartan deck"))
SUPPORTS = N_("Supports")
SLOT_NAMES = ((FAR_X, N_("FAR")), (NEAR_X, N_("NEAR")))


@dataclass(frozen=True)
class Art:
    """The picture's colours and its fixed palette's ramps, read from ``art.toml``."""

    colours: Mapping[str, Colour]
    ramps: tuple[tuple[str, str], ...]
    ramp_steps: tuple[float, ...]
    fonts: tuple[str, ...]  # font file names, the first found is drawn with


@functools.cache
def load_art() -> Art:
    text = resources.files("adjudicator.games.thermopyles").joinpath("art.toml").read_text()
    data = tomllib.loads(text)
    return Art(
        colours={name: (int(c[0]), int(c[1]), int(c[2])) for name, c in data["colours"].items()},
        ramps=tuple((str(top), str(ground)) for top, ground in data["palette"]["ramps"]),
        ramp_steps=tuple(float(step) for step in data["palette"]["ramp_steps"]),
        fonts=tuple(str(name) for name in data["fonts"]["regular"]),
    )


def font(size: int) -> Font:
    """The picture's font at ``size`` pixels: the first of ``art.toml``'s found on this machine."""
    return picture.font(size, load_art().fonts)


COLOURS = load_art().colours


@functools.cache
def palette() -> Image.Image:
    """One palette for every picture: the art colours and the anti-aliasing steps between the
    pairs drawn on each other (``art.toml``). A 2x picture has the same colours, more pixels."""
    look = load_art()
    colours = list(look.colours.values())
    for top, ground in look.ramps:
        (r1, g1, b1), (r2, g2, b2) = look.colours[top], look.colours[ground]
        for step in look.ramp_steps:
            colours.append(
                (
                    round(r1 + (r2 - r1) * step),
                    round(g1 + (g2 - g1) * step),
                    round(b1 + (b2 - b1) * step),
                )
            )
    return picture.palette_of(dict.fromkeys(colours))


class Brush:
    """Drawing calls in picture units on one image at one scale."""

    def __init__(self, image: Image.Image, scale: int = 1) -> None:
        self.image = image
        self.scale = scale
        # Text stamped: the same words come back picture after picture (core/stamps.py).
        self.draw: picture.Canvas = StampCanvas(image, scale)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        colour: str = "ink",
        anchor: str = "la",
    ) -> None:
        picture.label(self.draw, xy, text, font(size), COLOURS[colour], anchor=anchor)


def _bonus_mark(brush: Brush, x: int, y: int) -> None:
    """The Spartan symbol: a bronze chevron (the seed writes it ^)."""
    brush.draw.polygon(
        [(x, y + 18), (x + 12, y), (x + 24, y + 18), (x + 12, y + 11)], fill=COLOURS["bonus"]
    )


def _persian_face(brush: Brush, card: Mapping[str, Any]) -> None:
    """A Persian card with its top-left corner at the origin."""
    width, height = PERSIAN_CARD
    draw = brush.draw
    draw.rounded_rectangle(
        (0, 0, width, height),
        10,
        fill=COLOURS["persian"],
        outline=COLOURS["persian_edge"],
        width=3,
    )
    draw.ellipse((18, 22, 102, 96), fill=COLOURS["white_chip"], outline=COLOURS["persian_edge"])
    brush.text((60, 59), str(card["white"]), 38, "ink", "mm")
    draw.rounded_rectangle((30, 106, 90, 138), 8, fill=COLOURS["red_chip"])
    brush.text((60, 122), f"{card['red']}", 22, "light_ink", "mm")
    if card["bonus"]:
        _bonus_mark(brush, width - 30, 6)


def _spartan_face(brush: Brush, value: int | None, width: int) -> None:
    """A hand card (its back when ``value`` is None) with its top-left corner at the origin."""
    height = HAND_CARD[1]
    box, centre = (0, 0, width, height), (width / 2, height / 2)
    if value is None:
        brush.draw.rounded_rectangle(box, 8, fill=COLOURS["back"], outline=COLOURS["ink"], width=2)
        brush.text(centre, "300", 18, "background", "mm")
        return
    brush.draw.rounded_rectangle(
        box, 8, fill=COLOURS["spartan"], outline=COLOURS["spartan_edge"], width=3
    )
    brush.text(centre, str(value), 36 if width >= HAND_CARD[0] else 28, "light_ink", "mm")


@functools.lru_cache(maxsize=256)
def _card(scale: int, persian: str | None, value: int | None, width: int) -> Image.Image:
    """One card drawn once on the background (a Persian as JSON, else a hand card): the same
    few cards come back picture after picture, and drawing their numbers costs the most."""
    height = PERSIAN_CARD[1] if persian else HAND_CARD[1]
    tile = Image.new("RGB", ((width + 1) * scale, (height + 1) * scale), COLOURS["background"])
    brush = Brush(tile, scale)
    if persian:
        _persian_face(brush, json.loads(persian))
    else:
        _spartan_face(brush, value, width)
    return tile


def _persian(brush: Brush, x: int, card: Mapping[str, Any] | None) -> None:
    width, height = PERSIAN_CARD
    y, draw = PERSIAN_Y, brush.draw
    if card is None:
        draw.rounded_rectangle((x, y, x + width, y + height), 10, outline=COLOURS["muted"], width=2)
        brush.text((x + width / 2, y + height / 2), _("empty"), 16, "muted", "mm")
        return
    face = {key: card[key] for key in ("white", "red", "bonus")}
    tile = _card(brush.scale, json.dumps(face, sort_keys=True), None, width)
    brush.image.paste(tile, (x * brush.scale, y * brush.scale))


def support_box(slot: int) -> tuple[float, float, float, float]:
    """Where support card ``slot`` (from 0) is drawn, right of its row's name."""
    x, y = COUNTS_VALUE_X + slot * 30, PERSIAN_Y + len(COUNT_NAMES) * COUNTS_STEP
    return (x, y, x + 24, y + 24)


def _counts(brush: Brush, view: Mapping[str, Any]) -> None:
    graveyard, beaten, decks, supports = (
        view["graveyard"],
        view["beaten"],
        view["decks"],
        view["supports"],
    )
    values = (
        f"{graveyard['count']} / {graveyard['target']}",
        f"{beaten['count']} / {beaten['of']}",
        ngettext("%(num)s card", "%(num)s cards", decks["persian"]),
        ngettext("%(num)s card", "%(num)s cards", decks["spartan"]),
    )
    for index, value in enumerate(values):
        brush.text((COUNTS_VALUE_X, PERSIAN_Y + index * COUNTS_STEP), value, 20)
    for slot in range(supports["of"]):
        filled = COLOURS["bonus"] if slot < supports["left"] else None
        brush.draw.rounded_rectangle(
            support_box(slot), 4, fill=filled, outline=COLOURS["ink"], width=2
        )


def track_box(space: int) -> tuple[float, float, float, float]:
    """The box of track space ``space`` (from 1)."""
    width, height = TRACK_BOX
    x = MARGIN + (space - 1) * (width + TRACK_GAP)
    return (x, TRACK_Y, x + width, TRACK_Y + height)


def marker_centre(space: int) -> tuple[float, float]:
    """Where the front marker stands on track space ``space``: right of the space's number."""
    x0, y0, x1, y1 = track_box(space)
    return ((x0 + x1) / 2 + 12, (y0 + y1) / 2 + 4)


def _track(brush: Brush, track: Mapping[str, Any]) -> None:
    length, names = track["length"], track["names"]
    heading = _("Front track (retreat toward %(length)s)", length=length)
    brush.text((MARGIN, TRACK_Y - 26), heading, 16, "muted")
    for space in range(1, length + 1):
        box = track_box(space)
        fill = COLOURS["track"]
        if space in track["free_die_spaces"]:
            fill = COLOURS["free_space"]
        elif space == length:
            fill = COLOURS["lost_space"]
        brush.draw.rectangle(box, fill=fill, outline=COLOURS["ink"], width=2)
        brush.text((box[0] + 8, TRACK_Y + 6), str(space), 20)
        if str(space) in names:
            centre = ((box[0] + box[2]) / 2, box[3] + 16)
            brush.text(centre, names[str(space)], 14, "ink", "mm")


def _marker(brush: Brush, space: int) -> None:
    x, y = marker_centre(space)
    brush.draw.ellipse((x - 16, y - 16, x + 16, y + 16), fill=COLOURS["marker"])


def hand_card(index: int, size: int) -> tuple[float, float, float, float]:
    """The box of card ``index`` of a hand of ``size``: a hand too long for the row at full
    width has narrower cards, so every card is drawn."""
    width, height = HAND_CARD
    room = WIDTH - 2 * MARGIN
    width = min(width, (room - (size - 1) * HAND_GAP) // max(size, 1))
    x = MARGIN + index * (width + HAND_GAP)
    return (x, HAND_Y, x + width, HAND_Y + height)


def hand_title(view: Mapping[str, Any]) -> str:
    size, limit = view["hand_size"], view["hand_limit"]
    if view.get("hand") is not None:
        return _("Your hand: %(size)s of limit %(limit)s", size=size, limit=limit)
    return _("Hand (not shown): %(size)s of limit %(limit)s", size=size, limit=limit)


def _hand(brush: Brush, view: Mapping[str, Any]) -> None:
    shown = view.get("hand")
    size = view["hand_size"]
    brush.text((MARGIN, HAND_Y - 24), hand_title(view), 16, "muted")
    for index in range(size):
        x0, y0, x1, _bottom = hand_card(index, size)
        value = None if shown is None else int(shown[index])
        tile = _card(brush.scale, None, value, int(x1 - x0))
        brush.image.paste(tile, (int(x0) * brush.scale, int(y0) * brush.scale))
    if size == 0 and view["status"] == "playing":
        brush.text((MARGIN, HAND_Y + 30), _("empty: only RETREAT is legal"), 18, "muted")


@functools.lru_cache(maxsize=16)
def _base(scale: int, track: str, language: str) -> Image.Image:
    """The base layer, its words in the current reader's language: ``language`` (its code) is
    the cache's key alone, so two languages never share a layer."""
    image = Image.new("RGB", (WIDTH * scale, HEIGHT * scale), COLOURS["background"])
    brush = Brush(image, scale)
    brush.draw.rectangle((0, 0, WIDTH, 36), fill=COLOURS["band"])
    for x, name in SLOT_NAMES:
        brush.text((x + PERSIAN_CARD[0] / 2, PERSIAN_Y - 6), _(name), 16, "muted", "ms")
    for index, name in enumerate((*COUNT_NAMES, SUPPORTS)):
        brush.text((COUNTS_X, PERSIAN_Y + index * COUNTS_STEP), _(name), 18, "muted")
    legend_y = PERSIAN_Y + len(COUNT_NAMES) * COUNTS_STEP + 36
    brush.text((COUNTS_X, legend_y), _(LEGEND), 14, "muted")
    _track(brush, json.loads(track))
    brush.draw.rectangle((0, RESULT_Y - 6, WIDTH, HEIGHT), fill=COLOURS["band"])
    return image


def base_layer(view: Mapping[str, Any], scale: int = 1) -> Image.Image:
    """What no move changes (the bands, the labels, the track of this game's data), drawn once
    a scale, track and reader's language (two languages never share a layer): callers must
    draw on a copy."""
    return _base(scale, json.dumps(view["track"], sort_keys=True), said.language())


def height_for(lines: int) -> int:
    """The picture's height with ``lines`` result lines: taller than the usual when they need it,
    and without the result panel when there is nothing to put in it (the welcome's picture)."""
    if not lines:
        return RESULT_Y - 6
    return max(HEIGHT, RESULT_Y + lines * RESULT_STEP + BOTTOM)


def wrapped(lines: Sequence[str]) -> list[str]:
    """The result lines broken at spaces to the panel's width, every word kept."""
    return [part for line in lines for part in _wrapped(line, RESULT_SIZE, RESULT_WIDTH)]


@functools.lru_cache(maxsize=1024)
def _wrapped(line: str, size: int, width: int) -> tuple[str, ...]:
    """One result line wrapped, once: measuring it costs more than drawing a short one. Kept by
    its words, so a line in one language is never another's."""
    face = font(size)
    line = picture.plain(line, face)
    # Most lines fit whole: one measure, not one per word.
    if picture.length(line, face) <= width:
        return (line,)
    return tuple(picture.wrap(line, face, width))


def title(view: Mapping[str, Any]) -> str:
    """The picture's title: the turn played last (the turn pages and mails show the position
    "after turn 3" with this picture) and how the battle stands."""
    return _(TITLES[standing(view)], turn=view["turn"])


def draw(
    view: Mapping[str, Any], lines: Sequence[str], scale: int = 1, heading: str | None = None
) -> Brush:
    """The picture of ``view`` with ``lines`` in the result panel (wrapped, every one shown),
    titled ``heading`` (``title`` of the view unless given)."""
    shown = wrapped(lines)
    image = base_layer(view, scale).copy()
    tall = height_for(len(shown))
    if tall < HEIGHT:
        image = image.crop((0, 0, WIDTH * scale, tall * scale))
    elif tall > HEIGHT:
        # More lines than the usual panel holds: the panel runs on below.
        taller = Image.new("RGB", (WIDTH * scale, tall * scale), COLOURS["band"])
        taller.paste(image)
        image = taller
    brush = Brush(image, scale)
    brush.text((MARGIN, 18), heading or title(view), 20, "ink", "lm")
    if view["free_die"]:
        brush.text((WIDTH - MARGIN, 18), _("free die this turn"), 16, "marker", "rm")
    _persian(brush, FAR_X, view["far"])
    _persian(brush, NEAR_X, view["near"])
    _counts(brush, view)
    _marker(brush, view["marker"])
    _hand(brush, view)
    for index, line in enumerate(shown):
        brush.text((MARGIN, RESULT_Y + index * RESULT_STEP), line, RESULT_SIZE)
    return brush


def encode(image: Image.Image, options: Mapping[str, Any] = picture.QUICK) -> bytes:
    """The PNG of ``image`` on the fixed palette (no dithering: flat fills stay flat). ``QUICK``:
    every action mail draws two pictures, and zlib's search for the smallest file would save
    some 3.5 KB of 21.5 for 8 ms more each (bench/bench_thermopyles_render.py weighs the levels)."""
    return picture.png(picture.on_palette(image, palette()), options)


def lines_for(view: Mapping[str, Any], facts: Mapping[str, Any] | None) -> list[str]:
    """The result panel's lines: the last action's result, or the end of the game."""
    if facts:
        return result_lines(facts, own=view.get("hand") is not None)
    if view.get("end"):
        return [end_words(view["end"])]
    return []


def render(view: Mapping[str, Any], facts: Mapping[str, Any] | None, scale: int = 1) -> bytes:
    """The picture PNG of ``view`` and the last action's ``facts``, ``scale`` times the size, in
    the current reader's language."""
    return encode(draw(view, lines_for(view, facts), scale).image)
