"""The 2 de Mayo map itself: streets, area boxes and their names, the off-map stacks, the
compass, and the units standing in each area."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.core.picture import Point, length, wrap
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.describe import SIDES, area_order, board, side_name
from adjudicator.games.dos_de_mayo.render_art import Painter, font


def streets(paint: Painter) -> None:
    """The streets between neighbouring areas (main streets wider), and the dashed roads in
    from the off-map stacks."""
    look, where = paint.art, board()
    pairs = sorted(
        {tuple(sorted((a, b), key=area_order)) for a, bs in where.neighbours.items() for b in bs}
    )
    main = [pair for pair in pairs if set(pair) <= where.main_streets]
    for casing, fill, chosen, wide in (
        ("road_edge", "road", [p for p in pairs if p not in main], 9),
        ("main_road_edge", "main_road", main, 15),
    ):
        for a, b in chosen:
            ends = [look.centre(a), look.centre(b)]
            paint.polyline(ends, paint.colour[casing], wide)
        for a, b in chosen:
            ends = [look.centre(a), look.centre(b)]
            paint.polyline(ends, paint.colour[fill], wide - 4)
    for gate, centre in look.stacks.values():
        paint.dashed([centre, look.centre(gate)], paint.colour["road_edge"], 3)


def contested_mark(paint: Painter, area: str) -> None:
    """The crossed blades on a contested area's top edge (drawn over the moves' arrows)."""
    _, top, right, _ = paint.art.rect(area)
    paint.swords((right - 14, top + 1))


def draw_area(paint: Painter, area: str, highlight: bool = False) -> None:
    """An area's box, number badge and name; ``highlight`` marks it contested."""
    look, where = paint.art, board()
    x0, y0, x1, y1 = look.rect(area)
    gate, main = area in where.gates, area in where.main_streets
    fill = paint.colour["main_area" if main else "area"]
    edge = paint.colour["gate_edge" if gate else "area_edge"]
    width = 3 if gate else 2
    if highlight:
        fill, edge, width = paint.colour["contested"], paint.colour["contested_edge"], 4
    paint.draw.rounded_rectangle(
        (x0, y0, x1, y1), look.corner, fill=fill, outline=edge, width=width
    )
    paint.badge(x0 + 5, y0 + 5, area, gate)
    # The art splits each name into lines; one too wide for the box wraps onto a line more.
    room = x1 - x0 - 36
    names = [part for line in look.lines[area] for part in wrap(line, font(12, True), room)]
    top = y0 + (16 if len(names) == 1 else 10)
    for index, line in enumerate(names):
        paint.text((x0 + 32, top + index * 13), line, 12, "ink", "lm", bold=True)


def stack_frame(paint: Painter, stack: str) -> None:
    """An off-map stack's dashed box and its name."""
    x0, y0, x1, y1 = paint.art.rect(stack)
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 6, fill=paint.colour["off_map"])
    paint.dashed(
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], paint.colour["france"], 2, 4, 3
    )
    paint.text(((x0 + x1) / 2, y0 + 10), stack, 11, "france", "mm", bold=True)


def compass(paint: Painter) -> None:
    """The north arrow."""
    x, y = paint.art.compass
    ink = paint.colour["muted"]
    paint.draw.polygon([(x, y - 16), (x + 6, y + 4), (x, y), (x - 6, y + 4)], fill=ink)
    paint.text((x, y + 14), "N", 12, "muted", "mm", bold=True)


def _losses_by_area(view: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Units lost this turn in each area, by side: in combat and removed by cards."""
    lost: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(SIDES, 0))
    for combat in view.get("combats") or []:
        for side in SIDES:
            lost[str(combat["area"])][side] += int(combat["lost"].get(side, 0))
    for removal in view.get("removed") or []:
        lost[str(removal["area"])][str(removal["side"])] += int(removal["units"])
    return lost


def _chips(paint: Painter, centre: Point, chips: Iterable[tuple[str, str, bool]]) -> None:
    """A centred row of chips: (side, label, lost)."""
    row = list(chips)
    step = 26
    x = centre[0] - step * (len(row) - 1) / 2
    for side, label, lost in row:
        paint.chip((x, centre[1]), side, label, lost)
        x += step


def units(paint: Painter, view: Mapping[str, Any]) -> None:
    """Every area's and stack's units and this turn's losses as chips, and the set-aside pools."""
    look = paint.art
    lost = _losses_by_area(view)
    for area in look.centres:
        groups = view["areas"].get(area, {})
        row = [(side, str(groups[side]), False) for side in SIDES if groups.get(side)]
        row += [
            (side, f"−{lost[area][side]}", True) for side in SIDES if lost.get(area, {}).get(side)
        ]
        x0, y0, x1, y1 = look.rect(area)
        _chips(paint, ((x0 + x1) / 2, y1 - 15), row)
    for stack in look.stacks:
        x0, y0, x1, y1 = look.rect(stack)
        count = int(view["off_map"].get(stack, 0))
        row = [("france", str(count), False)] if count else []
        if lost.get(stack, {}).get("france"):
            row.append(("france", f"−{lost[stack]['france']}", True))
        if row:
            _chips(paint, ((x0 + x1) / 2, y1 - 15), row)
        else:
            paint.text(((x0 + x1) / 2, y1 - 15), _("empty"), 10, "muted", "mm")
    x0, y0, x1, y1 = look.set_aside
    pools = view["set_aside"]
    # Both pools on one row where the sides' names fit it (they are longer in some languages),
    # else one under the other.
    face = font(11)
    names = [side_name(side) for side in SIDES]
    second = max(x0 + 86, x0 + 52 + length(names[0], face))
    one_row = second + 16 + length(names[1], face) <= x1 - 6
    for index, side in enumerate(SIDES):
        x = (second if index else x0 + 22) if one_row else x0 + 22
        y = y0 + 40 if one_row else y0 + 31 + index * 20
        paint.chip((x, y), side, str(pools.get(side, 0)))
        paint.text((x + 16, y), names[index], 11, anchor="lm")
