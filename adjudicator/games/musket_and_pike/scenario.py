"""Musket & Pike scenarios: the map, sides, wings, leaders and units of ``scenarios/<id>.toml``,
validated, and the opening ``Position`` they give.

Like the ruleset, a scenario is checked whole when it loads; every problem carries a code so a
broken file names all its faults at once.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator.games.musket_and_pike.data import (
    LAST_TURN_RULES,
    DataError,
    Problem,
    Ruleset,
    ruleset,
)
from adjudicator.games.musket_and_pike.hexes import Hex, on_map
from adjudicator.games.musket_and_pike.state import (
    KINDS,
    ORDERS,
    ROLES,
    Leader,
    Position,
    Unit,
    Wing,
)

# The closed set of scenario problem codes.
SCENARIO_CODES = (
    "missing-key",
    "bad-number",
    "bad-choice",
    "duplicate-id",
    "map-size",
    "unknown-terrain",
    "unknown-side",
    "unknown-wing",
    "unknown-kind",
    "unknown-order",
    "off-map",
    "stacked",
    "impassable",
    "outside-deployment",
    "wing-commander",
    "army-commander",
)


@dataclass(frozen=True)
class SideInfo:
    id: str
    name: str
    break_level: int
    deploy_rows: tuple[int, int]  # first and last map row of the side's set-up area


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    note: str
    width: int
    height: int
    rows: tuple[str, ...]  # terrain letters, one string per map row, north first
    sides: tuple[SideInfo, ...]
    names: Mapping[str, str]  # wing, unit and leader id -> display name
    opening: Position
    # Who wins when the last turn ends with both armies in the field, one of LAST_TURN_RULES:
    # the scenario's [victory] last_turn, else the ruleset's.
    last_turn_rule: str

    def letter(self, where: Hex) -> str:
        column, row = where
        return self.rows[row][column]

    def on_map(self, where: Hex) -> bool:
        return on_map(where, self.width, self.height)

    def side(self, side_id: str) -> SideInfo:
        return next(info for info in self.sides if info.id == side_id)


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


def parse_scenario(
    ident: str, raw: Mapping[str, Any], rules: Ruleset | None = None
) -> Scenario | list[Problem]:
    """The scenario, or every problem with its file."""
    rules = rules or ruleset()
    problems: list[Problem] = []
    ids = _Ids(problems)
    head = raw.get("scenario")
    if not isinstance(head, dict):
        return [Problem("missing-key", "[scenario] is missing")]
    title = _text(head, "title", "scenario", problems)
    turns = _int(head, "turns", "scenario", problems, 1, 99)
    victory = raw.get("victory", {})
    last_turn_rule = victory.get("last_turn", rules.last_turn) if isinstance(victory, dict) else ""
    if last_turn_rule not in LAST_TURN_RULES:
        problems.append(
            Problem("bad-choice", f"victory.last_turn must be one of {LAST_TURN_RULES}")
        )
    width, height, rows = _map(head, rules, problems)
    sides = _sides(raw, problems, ids)
    deploy = {side.id: side.deploy_rows for side in sides}
    names: dict[str, str] = {}

    wings: list[Wing] = []
    for number, entry in enumerate(_entries(raw, "wings", problems)):
        where = f"wings[{number}]"
        wing_id, side = _text(entry, "id", where, problems), _text(entry, "side", where, problems)
        ids.add(wing_id, where)
        if side not in deploy:
            problems.append(Problem("unknown-side", f"{where}: side {side!r}"))
        order = entry.get("order", "make_ready")
        if order not in ORDERS:
            problems.append(Problem("unknown-order", f"{where}: order {order!r}"))
        names[wing_id] = str(entry.get("name", wing_id))
        wings.append(Wing(wing_id, side, str(order), False, False, 0, False))
    wing_side = {wing.id: wing.side for wing in wings}

    occupied: dict[Hex, str] = {}
    units: list[Unit] = []
    for number, entry in enumerate(_entries(raw, "units", problems)):
        unit_id = _text(entry, "id", f"units[{number}]", problems)
        where = f"unit {unit_id}"
        ids.add(unit_id, where)
        wing = _text(entry, "wing", where, problems)
        if wing not in wing_side:
            problems.append(Problem("unknown-wing", f"{where}: wing {wing!r}"))
        kind = str(entry.get("kind"))
        if kind not in KINDS:
            problems.append(Problem("unknown-kind", f"{where}: kind {kind!r}"))
        side = wing_side.get(wing, "")
        place = _hex(entry, where, problems)
        if _place(place, where, rows, (width, height), deploy.get(side), problems):
            if place in occupied:
                problems.append(
                    Problem("stacked", f"{where} shares {list(place)} with {occupied[place]}")
                )
            occupied[place] = unit_id
            terrain = rules.terrain.get(rules.letters.get(rows[place[1]][place[0]], ""))
            if terrain is not None and not terrain.passable(kind):
                problems.append(
                    Problem("impassable", f"{where}: {kind} may not stand in {terrain.name}")
                )
        names[unit_id] = str(entry.get("name", unit_id))
        units.append(
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

    leaders: list[Leader] = []
    for number, entry in enumerate(_entries(raw, "leaders", problems)):
        leader_id = _text(entry, "id", f"leaders[{number}]", problems)
        where = f"leader {leader_id}"
        ids.add(leader_id, where)
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
        _place(place, where, rows, (width, height), deploy.get(side), problems)
        names[leader_id] = str(entry.get("name", leader_id))
        leaders.append(
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

    for wing_id in wing_side:
        count = sum(1 for x in leaders if x.role == "WC" and x.wing == wing_id)
        if count != 1:
            problems.append(Problem("wing-commander", f"wing {wing_id} has {count} commanders"))
    for info in sides:
        count = sum(1 for x in leaders if x.role == "AC" and x.side == info.id)
        if count != 1:
            problems.append(
                Problem("army-commander", f"side {info.id} has {count} army commanders")
            )
        if not any(w.side == info.id for w in wings):
            problems.append(Problem("unknown-wing", f"side {info.id} has no wings"))
    if problems:
        return problems
    opening = Position(
        scenario=ident,
        turn=1,
        last_turn=turns,
        phase="setup",
        units=tuple(units),
        leaders=tuple(leaders),
        wings=tuple(wings),
        lost_sp=tuple((side.id, 0) for side in sides),
        break_levels=tuple((side.id, side.break_level) for side in sides),
        sides=tuple(side.id for side in sides),
        step="setup_orders",
    )
    return Scenario(
        id=ident,
        title=title,
        note=str(head.get("note", "")).strip(),
        width=width,
        height=height,
        rows=rows,
        sides=tuple(sides),
        names=names,
        opening=opening,
        last_turn_rule=str(last_turn_rule),
    )


def load_scenario(ident: str, text: str, rules: Ruleset | None = None) -> Scenario:
    """The scenario from TOML text; raises DataError listing every problem."""
    parsed = parse_scenario(ident, tomllib.loads(text), rules)
    if isinstance(parsed, list):
        raise DataError(f"scenario {ident}", parsed)
    return parsed


@functools.cache
def scenario_names() -> tuple[str, ...]:
    """The packaged scenarios' ids (their file names without ``.toml``), sorted; listed once a
    process, as every game asks which scenario a position plays."""
    folder = resources.files("adjudicator.games.musket_and_pike").joinpath("scenarios")
    return tuple(
        sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".toml"))
    )


@functools.cache
def scenario(ident: str) -> Scenario:
    """A packaged scenario by id (cached; validated once per process)."""
    if ident not in scenario_names():
        raise KeyError(f"no Musket & Pike scenario {ident!r}")
    folder = resources.files("adjudicator.games.musket_and_pike").joinpath("scenarios")
    return load_scenario(ident, folder.joinpath(f"{ident}.toml").read_text(encoding="utf-8"))
