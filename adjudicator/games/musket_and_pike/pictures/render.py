"""The Musket & Pike map as a PNG for mail: terrain hexes, counters, leaders, wing orders, and
arrows for the last activation's moves, fire and close combat (from its events).

Sizes, colours and fonts come from ``art.toml``; nothing here decides a rule. Orders handed in
secretly at set-up are never drawn: during set-up every wing's order shows as "?".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict, Unpack

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.picture import Colour
from adjudicator.core.said import N_, _, words_of
from adjudicator.games.musket_and_pike.pictures import legend
from adjudicator.games.musket_and_pike.pictures.look import (
    Layout,
    Painter,
    art,
    colour,
    font,
    hex_label_size,
    layout,
    rgb,
    side_colour,
)
from adjudicator.games.musket_and_pike.pictures.pieces import counters, leaders
from adjudicator.games.musket_and_pike.rules.data import Ruleset, ruleset
from adjudicator.games.musket_and_pike.rules.field import Event
from adjudicator.games.musket_and_pike.rules.scenario import Scenario, scenario
from adjudicator.games.musket_and_pike.rules.state import Position, Wing
from adjudicator.games.musket_and_pike.rules.titles import in_words, side_name
from adjudicator.games.musket_and_pike.words.describe import ORDER_WORDS

# The phase in the map's header, in a word.
HEADER_PHASES = {
    "setup": N_("setup"),
    "initiative": N_("initiative"),
    "activation": N_("activation"),
    "rout": N_("rout"),
    "markers": N_("markers"),
    "over": N_("over"),
}


# The side panel under the map: each side's column, its lines wrapped to the column's width.
PANEL_X, PANEL_SIZE, PANEL_STEP, PANEL_GAP, PANEL_INDENT = 14, 12, 17, 3, 10
# The order checker's lines in words, on a band under the panel.
NOTE_SIZE, NOTE_STEP, NOTE_TOP = 14, 19, 16


def _terrain(paint: Painter, battle: Scenario, rules: Ruleset) -> None:
    shades = art()["terrain"]
    look = art()["hex_label"]
    for row in range(battle.height):
        for column in range(battle.width):
            where = (column, row)
            name = rules.letters[battle.letter(where)]
            fill = rgb(shades.get(name, art()["colours"]["background"]))
            paint.draw.polygon(paint.place.corners(where), fill=fill, outline=colour("hex_edge"))
            # Every hex is labelled: players write orders by these coordinates.
            x, y = paint.place.centre(where)
            label = f"{column}.{row}"
            at = (x, y - float(look["above"]) * paint.place.radius)
            ink = colour("hex_label_light" if name in look["light_on"] else "hex_label")
            paint.text(at, label, hex_label_size(), ink, bool(look["bold"]))


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
    if chief is not None:
        # The disc on the map shows only "W": here is the id its orders name it by.
        rating = f"{chief.id} ({rating})"
    order = "?" if position.phase == "setup" else words_of(ORDER_WORDS, wing.order)
    if planned is not None:
        order = _("%(order)s (asked)", order=words_of(ORDER_WORDS, planned))
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
    """A side's panel column: its losses, its army commander, each wing's order and commander
    (each leader by its id), leaders lost."""
    tint = side_colour(position, side)
    lost, level = position.lost(side), position.break_level(side)
    heading = _(
        "%(side)s: lost %(lost)s SP, breaks at %(level)s",
        side=side_name(battle, battle.side(side)),
        lost=lost,
        level=level,
    )
    lines = _wrapped(heading, 14, tint, width, bold=True)
    chief = position.army_commander(side)
    if chief is not None:
        rating = _("rating %(rating)s", rating=chief.rating) if chief.hex else _("off map")
        said = _("army commander %(leader)s", leader=f"{chief.id} ({rating})")
        lines += _wrapped(said, PANEL_SIZE, colour("ink"), width)
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


class Drawing(TypedDict, total=False):
    """What a map is drawn with besides the position and its events: the ruleset and the
    battle (the packaged ones of the position's scenario where not given) and the scale (1)."""

    rules: Ruleset | None
    battle: Scenario | None
    scale: int


def draw(
    position: Position,
    events: Iterable[Event] = (),
    *,
    plan: Plan | None = None,
    **drawing: Unpack[Drawing],
) -> tuple[Image.Image, Painter]:
    """The picture of the position and the given events' arrows (and a ``plan``'s words), and
    the painter that drew it, for marks drawn over it (``preview``). The panel and the plan's
    band grow to hold every line: nothing is cut short. The map's key is under the panel."""
    rules = drawing.get("rules") or ruleset()
    battle = drawing.get("battle") or scenario(position.scenario)
    scale = drawing.get("scale", 1)
    plan = plan or Plan()
    place = layout(battle)
    columns = _columns(position, battle, place.width, plan)
    top = _panel_top(place)
    tallest = max((len(lines) for lines in columns), default=0)
    bottom = max(place.height, math.ceil(_line_y(top, tallest - 1) + PANEL_STEP / 2 + 6))
    key = legend.sections(battle, rules, position)
    key_bottom = bottom + legend.height(key, place.width)
    notes = _wrapped_notes(plan.notes, place.width)
    height = key_bottom + (NOTE_TOP + NOTE_STEP * len(notes) if notes else 0)
    place = replace(place, height=height)
    image = Image.new("RGB", (place.width * scale, height * scale), colour("background"))
    paint = Painter(image, place, position, scale)
    _header(paint, battle)
    _terrain(paint, battle, rules)
    shown = list(events)
    # Paths go under the counters (they end on one); fire and combat go over them.
    _arrows(paint, shown, frozenset({"move", "leader_move", "retreat", "rout"}))
    counters(paint)
    leaders(paint)
    _arrows(paint, shown, frozenset({"fire", "close_combat"}))
    _panel(paint, columns, bottom)
    legend.draw(paint, key, bottom, key_bottom)
    _notes(paint, notes, key_bottom)
    return image, paint


def encode(image: Image.Image) -> bytes:
    """The PNG of a map: every art colour has its own palette entry (so sides, terrain and marks
    stay true); the picture's own anti-aliasing shades fill the rest. zlib level 6
    (``BALANCED``, the rows deflated whole by ``core.picture``): on the Braddock Down map a fifth
    of the time of Pillow's level 8 before for 3% more bytes, a quarter of the smallest file's
    (4% smaller; bench/bench_musket_and_pike_render.py prints all three)."""
    return picture.png(picture.keeping(image, _art_colours()), picture.BALANCED)


def render(position: Position, events: Iterable[Event] = (), **drawing: Unpack[Drawing]) -> bytes:
    """The position (and the given events' arrows) as PNG bytes; ``scale`` 2 draws the same
    picture at twice the size, sharp, for zooming on the web (mail keeps 1)."""
    image, _ = draw(position, events, **drawing)
    return encode(image)


def _art_colours() -> list[Colour]:
    data = art()
    sides = data["sides"]
    named = [*data["colours"].values(), *sides["order"], *sides.get("named", {}).values()]
    named += list(data["terrain"].values())
    return list(dict.fromkeys(rgb(value) for value in named))
