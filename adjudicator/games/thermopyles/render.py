"""The battle line as a small PNG: Persian cards, the front track, the counts and the hand.

It draws a view (never a state), so it can show nothing the viewer may not see. Geometry and
colours are the constants below; the rules are not consulted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from adjudicator.core import picture
from adjudicator.core.picture import font
from adjudicator.games.thermopyles.describe import STATUS_WORDS, result_lines

WIDTH, HEIGHT = 720, 600
MARGIN = 16
PERSIAN_CARD = (120, 150)  # width, height
PERSIAN_Y = 64
FAR_X, NEAR_X = MARGIN, MARGIN + 136  # the Persians attack from the left, the near one closer
COUNTS_X = 300
TRACK_Y, TRACK_BOX = 248, (92, 64)
HAND_Y, HAND_CARD, HAND_GAP = 356, (78, 100), 10
RESULT_Y = 470
MAX_RESULT_LINES = 6
LEGEND = "white: beat it   red: to the Graveyard   chevron ^: bonus draw"
PALETTE_COLOURS = 48  # a small palette keeps the PNG far below the 60 KB mail budget

COLOURS = {
    "background": (245, 238, 222),
    "ink": (40, 32, 26),
    "muted": (120, 108, 96),
    "persian": (226, 214, 236),
    "persian_edge": (92, 60, 120),
    "white_chip": (255, 255, 255),
    "red_chip": (178, 34, 34),
    "bonus": (184, 134, 11),
    "track": (236, 226, 204),
    "free_space": (240, 200, 96),
    "lost_space": (200, 90, 80),
    "marker": (150, 20, 20),
    "spartan": (196, 54, 40),
    "spartan_edge": (110, 24, 18),
    "back": (90, 70, 60),
    "band": (228, 218, 196),
    "light_ink": (255, 255, 255),  # numbers on the red chip and on the Spartan cards
}


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    colour: str = "ink",
    anchor: str = "la",
) -> None:
    picture.label(draw, xy, text, font(size), COLOURS[colour], anchor=anchor)


def _bonus_mark(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The Spartan symbol: a bronze chevron (the seed writes it ^)."""
    draw.polygon(
        [(x, y + 18), (x + 12, y), (x + 24, y + 18), (x + 12, y + 11)], fill=COLOURS["bonus"]
    )


def _persian(draw: ImageDraw.ImageDraw, x: int, label: str, card: Mapping[str, Any] | None) -> None:
    width, height = PERSIAN_CARD
    y = PERSIAN_Y
    _text(draw, (x + width / 2, y - 6), label, 16, "muted", "ms")
    if card is None:
        draw.rounded_rectangle((x, y, x + width, y + height), 10, outline=COLOURS["muted"], width=2)
        _text(draw, (x + width / 2, y + height / 2), "empty", 16, "muted", "mm")
        return
    draw.rounded_rectangle(
        (x, y, x + width, y + height),
        10,
        fill=COLOURS["persian"],
        outline=COLOURS["persian_edge"],
        width=3,
    )
    draw.ellipse(
        (x + 18, y + 22, x + 102, y + 96),
        fill=COLOURS["white_chip"],
        outline=COLOURS["persian_edge"],
    )
    _text(draw, (x + 60, y + 59), str(card["white"]), 38, "ink", "mm")
    draw.rounded_rectangle((x + 30, y + 106, x + 90, y + 138), 8, fill=COLOURS["red_chip"])
    _text(draw, (x + 60, y + 122), f"{card['red']}", 22, "light_ink", "mm")
    if card["bonus"]:
        _bonus_mark(draw, x + width - 30, y + 6)


def _counts(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    graveyard, beaten, decks, supports = (
        view["graveyard"],
        view["beaten"],
        view["decks"],
        view["supports"],
    )
    rows = [
        ("Graveyard", f"{graveyard['count']} / {graveyard['target']}"),
        ("Persians beaten", f"{beaten['count']} / {beaten['of']}"),
        ("Persian deck", f"{decks['persian']} cards"),
        ("Spartan deck", f"{decks['spartan']} cards"),
    ]
    for index, (name, value) in enumerate(rows):
        y = PERSIAN_Y + index * 30
        _text(draw, (COUNTS_X, y), name, 18, "muted")
        _text(draw, (COUNTS_X + 170, y), value, 20)
    y = PERSIAN_Y + len(rows) * 30
    _text(draw, (COUNTS_X, y + 36), LEGEND, 14, "muted")
    _text(draw, (COUNTS_X, y), "Supports", 18, "muted")
    for slot in range(supports["of"]):
        box = (COUNTS_X + 170 + slot * 30, y, COUNTS_X + 194 + slot * 30, y + 24)
        filled = COLOURS["bonus"] if slot < supports["left"] else None
        draw.rounded_rectangle(box, 4, fill=filled, outline=COLOURS["ink"], width=2)


def _track(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    track = view["track"]
    length, names = track["length"], track["names"]
    width, height = TRACK_BOX
    _text(draw, (MARGIN, TRACK_Y - 26), f"Front track (retreat toward {length})", 16, "muted")
    for space in range(1, length + 1):
        x = MARGIN + (space - 1) * (width + 6)
        fill = COLOURS["track"]
        if space in track["free_die_spaces"]:
            fill = COLOURS["free_space"]
        elif space == length:
            fill = COLOURS["lost_space"]
        draw.rectangle(
            (x, TRACK_Y, x + width, TRACK_Y + height), fill=fill, outline=COLOURS["ink"], width=2
        )
        _text(draw, (x + 8, TRACK_Y + 6), str(space), 20)
        if str(space) in names:
            _text(draw, (x + width / 2, TRACK_Y + height + 16), names[str(space)], 14, "ink", "mm")
        if space == view["marker"]:
            centre = (x + width / 2 + 12, TRACK_Y + height / 2 + 4)
            draw.ellipse(
                (centre[0] - 16, centre[1] - 16, centre[0] + 16, centre[1] + 16),
                fill=COLOURS["marker"],
            )


def _hand(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    width, height = HAND_CARD
    shown = view.get("hand")
    size = view["hand_size"]
    who = "Your hand" if shown is not None else "Hand (not shown)"
    _text(draw, (MARGIN, HAND_Y - 24), f"{who}: {size} of limit {view['hand_limit']}", 16, "muted")
    for index in range(size):
        x = MARGIN + index * (width + HAND_GAP)
        if x + width > WIDTH - MARGIN:
            break
        box = (x, HAND_Y, x + width, HAND_Y + height)
        if shown is None:
            draw.rounded_rectangle(box, 8, fill=COLOURS["back"], outline=COLOURS["ink"], width=2)
            _text(draw, (x + width / 2, HAND_Y + height / 2), "300", 18, "background", "mm")
            continue
        draw.rounded_rectangle(
            box, 8, fill=COLOURS["spartan"], outline=COLOURS["spartan_edge"], width=3
        )
        _text(draw, (x + width / 2, HAND_Y + height / 2), str(shown[index]), 36, "light_ink", "mm")
    if size == 0 and view["status"] == "playing":
        _text(draw, (MARGIN, HAND_Y + 30), "empty: only RETREAT is legal", 18, "muted")


def render(view: Mapping[str, Any], facts: Mapping[str, Any] | None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), COLOURS["background"])
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 36), fill=COLOURS["band"])
    status = STATUS_WORDS.get(view["status"], view["status"])
    _text(draw, (MARGIN, 18), f"THERMOPYLES  -  turn {view['turn']}  -  {status}", 20, "ink", "lm")
    if view["free_die"]:
        _text(draw, (WIDTH - MARGIN, 18), "free die this turn", 16, "marker", "rm")
    _persian(draw, FAR_X, "FAR", view["far"])
    _persian(draw, NEAR_X, "NEAR", view["near"])
    _counts(draw, view)
    _track(draw, view)
    _hand(draw, view)
    lines = result_lines(facts, own=view.get("hand") is not None) if facts else []
    if view.get("end") and not facts:
        lines = [f"Game over, {view['end']['result']}: {view['end']['sentence']}."]
    draw.rectangle((0, RESULT_Y - 6, WIDTH, HEIGHT), fill=COLOURS["band"])
    for index, line in enumerate(lines[:MAX_RESULT_LINES]):
        _text(draw, (MARGIN, RESULT_Y + index * 20), line, 16)
    return picture.png(picture.reduced(image, PALETTE_COLOURS), picture.SMALLEST)
