"""The Musket & Pike map as a PNG for mail: terrain hexes, counters, leaders, wing orders, and
arrows for the last activation's moves, fire and close combat (from its events).

Sizes, colours and fonts come from ``art.toml``; nothing here decides a rule. Orders handed in
secretly at set-up are never drawn: during set-up every wing's order shows as "?".
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.picture import Colour, Font, Point
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.data import Ruleset, ruleset
from adjudicator.games.musket_and_pike.field import Event
from adjudicator.games.musket_and_pike.hexes import SQRT3, Hex
from adjudicator.games.musket_and_pike.scenario import Scenario, scenario
from adjudicator.games.musket_and_pike.state import Leader, Position, Unit, Wing
from adjudicator.games.musket_and_pike.titles import in_words, side_name

ORDER_WORDS = {
    "charge": N_("Charge"),
    "make_ready": N_("Make Ready"),
    "receive_charge": N_("Receive Charge"),
    "rally": N_("Rally"),
}


# The phase in the map's header, in a word.
HEADER_PHASES = {
    "setup": N_("setup"),
    "initiative": N_("initiative"),
    "activation": N_("activation"),
    "rout": N_("rout"),
    "markers": N_("markers"),
    "over": N_("over"),
}


def _order_words(order: str) -> str:
    return _(ORDER_WORDS[order]) if order in ORDER_WORDS else order


# The side panel under the map: each side's column, its lines wrapped to the column's width.
PANEL_X, PANEL_SIZE, PANEL_STEP, PANEL_GAP, PANEL_INDENT = 14, 12, 17, 3, 10
# The order checker's lines in words, on a band under the panel.
NOTE_SIZE, NOTE_STEP, NOTE_TOP = 14, 19, 16


@functools.cache
def art() -> Mapping[str, Any]:
    text = resources.files("adjudicator.games.musket_and_pike").joinpath("art.toml").read_text()
    return tomllib.loads(text)


def _colour(value: Sequence[int]) -> Colour:
    return (int(value[0]), int(value[1]), int(value[2]))


def colour(name: str) -> Colour:
    return _colour(art()["colours"][name])


def side_colour(position: Position, side: str) -> Colour:
    palette = art()["sides"]
    if side in palette.get("named", {}):
        return _colour(palette["named"][side])
    index = position.sides.index(side) if side in position.sides else 0
    return _colour(palette["order"][index % len(palette["order"])])


@functools.cache
def font(size: int, bold: bool = False) -> Font:
    """The first art font found on this machine; Pillow's own font as the last resort."""
    return picture.font(
        size, tuple(str(name) for name in art()["fonts"]["bold" if bold else "regular"])
    )


@dataclass(frozen=True)
class Layout:
    """Where hexes fall on the canvas for one map size."""

    radius: float
    origin: Point
    width: int
    height: int
    map_bottom: float

    def centre(self, where: Hex) -> Point:
        column, row = where
        x = self.origin[0] + self.radius + 1.5 * self.radius * column
        y = self.origin[1] + SQRT3 * self.radius * (row + 0.5 + 0.5 * (column & 1))
        return (x, y)

    def corners(self, where: Hex, shrink: float = 0.0) -> list[Point]:
        x, y = self.centre(where)
        size = self.radius - shrink
        return [
            (x + size * math.cos(math.radians(60 * k)), y + size * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def toward(self, where: Hex, facing: int, reach: float) -> Point:
        """The point ``reach`` radii from the centre, across hexside ``facing``."""
        x, y = self.centre(where)
        bearing = math.radians(60 * facing)
        return (
            x + reach * self.radius * math.sin(bearing),
            y - reach * self.radius * math.cos(bearing),
        )


def layout(battle: Scenario) -> Layout:
    canvas = art()["canvas"]
    margin, width = int(canvas["margin"]), int(canvas["width"])
    across = 1.5 * (battle.width - 1) + 2
    radius = min((width - 2 * margin) / across, float(canvas["max_radius"]))
    map_height = SQRT3 * radius * (battle.height + 0.5)
    top = int(canvas["header"]) + margin
    left = (width - across * radius) / 2
    bottom = top + map_height
    return Layout(
        radius=radius,
        origin=(left, top),
        width=width,
        height=int(bottom + margin + int(canvas["panel"])),
        map_bottom=bottom,
    )


class Painter:
    def __init__(
        self, image: Image.Image, place: Layout, position: Position, scale: int = 1
    ) -> None:
        self.draw = picture.Canvas(image, scale)
        self.place = place
        self.position = position

    def text(self, xy: Point, words: str, size: int, fill: Colour, bold: bool = False) -> None:
        picture.label(self.draw, xy, words, font(size, bold), fill, anchor="mm")

    def left_text(self, xy: Point, words: str, size: int, fill: Colour, bold: bool = False) -> None:
        picture.label(self.draw, xy, words, font(size, bold), fill, anchor="lm")

    def arrow(self, points: Sequence[Point], fill: Colour, width: int) -> None:
        if len(points) < 2:
            return
        self.draw.line(list(points), fill=fill, width=width, joint="curve")
        (x0, y0), (x1, y1) = points[-2], points[-1]
        angle = math.atan2(y1 - y0, x1 - x0)
        size = 4 + 2 * width
        head = [
            (x1, y1),
            (x1 - size * math.cos(angle - 0.45), y1 - size * math.sin(angle - 0.45)),
            (x1 - size * math.cos(angle + 0.45), y1 - size * math.sin(angle + 0.45)),
        ]
        self.draw.polygon(head, fill=fill)


def hex_label_size() -> int:
    """The font size of the hex labels ("3.7"), in pixels of the mailed picture."""
    return int(art()["hex_label"]["size"])


def _terrain(paint: Painter, battle: Scenario, rules: Ruleset) -> None:
    shades = art()["terrain"]
    look = art()["hex_label"]
    for row in range(battle.height):
        for column in range(battle.width):
            where = (column, row)
            name = rules.letters[battle.letter(where)]
            fill = _colour(shades.get(name, art()["colours"]["background"]))
            paint.draw.polygon(paint.place.corners(where), fill=fill, outline=colour("hex_edge"))
            # Every hex is labelled: players write orders by these coordinates.
            x, y = paint.place.centre(where)
            label = f"{column}.{row}"
            at = (x, y - float(look["above"]) * paint.place.radius)
            ink = colour("hex_label_light" if name in look["light_on"] else "hex_label")
            paint.text(at, label, hex_label_size(), ink, bool(look["bold"]))


def _badge(paint: Painter, xy: Point, words: str, fill: Colour, ink: Colour) -> None:
    x, y = xy
    half = 5 + 2.5 * len(words)
    paint.draw.rounded_rectangle((x - half, y - 6, x + half, y + 6), 3, fill=fill, outline=ink)
    paint.text((x, y), words, 9, ink, bold=True)


def _counter(paint: Painter, piece: Unit) -> None:
    assert piece.hex is not None
    place = paint.place
    x, y = place.centre(piece.hex)
    look = art()["counter"]
    # The counter sits below the hex's middle, leaving the hex's label above it readable.
    y += float(look["below"]) * place.radius
    half = float(look["half"]) * place.radius
    body = side_colour(paint.position, piece.side)
    routed = piece.morale_state == "routed"
    # The facing tick runs out from the counter's edge only a little, so a tick to the north
    # ends below the hex's label instead of crossing it.
    bearing = math.radians(60 * piece.facing)
    reach = half + float(look["tick"]) * place.radius
    tick_to = (x + reach * math.sin(bearing), y - reach * math.cos(bearing))
    paint.draw.line([(x, y), tick_to], fill=body, width=int(look["tick_width"]))
    edge = colour("routed") if routed else colour("ink")
    paint.draw.rounded_rectangle(
        (x - half, y - half, x + half, y + half),
        4,
        fill=body,
        outline=edge,
        width=3 if routed else 1,
    )
    ink = colour("counter_ink")
    paint.text((x, y - 0.33 * half * 2 / 1.2), piece.kind, 9, ink, bold=True)
    paint.text((x, y + 1), str(piece.sp), 14, ink, bold=True)
    paint.text((x, y + 0.62 * half), f"m{piece.morale}", 8, ink)
    if piece.formation != "normal":
        mark = "D" if piece.formation == "disordered" else "B"
        _badge(paint, (x + half, y - half), mark, colour(piece.formation), colour("ink"))
    if piece.morale_state != "good":
        mark = "S" if piece.morale_state == "shaken" else "R"
        fill = colour("shaken") if mark == "S" else colour("routed")
        ink_mark = colour("ink") if mark == "S" else colour("counter_ink")
        _badge(paint, (x + half, y + half), mark, fill, ink_mark)
    if piece.salvo:
        _badge(paint, (x - half, y - half), "Sv", colour("salvo"), body)
    if piece.fired:
        _badge(paint, (x - half, y - half), "F", colour("salvo"), body)


def _leaders(paint: Painter) -> None:
    stacks: dict[Hex, list[Leader]] = {}
    for chief in paint.position.leaders:
        if chief.hex is not None:
            stacks.setdefault(chief.hex, []).append(chief)
    size = max(6.0, 0.24 * paint.place.radius)
    for where, chiefs in stacks.items():
        x, y = paint.place.centre(where)
        # Level with the counter, below the hex's label.
        y += float(art()["counter"]["below"]) * paint.place.radius
        for number, chief in enumerate(chiefs):
            cx, cy = x - 0.72 * paint.place.radius, y - size * (len(chiefs) - 1) + 2 * size * number
            fill = colour("leader_finished") if chief.finished else colour("leader")
            paint.draw.ellipse(
                (cx - size, cy - size, cx + size, cy + size),
                fill=fill,
                outline=side_colour(paint.position, chief.side),
                width=2,
            )
            label = "F" if chief.finished else chief.role[0]
            paint.text((cx, cy), label, 9, colour("ink"), bold=True)


def _arrows(paint: Painter, events: Iterable[Event], kinds: frozenset[str]) -> None:
    sides = {piece.id: piece.side for piece in paint.position.units}
    sides.update({chief.id: chief.side for chief in paint.position.leaders})
    centre = paint.place.centre
    for event in events:
        kind = event.get("type")
        if kind not in kinds:
            continue
        if kind in ("move", "leader_move", "retreat", "rout") and len(event.get("path", [])) >= 1:
            points = [centre((int(h[0]), int(h[1]))) for h in event["path"]]
            owner = str(event.get("unit", event.get("leader", "")))
            tint = side_colour(paint.position, sides.get(owner, ""))
            if kind in ("retreat", "rout"):
                tint = colour("muted")
            if len(points) >= 2:
                paint.arrow(points, tint, 2 if kind == "leader_move" else 3)
        elif kind in ("fire", "close_combat") and event.get("from") and event.get("to"):
            start = centre((int(event["from"][0]), int(event["from"][1])))
            end = centre((int(event["to"][0]), int(event["to"][1])))
            # Stop short of the target's centre so its counter stays readable.
            end = (start[0] + 0.7 * (end[0] - start[0]), start[1] + 0.7 * (end[1] - start[1]))
            tint = colour("fire") if kind == "fire" else colour("melee")
            paint.arrow([start, end], tint, 2 if kind == "fire" else 4)


def _header(paint: Painter, battle: Scenario) -> None:
    height = int(art()["canvas"]["header"])
    paint.draw.rectangle((0, 0, paint.place.width, height), fill=colour("header"))
    position = paint.position
    turn = _("turn %(turn)s of %(last)s", turn=position.turn, last=position.last_turn)
    phase = _(HEADER_PHASES[position.phase]) if position.phase in HEADER_PHASES else position.phase
    words = f"MUSKET & PIKE  ·  {in_words(battle, battle.title)}  ·  {turn}  ·  {phase}"
    if position.winner:
        words += "  ·  " + _("%(side)s wins", side=side_name(battle, battle.side(position.winner)))
    paint.left_text((14, height / 2), words, 17, colour("header_ink"), bold=True)


@dataclass(frozen=True)
class Plan:
    """What the order checker adds to a map (``preview``): wing orders a side asks for at
    set-up, shown in the panel in place of "?", and lines in words under the panel."""

    orders: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Line:
    """One line of the side panel, already wrapped to its column."""

    text: str
    size: int
    tint: Colour
    bold: bool = False
    indent: float = 0


def _wrapped(words: str, size: int, tint: Colour, width: float, bold: bool = False) -> list[_Line]:
    """``words`` broken at spaces to ``width`` (never cut short); the lines after the first are
    indented, so a wrapped wing still reads as one."""
    face = font(size, bold)
    if picture.length(words, face) <= width:
        return [_Line(words, size, tint, bold)]  # most lines fit whole: one measure
    parts = picture.wrap(words, face, width)
    first = [_Line(parts[0], size, tint, bold)]
    rest = picture.wrap(" ".join(parts[1:]), face, width - PANEL_INDENT) if parts[1:] else []
    return first + [_Line(part, size, tint, bold, PANEL_INDENT) for part in rest]


def _wing_words(position: Position, battle: Scenario, wing: Wing, planned: str | None) -> str:
    chief = position.commander(wing.id)
    off = chief is None or chief.hex is None
    rating = _("off map") if off or chief is None else _("WC %(rating)s", rating=chief.rating)
    order = "?" if position.phase == "setup" else _order_words(wing.order)
    if planned is not None:
        order = _("%(order)s (asked)", order=_order_words(planned))
    marks = [_("act %(number)s", number=wing.activations)] if wing.activations else []
    marks += [_("F")] if wing.finished else []  # F: the wing has finished
    marks += [_("Bypassed")] if wing.bypassed else []
    words = (
        f"{in_words(battle, battle.names.get(wing.id, wing.id))} [{wing.id}]: {order} · {rating}"
    )
    return words + (f"  {' '.join(marks)}" if marks else "")


def _column(
    position: Position, battle: Scenario, side: str, width: float, planned: Mapping[str, str]
) -> list[_Line]:
    """A side's panel column: its losses, each wing's order and commander, leaders lost."""
    tint = side_colour(position, side)
    lost, level = position.lost(side), position.break_level(side)
    heading = _(
        "%(side)s: lost %(lost)s SP, breaks at %(level)s",
        side=side_name(battle, battle.side(side)),
        lost=lost,
        level=level,
    )
    lines = _wrapped(heading, 14, tint, width, bold=True)
    for wing in (w for w in position.wings if w.side == side):
        words = _wing_words(position, battle, wing, planned.get(wing.id))
        lines += _wrapped(words, PANEL_SIZE, colour("ink"), width)
    gone = [x.id for x in position.leaders if x.side == side and x.lost_this_turn]
    if gone:
        said = _("leaders lost: %(leaders)s", leaders=", ".join(gone))
        lines += _wrapped(said, PANEL_SIZE, colour("fire"), width)
    return lines


def _columns(position: Position, battle: Scenario, width: int, plan: Plan) -> list[list[_Line]]:
    room = width / max(1, len(position.sides)) - 2 * PANEL_X
    return [_column(position, battle, side, room, plan.orders) for side in position.sides]


def _panel_top(place: Layout) -> float:
    return place.map_bottom + int(art()["canvas"]["margin"]) / 2


def _line_y(top: float, index: int) -> float:
    """Where line ``index`` of a column stands: the heading first, the wings below it."""
    return top + 14 + index * PANEL_STEP + (PANEL_GAP if index else 0)


def _panel(paint: Painter, columns: list[list[_Line]], bottom: float) -> None:
    place = paint.place
    top = _panel_top(place)
    paint.draw.rectangle((0, top, place.width, bottom), fill=colour("panel"))
    column_width = place.width / max(1, len(columns))
    for number, lines in enumerate(columns):
        x = PANEL_X + number * column_width
        for index, line in enumerate(lines):
            at = (x + line.indent, _line_y(top, index))
            paint.left_text(at, line.text, line.size, line.tint, line.bold)


def _notes(paint: Painter, notes: Sequence[str], top: float) -> None:
    """The plan's lines under the panel, on a band of their own."""
    if not notes:
        return
    place = paint.place
    paint.draw.rectangle((0, top, place.width, place.height), fill=colour("background"))
    paint.draw.line([(0, top), (place.width, top)], fill=colour("plan"), width=3)
    for index, line in enumerate(notes):
        at = (PANEL_X, top + NOTE_TOP + index * NOTE_STEP)
        paint.left_text(at, line, NOTE_SIZE, colour("plan" if index == 0 else "ink"), index == 0)


def _wrapped_notes(notes: Sequence[str], width: int) -> list[str]:
    face = font(NOTE_SIZE)
    return [part for note in notes for part in picture.wrap(note, face, width - 2 * PANEL_X)]


def draw(
    position: Position,
    events: Iterable[Event] = (),
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
    scale: int = 1,
    plan: Plan | None = None,
) -> tuple[Image.Image, Painter]:
    """The picture of the position and the given events' arrows (and a ``plan``'s words), and
    the painter that drew it, for marks drawn over it (``preview``). The panel and the plan's
    band grow to hold every line: nothing is cut short."""
    rules = rules or ruleset()
    battle = battle or scenario(position.scenario)
    plan = plan or Plan()
    place = layout(battle)
    columns = _columns(position, battle, place.width, plan)
    top = _panel_top(place)
    tallest = max((len(lines) for lines in columns), default=0)
    bottom = max(place.height, math.ceil(_line_y(top, tallest - 1) + PANEL_STEP / 2 + 6))
    notes = _wrapped_notes(plan.notes, place.width)
    height = bottom + (NOTE_TOP + NOTE_STEP * len(notes) if notes else 0)
    place = replace(place, height=height)
    image = Image.new("RGB", (place.width * scale, height * scale), colour("background"))
    paint = Painter(image, place, position, scale)
    _header(paint, battle)
    _terrain(paint, battle, rules)
    shown = list(events)
    # Paths go under the counters (they end on one); fire and combat go over them.
    _arrows(paint, shown, frozenset({"move", "leader_move", "retreat", "rout"}))
    for piece in position.units:
        if piece.hex is not None:
            _counter(paint, piece)
    _leaders(paint)
    _arrows(paint, shown, frozenset({"fire", "close_combat"}))
    _panel(paint, columns, bottom)
    _notes(paint, notes, bottom)
    return image, paint


def encode(image: Image.Image) -> bytes:
    """The PNG of a map: every art colour has its own palette entry (so sides, terrain and marks
    stay true); the picture's own anti-aliasing shades fill the rest. zlib level 8
    (``BALANCED``): on the Braddock Down map some 68 ms and 0.9% more bytes than the smallest
    file's 152 ms, the most of a map's cost (bench/bench_musket_and_pike_render.py prints both)."""
    return picture.png(picture.keeping(image, _art_colours()), picture.BALANCED)


def render(
    position: Position,
    events: Iterable[Event] = (),
    *,
    rules: Ruleset | None = None,
    battle: Scenario | None = None,
    scale: int = 1,
) -> bytes:
    """The position (and the given events' arrows) as PNG bytes; ``scale`` 2 draws the same
    picture at twice the size, sharp, for zooming on the web (mail keeps 1)."""
    image, _ = draw(position, events, rules=rules, battle=battle, scale=scale)
    return encode(image)


def _art_colours() -> list[Colour]:
    data = art()
    sides = data["sides"]
    named = [*data["colours"].values(), *sides["order"], *sides.get("named", {}).values()]
    named += list(data["terrain"].values())
    return list(dict.fromkeys(_colour(value) for value in named))
