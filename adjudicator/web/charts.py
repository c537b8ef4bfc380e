"""Charts for the archive, drawn server-side with Pillow as PNG, and their numbers in words.

Each chart comes with ``*_alt``: the same numbers as a sentence, for the ``alt`` text, so that
nothing is only in the picture. The drawing takes plain values from ``services.reading.queries``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from adjudicator.core import picture, said
from adjudicator.core.picture import Colour, Point, font
from adjudicator.services.reading.queries import Leaderboard, RankedEntry, SideStrength
from adjudicator.web import languages

# Charts ask ``font`` for no font files, so they get Pillow's own scalable font: present wherever
# Pillow is, so charts look the same everywhere.
WIDTH = 720
PAPER: Colour = (253, 251, 246)
INK: Colour = (34, 34, 34)
MUTED: Colour = (120, 120, 120)
GRID: Colour = (225, 220, 210)
SIDE_COLOURS: dict[str, Colour] = {"france": (43, 76, 155), "spain": (178, 34, 34)}
OTHER_COLOURS: tuple[Colour, ...] = ((46, 125, 50), (142, 68, 173), (211, 84, 0))
WON: Colour = (46, 125, 50)
LOST: Colour = (160, 150, 140)


def _colour(name: str, index: int) -> Colour:
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


def _dashed(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: Colour) -> None:
    """A dashed chart line: each segment between two points starts with a whole dash."""
    picture.dashed(draw, points, fill, 3, dash=8.0, gap=5.0, restart=True)


def _axes(draw: ImageDraw.ImageDraw, plot: Plot, x_labels: Sequence[str], y_title: str) -> None:
    small = font(13)
    step = _step(plot.y_max)
    for value in range(0, plot.y_max + 1, step):
        y = plot.y(value)
        draw.line([(plot.left, y), (plot.right, y)], fill=GRID, width=1)
        picture.label(draw, (plot.left - 8, y), str(value), small, MUTED, anchor="rm")
    # Every label when they fit, else every n-th, so that long games stay legible.
    every = max(1, math.ceil(len(x_labels) * 34 / max(plot.right - plot.left, 1)))
    for index, label in enumerate(x_labels):
        if index % every == 0 or index == len(x_labels) - 1:
            picture.label(draw, (plot.x(index), plot.bottom + 8), label, small, MUTED, anchor="mt")
    draw.line([(plot.left, plot.bottom), (plot.right, plot.bottom)], fill=INK, width=1)
    picture.label(draw, (plot.left - 40, plot.top - 22), y_title, small, MUTED, anchor="lm")


def strength_chart(data: SideStrength) -> bytes:
    """Units on the map (solid) and losses so far (dashed) per side, by turn."""
    height = 400
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    values = [v for series in (*data.on_map.values(), *data.losses.values()) for v in series]
    top = max([*values, data.loss_limit or 0, 1])
    y_max = math.ceil((top + 1) / _step(top + 1)) * _step(top + 1)
    plot = Plot(56, 70, WIDTH - 24, height - 56, len(data.turns), y_max)
    picture.label(draw, (WIDTH / 2, 16), "Strength and losses by turn", font(18), INK, anchor="mt")
    _axes(draw, plot, [str(n) for n in data.turns], "units")
    middle = ((plot.left + plot.right) / 2, height - 18)
    picture.label(draw, middle, "turn", font(13), MUTED, anchor="mm")
    if data.loss_limit is not None:
        y = plot.y(data.loss_limit)
        _dashed(draw, [(plot.left, y), (plot.right, y)], LOST)
        label = f"loss limit {data.loss_limit}"
        picture.label(draw, (plot.right, y - 4), label, font(12), MUTED, anchor="rb")
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
            text = f"{data.titles.get(side, side.capitalize())} {what}"
            picture.label(draw, (legend_x + 32, 50), text, font(13), INK, anchor="lm")
            legend_x += 40 + int(picture.length(text, font(13))) + 12
    return picture.png(image, picture.SMALLEST)


def strength_alt(data: SideStrength) -> str:
    """The chart in words, for its alt text, in the page's language."""
    _ = languages.gettext
    if len(data.turns) > 1:
        span = _("turns %(first)s–%(last)s", first=data.turns[0], last=data.turns[-1])
    else:
        span = _("the opening")
    parts = []
    for side in data.on_map:
        parts.append(
            _(
                "%(side)s units on the map %(on_map)s; losses so far %(lost)s",
                side=data.titles.get(side, side.capitalize()),
                on_map=", ".join(map(str, data.on_map[side])),
                lost=", ".join(map(str, data.losses[side])),
            )
        )
    said = _("Chart of strength and losses by turn (%(span)s).", span=span)
    text = f"{said} " + ". ".join(parts) + "."
    if data.loss_limit is not None:
        text += " " + _("The loss limit is %(limit)s.", limit=data.loss_limit)
    return text


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
    title = picture.fitted(title, font(18), WIDTH - 48)
    picture.label(draw, (WIDTH / 2, 16), title, font(18), INK, anchor="mt")
    picture.label(draw, (24, 44), "Leaderboard", font(15), INK, anchor="lm")
    most = max(max(e.value or 0 for e in ranked), 1)
    bar_left, bar_right = 220, WIDTH - 60
    for index, entry in enumerate(ranked):
        y = height_top + index * row
        label = f"{entry.rank}. #{entry.game_id} {entry.player}".rstrip()
        label = picture.fitted(label, font(13), bar_left - 24 - 8)  # a long name: cut, not 500
        picture.label(draw, (24, y + row / 2), label, font(13), INK, anchor="lm")
        length = (bar_right - bar_left) * (entry.value or 0) / most
        colour = WON if entry.won else LOST
        draw.rectangle([(bar_left, y + 4), (bar_left + max(length, 2), y + row - 4)], fill=colour)
        at = (bar_left + length + 6, y + row / 2)
        picture.label(draw, at, str(entry.value), font(13), INK, anchor="lm")
    picture.label(draw, (24, hist_top - 20), "Spread of results", font(15), INK, anchor="lm")
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
        picture.label(draw, (plot.left - 8, level), str(value), small, MUTED, anchor="rm")
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
        picture.label(draw, ((x0 + x1) / 2, plot.bottom + 8), str(value), small, MUTED, anchor="mt")
    draw.line([(plot.left, plot.bottom), (plot.right, plot.bottom)], fill=INK, width=1)
    legend_y = height - 16
    draw.rectangle([(plot.left, legend_y - 6), (plot.left + 12, legend_y + 6)], fill=WON)
    picture.label(draw, (plot.left + 18, legend_y), "won", small, INK, anchor="lm")
    draw.rectangle([(plot.left + 70, legend_y - 6), (plot.left + 82, legend_y + 6)], fill=LOST)
    picture.label(draw, (plot.left + 88, legend_y), "lost", small, INK, anchor="lm")
    picture.label(draw, (plot.right, legend_y), board.axis, small, MUTED, anchor="rm")
    return picture.png(image, picture.SMALLEST)


def _ranked_words(entry: RankedEntry) -> str:
    _ = languages.gettext
    game = f"{entry.game_id} ({entry.player})" if entry.player else entry.game_id
    if entry.won:
        return _(
            "%(rank)s. game %(game)s %(value)s, won", rank=entry.rank, game=game, value=entry.value
        )
    return _(
        "%(rank)s. game %(game)s %(value)s, lost", rank=entry.rank, game=game, value=entry.value
    )


def leaderboard_alt(board: Leaderboard, top: int = 10) -> str:
    """The leaderboard and the spread in words, for the chart's alt text, in the page's
    language."""
    _ = languages.gettext
    ranked = _ranked(board, top)
    axis = said.anew(board.axis) if board.axis else _("score")
    leaders = "; ".join(_ranked_words(e) for e in ranked)
    spread = "; ".join(
        _(
            "%(value)s: %(count)s (%(won)s won)",
            value=value,
            count=sum(counts.values()),
            won=counts[True],
        )
        for value, counts in board.spread.items()
    )
    return _(
        "Leaderboard by %(axis)s: %(leaders)s. How many ended games reached each value: "
        "%(spread)s.",
        axis=axis,
        leaders=leaders,
        spread=spread,
    )
