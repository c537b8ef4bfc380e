"""Charts for the archive, drawn server-side with Pillow as PNG, and their numbers in words.

Each chart comes with ``*_alt``: the same numbers as a sentence, for the ``alt`` text, so that
nothing is only in the picture. The drawing takes plain values from ``services.queries``.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from adjudicator.services.queries import Leaderboard, RankedEntry, SideStrength

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

WIDTH = 720
PAPER: RGB = (253, 251, 246)
INK: RGB = (34, 34, 34)
MUTED: RGB = (120, 120, 120)
GRID: RGB = (225, 220, 210)
SIDE_COLOURS: dict[str, RGB] = {"france": (43, 76, 155), "spain": (178, 34, 34)}
OTHER_COLOURS: tuple[RGB, ...] = ((46, 125, 50), (142, 68, 173), (211, 84, 0))
WON: RGB = (46, 125, 50)
LOST: RGB = (160, 150, 140)


def font(size: int) -> Font:
    # Pillow's own scalable font: present wherever Pillow is, so charts look the same everywhere.
    return ImageFont.load_default(size=size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _colour(name: str, index: int) -> RGB:
    return SIDE_COLOURS.get(name, OTHER_COLOURS[index % len(OTHER_COLOURS)])


def _step(top: int) -> int:
    """A tick step giving at most about six labelled lines."""
    return max(1, math.ceil(top / 6))


@dataclass(frozen=True)
class Plot:
    """The drawing area inside the margins, mapping values to pixels."""

    left: int
    top: int
    right: int
    bottom: int
    x_count: int
    y_max: int

    def x(self, index: int) -> float:
        if self.x_count <= 1:
            return (self.left + self.right) / 2
        return self.left + index * (self.right - self.left) / (self.x_count - 1)

    def y(self, value: float) -> float:
        return self.bottom - value * (self.bottom - self.top) / max(self.y_max, 1)


def _dashed(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], fill: RGB) -> None:
    dash, gap = 8.0, 5.0
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            continue
        at = 0.0
        while at < length:
            end = min(at + dash, length)
            draw.line(
                [
                    (x1 + (x2 - x1) * at / length, y1 + (y2 - y1) * at / length),
                    (x1 + (x2 - x1) * end / length, y1 + (y2 - y1) * end / length),
                ],
                fill=fill,
                width=3,
            )
            at = end + gap


def _axes(draw: ImageDraw.ImageDraw, plot: Plot, x_labels: Sequence[str], y_title: str) -> None:
    small = font(13)
    step = _step(plot.y_max)
    for value in range(0, plot.y_max + 1, step):
        y = plot.y(value)
        draw.line([(plot.left, y), (plot.right, y)], fill=GRID, width=1)
        draw.text((plot.left - 8, y), str(value), fill=MUTED, font=small, anchor="rm")
    # Every label when they fit, else every n-th, so that long games stay legible.
    every = max(1, math.ceil(len(x_labels) * 34 / max(plot.right - plot.left, 1)))
    for index, label in enumerate(x_labels):
        if index % every == 0 or index == len(x_labels) - 1:
            draw.text((plot.x(index), plot.bottom + 8), label, fill=MUTED, font=small, anchor="mt")
    draw.line([(plot.left, plot.bottom), (plot.right, plot.bottom)], fill=INK, width=1)
    draw.text((plot.left - 40, plot.top - 22), y_title, fill=MUTED, font=small, anchor="lm")


def strength_chart(data: SideStrength) -> bytes:
    """Units on the map (solid) and losses so far (dashed) per side, by turn."""
    height = 400
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    values = [v for series in (*data.on_map.values(), *data.losses.values()) for v in series]
    top = max([*values, data.loss_limit or 0, 1])
    y_max = math.ceil((top + 1) / _step(top + 1)) * _step(top + 1)
    plot = Plot(56, 70, WIDTH - 24, height - 56, len(data.turns), y_max)
    draw.text((WIDTH / 2, 16), "Strength and losses by turn", fill=INK, font=font(18), anchor="mt")
    _axes(draw, plot, [str(n) for n in data.turns], "units")
    middle = ((plot.left + plot.right) / 2, height - 18)
    draw.text(middle, "turn", fill=MUTED, font=font(13), anchor="mm")
    if data.loss_limit is not None:
        y = plot.y(data.loss_limit)
        _dashed(draw, [(plot.left, y), (plot.right, y)], LOST)
        label = f"loss limit {data.loss_limit}"
        draw.text((plot.right, y - 4), label, fill=MUTED, font=font(12), anchor="rb")
    legend_x = plot.left
    for index, side in enumerate(data.on_map):
        colour = _colour(side, index)
        for series, dashed, what in (
            (data.on_map, False, "on the map"),
            (data.losses, True, "lost"),
        ):
            points = [(plot.x(i), plot.y(v)) for i, v in enumerate(series[side])]
            if dashed:
                _dashed(draw, points, colour)
            elif len(points) > 1:
                draw.line(points, fill=colour, width=3, joint="curve")
            for x, y in points:
                draw.ellipse([(x - 4, y - 4), (x + 4, y + 4)], fill=colour)
            sample = [(legend_x, 50), (legend_x + 26, 50)]
            if dashed:
                _dashed(draw, sample, colour)
            else:
                draw.line(sample, fill=colour, width=3)
            text = f"{side.capitalize()} {what}"
            draw.text((legend_x + 32, 50), text, fill=INK, font=font(13), anchor="lm")
            legend_x += 40 + int(draw.textlength(text, font=font(13))) + 12
    return _png(image)


def strength_alt(data: SideStrength) -> str:
    span = f"turns {data.turns[0]}–{data.turns[-1]}" if len(data.turns) > 1 else "the opening"
    parts = []
    for side in data.on_map:
        on_map = ", ".join(map(str, data.on_map[side]))
        lost = ", ".join(map(str, data.losses[side]))
        parts.append(f"{side.capitalize()} units on the map {on_map}; losses so far {lost}")
    limit = f" The loss limit is {data.loss_limit}." if data.loss_limit is not None else ""
    return f"Chart of strength and losses by turn ({span}). " + ". ".join(parts) + "." + limit


def _ranked(board: Leaderboard, top: int) -> list[RankedEntry]:
    return [e for e in board.entries if e.value is not None and e.won is not None][:top]


def has_leaderboard_chart(board: Leaderboard) -> bool:
    """Whether any entry has ended with a charted value: there is something to draw."""
    return board.axis is not None and bool(_ranked(board, 1))


def leaderboard_chart(board: Leaderboard, top: int = 10) -> bytes | None:
    """The best ``top`` ended entries as bars, and below them how many ended entries reached each
    value (won and lost stacked); None when no entry has ended with a charted value."""
    if not has_leaderboard_chart(board) or board.axis is None:
        return None
    ranked, spread = _ranked(board, top), board.spread
    row, height_top = 26, 60
    hist_top = height_top + row * len(ranked) + 50
    height = hist_top + 260
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = f"Shared deal {board.challenge.name}: {board.axis}"
    draw.text((WIDTH / 2, 16), title, fill=INK, font=font(18), anchor="mt")
    draw.text((24, 44), "Leaderboard", fill=INK, font=font(15), anchor="lm")
    most = max(max(e.value or 0 for e in ranked), 1)
    bar_left, bar_right = 220, WIDTH - 60
    for index, entry in enumerate(ranked):
        y = height_top + index * row
        label = f"{entry.rank}. #{entry.game_id} {entry.player}".rstrip()
        draw.text((24, y + row / 2), label, fill=INK, font=font(13), anchor="lm")
        length = (bar_right - bar_left) * (entry.value or 0) / most
        colour = WON if entry.won else LOST
        draw.rectangle([(bar_left, y + 4), (bar_left + max(length, 2), y + row - 4)], fill=colour)
        at = (bar_left + length + 6, y + row / 2)
        draw.text(at, str(entry.value), fill=INK, font=font(13), anchor="lm")
    draw.text((24, hist_top - 20), "Spread of results", fill=INK, font=font(15), anchor="lm")
    low, high = min(spread), max(spread)
    columns = list(range(low, high + 1))
    tallest = max(sum(counts.values()) for counts in spread.values())
    y_max = math.ceil(tallest / _step(tallest)) * _step(tallest)
    plot = Plot(56, hist_top + 20, WIDTH - 24, height - 48, len(columns), y_max)
    width = (plot.right - plot.left) / len(columns)
    small = font(13)
    for value in range(0, y_max + 1, _step(y_max)):
        level = plot.y(value)
        draw.line([(plot.left, level), (plot.right, level)], fill=GRID, width=1)
        draw.text((plot.left - 8, level), str(value), fill=MUTED, font=small, anchor="rm")
    for index, value in enumerate(columns):
        counts = spread.get(value)
        x0 = plot.left + index * width + width * 0.15
        x1 = plot.left + (index + 1) * width - width * 0.15
        base = 0
        for won in (True, False):
            n = counts[won] if counts else 0
            if n:
                fill = WON if won else LOST
                draw.rectangle([(x0, plot.y(base + n)), (x1, plot.y(base))], fill=fill)
                base += n
        draw.text(((x0 + x1) / 2, plot.bottom + 8), str(value), fill=MUTED, font=small, anchor="mt")
    draw.line([(plot.left, plot.bottom), (plot.right, plot.bottom)], fill=INK, width=1)
    legend_y = height - 16
    draw.rectangle([(plot.left, legend_y - 6), (plot.left + 12, legend_y + 6)], fill=WON)
    draw.text((plot.left + 18, legend_y), "won", fill=INK, font=small, anchor="lm")
    draw.rectangle([(plot.left + 70, legend_y - 6), (plot.left + 82, legend_y + 6)], fill=LOST)
    draw.text((plot.left + 88, legend_y), "lost", fill=INK, font=small, anchor="lm")
    draw.text((plot.right, legend_y), board.axis, fill=MUTED, font=small, anchor="rm")
    return _png(image)


def leaderboard_alt(board: Leaderboard, top: int = 10) -> str:
    ranked = _ranked(board, top)
    axis = board.axis or "score"
    leaders = "; ".join(
        f"{e.rank}. game {e.game_id}{f' ({e.player})' if e.player else ''} {e.value}, "
        f"{'won' if e.won else 'lost'}"
        for e in ranked
    )
    spread = "; ".join(
        f"{value}: {sum(counts.values())} ({counts[True]} won)"
        for value, counts in board.spread.items()
    )
    return f"Leaderboard by {axis}: {leaders}. How many ended games reached each value: {spread}."
