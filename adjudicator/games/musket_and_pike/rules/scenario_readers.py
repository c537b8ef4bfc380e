"""The readers of a scenario file, one for each part of it (heading, end rule, map, sides, wings,
units, leaders, commanders), in the order ``scenario.parse_scenario`` calls them.

Each reader takes the ``Sheet`` of the file being read, records every problem it finds with its
code and goes on, so a broken file names all its faults at once; what it reads is kept on the
sheet for the readers after it (the units need the wings, the leaders the sides).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.games.musket_and_pike.rules.datafile import Problem
from adjudicator.games.musket_and_pike.rules.hexes import Hex, on_map
from adjudicator.games.musket_and_pike.rules.ruleset import LAST_TURN_RULES, Ruleset
from adjudicator.games.musket_and_pike.rules.state import KINDS, ORDERS, ROLES, Leader, Unit, Wing


@dataclass(frozen=True)
class SideInfo:
    id: str
    name: str
    break_level: int
    deploy_rows: tuple[int, int]  # first and last map row of the side's set-up area


def _text(raw: Mapping[str, Any], key: str, where: str, problems: list[Problem]) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        problems.append(Problem("missing-key", f"{where}.{key} must be text"))
        return ""
    return value


def _int(
    raw: Mapping[str, Any], key: str, where: str, problems: list[Problem], low: int, high: int
) -> int:
    value = raw.get(key)
    if value is None:
        problems.append(Problem("missing-key", f"{where}.{key} is missing"))
        return low
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(
            Problem("bad-number", f"{where}.{key} must be {low}..{high}, not {value!r}")
        )
        return low
    return value


def _hex(raw: Mapping[str, Any], where: str, problems: list[Problem]) -> Hex:
    value = raw.get("hex")
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        problems.append(Problem("missing-key", f"{where}.hex must be [column, row]"))
        return (-1, -1)
    return (int(value[0]), int(value[1]))


def _entries(raw: Mapping[str, Any], key: str, problems: list[Problem]) -> list[dict[str, Any]]:
    value = raw.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(e, dict) for e in value):
        problems.append(Problem("missing-key", f"[[{key}]] is missing or malformed"))
        return []
    return value


class _Ids:
    """Every id in a scenario is unique across wings, units and leaders: orders name them."""

    def __init__(self, problems: list[Problem]) -> None:
        self.seen: set[str] = set()
        self.problems = problems

    def add(self, ident: str, where: str) -> None:
        if ident in self.seen:
            self.problems.append(Problem("duplicate-id", f"{where}: id {ident!r} is used twice"))
        self.seen.add(ident)


def _map(
    raw: Mapping[str, Any], rules: Ruleset, problems: list[Problem]
) -> tuple[int, int, tuple[str, ...]]:
    width = _int(raw, "width", "scenario", problems, 2, 60)
    height = _int(raw, "height", "scenario", problems, 2, 60)
    rows = raw.get("map")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        problems.append(Problem("missing-key", "scenario.map must be a list of rows"))
        return width, height, ()
    if len(rows) != height or any(len(row) != width for row in rows):
        problems.append(Problem("map-size", f"scenario.map must be {height} rows of {width}"))
    for number, row in enumerate(rows):
        for column, letter in enumerate(row):
            if letter not in rules.letters:
                problems.append(
                    Problem("unknown-terrain", f"map ({column}, {number}): letter {letter!r}")
                )
    return width, height, tuple(rows)


def _place(
    where: Hex,
    label: str,
    rows: tuple[str, ...],
    size: tuple[int, int],
    deploy: tuple[int, int] | None,
    problems: list[Problem],
) -> bool:
    """Checks a piece's set-up hex; True when it lies on the map."""
    if not on_map(where, *size) or where[1] >= len(rows) or where[0] >= len(rows[where[1]]):
        problems.append(Problem("off-map", f"{label} at {list(where)} is off the map"))
        return False
    if deploy is not None and not deploy[0] <= where[1] <= deploy[1]:
        problems.append(
            Problem("outside-deployment", f"{label} at {list(where)} is outside rows {deploy}")
        )
    return True


def _sides(raw: Mapping[str, Any], problems: list[Problem], ids: _Ids) -> list[SideInfo]:
    sides: list[SideInfo] = []
    for number, entry in enumerate(_entries(raw, "sides", problems)):
        where = f"sides[{number}]"
        rows = entry.get("deploy_rows")
        if not (
            isinstance(rows, list) and len(rows) == 2 and all(isinstance(r, int) for r in rows)
        ):
            problems.append(Problem("missing-key", f"{where}.deploy_rows must be [first, last]"))
            rows = [0, 0]
        ident = _text(entry, "id", where, problems)
        ids.add(ident, where)
        sides.append(
            SideInfo(
                id=ident,
                name=_text(entry, "name", where, problems),
                break_level=_int(entry, "break_level", where, problems, 1, 999),
                deploy_rows=(int(rows[0]), int(rows[1])),
            )
        )
    if len(sides) != 2:
        problems.append(Problem("unknown-side", f"a scenario has two sides, not {len(sides)}"))
    return sides


@dataclass
class Sheet:
    """A scenario file being read: its raw tables, the problems found so far, and what the
    readers have read from it."""

    raw: Mapping[str, Any]
    head: Mapping[str, Any]  # the [scenario] table
    rules: Ruleset
    problems: list[Problem] = field(default_factory=list)
    title: str = ""
    turns: int = 1
    last_turn_rule: str = ""
    width: int = 0
    height: int = 0
    rows: tuple[str, ...] = ()
    sides: list[SideInfo] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # wing, unit and leader id -> name
    # The scenario's own words in other languages: language -> English text -> its text there.
    words: dict[str, dict[str, str]] = field(default_factory=dict)
    wings: list[Wing] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    leaders: list[Leader] = field(default_factory=list)
    ids: _Ids = field(init=False)  # every id read so far, to find one used twice

    def __post_init__(self) -> None:
        self.ids = _Ids(self.problems)

    @property
    def size(self) -> tuple[int, int]:
        """The map's width and height."""
        return self.width, self.height

    @property
    def deploy(self) -> dict[str, tuple[int, int]]:
        """Each side's set-up rows, by side id."""
        return {side.id: side.deploy_rows for side in self.sides}

    @property
    def wing_side(self) -> dict[str, str]:
        """Each wing's side, by wing id."""
        return {wing.id: wing.side for wing in self.wings}


def read_heading(sheet: Sheet) -> None:
    """The battle's title and its number of turns."""
    sheet.title = _text(sheet.head, "title", "scenario", sheet.problems)
    sheet.turns = _int(sheet.head, "turns", "scenario", sheet.problems, 1, 99)


def read_words(sheet: Sheet) -> None:
    """The scenario's words in other languages (``[words.<lang>]``: its title, each side's
    title and each wing's name, by their English text), each one a text the scenario uses."""
    raw = sheet.raw.get("words", {})
    if not isinstance(raw, Mapping):
        sheet.problems.append(Problem("missing-key", "words must be a table per language"))
        return
    used = {sheet.title, *sheet.names.values()}
    used |= {side.name.split(" (", 1)[0].strip() for side in sheet.sides}
    for lang, table in raw.items():
        if not isinstance(table, Mapping):
            sheet.problems.append(Problem("missing-key", f"words.{lang} must be a table"))
            continue
        for english, text in table.items():
            if english not in used:
                sheet.problems.append(
                    Problem("missing-key", f"words.{lang}: the scenario has no {english!r}")
                )
            elif not isinstance(text, str) or not text:
                sheet.problems.append(Problem("missing-key", f"words.{lang}.{english} is no text"))
        sheet.words[str(lang)] = {str(k): str(v) for k, v in table.items()}


def read_end_rule(sheet: Sheet) -> None:
    """Who wins when the last turn ends with both armies in the field: the scenario's
    [victory] last_turn, else the ruleset's."""
    victory = sheet.raw.get("victory", {})
    rule = victory.get("last_turn", sheet.rules.last_turn) if isinstance(victory, dict) else ""
    if rule not in LAST_TURN_RULES:
        sheet.problems.append(
            Problem("bad-choice", f"victory.last_turn must be one of {LAST_TURN_RULES}")
        )
    sheet.last_turn_rule = str(rule)


def read_map(sheet: Sheet) -> None:
    """The map's size and its rows of terrain letters."""
    sheet.width, sheet.height, sheet.rows = _map(sheet.head, sheet.rules, sheet.problems)


def read_sides(sheet: Sheet) -> None:
    """The two sides, each with its break level and set-up rows."""
    sheet.sides = _sides(sheet.raw, sheet.problems, sheet.ids)


def read_wings(sheet: Sheet) -> None:
    """The wings, each of a side, with its opening order (Make Ready unless given)."""
    problems, deploy = sheet.problems, sheet.deploy
    for number, entry in enumerate(_entries(sheet.raw, "wings", problems)):
        where = f"wings[{number}]"
        wing_id, side = _text(entry, "id", where, problems), _text(entry, "side", where, problems)
        sheet.ids.add(wing_id, where)
        if side not in deploy:
            problems.append(Problem("unknown-side", f"{where}: side {side!r}"))
        order = entry.get("order", "make_ready")
        if order not in ORDERS:
            problems.append(Problem("unknown-order", f"{where}: order {order!r}"))
        sheet.names[wing_id] = str(entry.get("name", wing_id))
        sheet.wings.append(Wing(wing_id, side, str(order), False, False, 0, False))


def read_units(sheet: Sheet) -> None:
    """The units: each of a wing, on a map hex of its side's set-up rows, on ground it may
    stand on, one to a hex."""
    problems, wing_side, deploy = sheet.problems, sheet.wing_side, sheet.deploy
    occupied: dict[Hex, str] = {}
    for number, entry in enumerate(_entries(sheet.raw, "units", problems)):
        unit_id = _text(entry, "id", f"units[{number}]", problems)
        where = f"unit {unit_id}"
        sheet.ids.add(unit_id, where)
        wing = _text(entry, "wing", where, problems)
        if wing not in wing_side:
            problems.append(Problem("unknown-wing", f"{where}: wing {wing!r}"))
        kind = str(entry.get("kind"))
        if kind not in KINDS:
            problems.append(Problem("unknown-kind", f"{where}: kind {kind!r}"))
        side = wing_side.get(wing, "")
        place = _hex(entry, where, problems)
        if _place(place, where, sheet.rows, sheet.size, deploy.get(side), problems):
            _stand(sheet, place, where, kind, occupied)
            occupied[place] = unit_id
        sheet.names[unit_id] = str(entry.get("name", unit_id))
        sheet.units.append(
            Unit(
                id=unit_id,
                side=side,
                kind=kind,
                wing=wing,
                hex=place,
                facing=_int(entry, "facing", where, problems, 0, 5),
                sp=_int(entry, "sp", where, problems, 1, 20),
                morale=_int(entry, "morale", where, problems, 4, 8),
                formation="normal",
                morale_state="good",
                casualties=0,
                fired=False,
                salvo=False,
            )
        )


def _stand(sheet: Sheet, place: Hex, where: str, kind: str, occupied: Mapping[Hex, str]) -> None:
    """A unit's set-up hex on the map: nobody else in it, and ground its kind may enter."""
    if place in occupied:
        sheet.problems.append(
            Problem("stacked", f"{where} shares {list(place)} with {occupied[place]}")
        )
    rules = sheet.rules
    terrain = rules.terrain.get(rules.letters.get(sheet.rows[place[1]][place[0]], ""))
    if terrain is not None and not terrain.passable(kind):
        sheet.problems.append(
            Problem("impassable", f"{where}: {kind} may not stand in {terrain.name}")
        )


def read_leaders(sheet: Sheet) -> None:
    """The leaders: a wing commander (WC) leads a wing of his side, an army commander (AC) his
    side's army; each on a map hex of his side's set-up rows."""
    problems, wing_side, deploy = sheet.problems, sheet.wing_side, sheet.deploy
    for number, entry in enumerate(_entries(sheet.raw, "leaders", problems)):
        leader_id = _text(entry, "id", f"leaders[{number}]", problems)
        where = f"leader {leader_id}"
        sheet.ids.add(leader_id, where)
        role = entry.get("role")
        if role not in ROLES:
            problems.append(Problem("bad-choice", f"{where}: role must be one of {ROLES}"))
        side = _text(entry, "side", where, problems)
        if side not in deploy:
            problems.append(Problem("unknown-side", f"{where}: side {side!r}"))
        led = entry.get("wing") if role == "WC" else None
        if role == "WC" and wing_side.get(str(led)) != side:
            problems.append(Problem("unknown-wing", f"{where}: wing {led!r} of side {side!r}"))
        place = _hex(entry, where, problems)
        _place(place, where, sheet.rows, sheet.size, deploy.get(side), problems)
        sheet.names[leader_id] = str(entry.get("name", leader_id))
        sheet.leaders.append(
            Leader(
                id=leader_id,
                side=side,
                role=str(role),
                wing=None if led is None else str(led),
                rating=_int(entry, "rating", where, problems, -2, 0),
                hex=place,
                finished=False,
                lost_this_turn=False,
            )
        )


def check_commanders(sheet: Sheet) -> None:
    """Every wing has one commander; every side one army commander and at least one wing."""
    problems, leaders = sheet.problems, sheet.leaders
    for wing_id in sheet.wing_side:
        count = sum(1 for x in leaders if x.role == "WC" and x.wing == wing_id)
        if count != 1:
            problems.append(Problem("wing-commander", f"wing {wing_id} has {count} commanders"))
    for info in sheet.sides:
        count = sum(1 for x in leaders if x.role == "AC" and x.side == info.id)
        if count != 1:
            problems.append(
                Problem("army-commander", f"side {info.id} has {count} army commanders")
            )
        if not any(w.side == info.id for w in sheet.wings):
            problems.append(Problem("unknown-wing", f"side {info.id} has no wings"))
