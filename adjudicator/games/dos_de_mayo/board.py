"""The 2 de Mayo board: areas, adjacency, gates, stacks, setups and turn numbers from board.toml.

The file is validated when it loads; every problem is collected with a code (``one-way``,
``unknown-area``, ...) so a broken board fails loudly, all at once, before any game uses it.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator.core.datafile import DataError, Problem, Reader
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, as_side

# The closed set of board problem codes.
BOARD_CODES = (
    "missing-key",
    "bad-number",
    "unknown-area",
    "self-loop",
    "duplicate-neighbour",
    "one-way",
    "disconnected",
    "gate-not-area",
    "main-street-not-area",
    "stack-gate-not-gate",
    "setup-unknown-area",
    "setup-total",
    "bad-choice",
)
HALF_STAYS = ("floor", "ceil")


class BoardError(DataError):
    """The board file is unusable; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("2 de Mayo board.toml", problems)


@dataclass(frozen=True)
class Setup:
    """One starting layout: units per area per side, stack sizes, and the set-aside pools."""

    name: str
    help: Mapping[str, str]  # by language, "" the English (core.datafile's texts)
    units: Mapping[Side, Mapping[str, int]]
    stacks: Mapping[str, int]
    set_aside: Mapping[Side, int]


@dataclass(frozen=True)
class Rules:
    turns: int
    draws_from_turn: int
    draw_lead_limit: int
    reinforcements_from_turn: int
    france_group_limit: int
    france_loss_limit: int
    initiative_on_tie: Side
    half_stays: str


@dataclass(frozen=True)
class Board:
    areas: tuple[str, ...]  # area ids in board order ("1".."21")
    index: Mapping[str, int]  # area id -> position in ``areas``
    names: Mapping[str, str]
    neighbours: Mapping[str, tuple[str, ...]]
    gates: tuple[str, ...]
    main_streets: frozenset[str]
    stacks: tuple[str, ...]  # off-map stack ids in board order
    stack_gate: Mapping[str, str]
    gate_stack: Mapping[str, str]
    setups: Mapping[str, Setup]
    rules: Rules
    totals: Mapping[Side, int]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def label(self, area: str) -> str:
        name = self.names.get(area)
        return f"{area} ({name})" if name else area


def _areas(raw: Mapping[str, Any], read: Reader) -> dict[str, tuple[str, ...]]:
    table = raw.get("areas")
    if not isinstance(table, dict) or not table:
        read.problem("missing-key", "[areas] is missing or empty")
        return {}
    links: dict[str, tuple[str, ...]] = {}
    for area, entry in table.items():
        neighbours = entry.get("neighbours") if isinstance(entry, dict) else None
        if not isinstance(neighbours, list) or not all(isinstance(n, str) for n in neighbours):
            read.problem("missing-key", f"area {area}: neighbours missing")
            neighbours = []
        links[area] = tuple(neighbours)
    for area, neighbours in links.items():
        seen: set[str] = set()
        for neighbour in neighbours:
            if neighbour == area:
                read.problem("self-loop", f"area {area} lists itself")
            elif neighbour not in links:
                read.problem("unknown-area", f"area {area} lists unknown area {neighbour}")
            elif area not in links[neighbour]:
                read.problem("one-way", f"{area} lists {neighbour} but {neighbour} not {area}")
            if neighbour in seen:
                read.problem("duplicate-neighbour", f"area {area} lists {neighbour} twice")
            seen.add(neighbour)
    return links


def _connected(links: Mapping[str, tuple[str, ...]], read: Reader) -> None:
    if not links:
        return
    start = next(iter(links))
    reached = {start}
    frontier = [start]
    while frontier:
        for neighbour in links[frontier.pop()]:
            if neighbour in links and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    cut = sorted(set(links) - reached, key=_order)
    if cut:
        read.problem("disconnected", f"areas {', '.join(cut)} are unreachable")


def _order(area: str) -> tuple[int, str]:
    return (int(area), "") if area.isdigit() else (10**6, area)


def _rules(raw: Mapping[str, Any], read: Reader) -> Rules:
    table = raw.get("rules", {})
    numbers = {
        key: read.count(table, key, "rules")
        for key in (
            "turns",
            "draws_from_turn",
            "draw_lead_limit",
            "reinforcements_from_turn",
            "france_group_limit",
            "france_loss_limit",
        )
    }
    tie = as_side(table.get("initiative_on_tie"))
    if tie is None:
        read.problem("bad-choice", "rules.initiative_on_tie must be a side")
        tie = "spain"
    half = table.get("half_stays")
    if half not in HALF_STAYS:
        read.problem("bad-choice", f"rules.half_stays must be one of {HALF_STAYS}")
        half = "floor"
    if numbers["turns"] < 1 or numbers["france_loss_limit"] < 1:
        read.problem("bad-number", "rules.turns and the loss limit must be >= 1")
    return Rules(initiative_on_tie=tie, half_stays=str(half), **numbers)


def _setup(
    name: str,
    entry: Mapping[str, Any],
    links: Mapping[str, tuple[str, ...]],
    stacks: Mapping[str, str],
    totals: Mapping[Side, int],
    read: Reader,
    languages: tuple[str, ...],
) -> Setup:
    where = f"setups.{name}"
    units: dict[Side, dict[str, int]] = {}
    for side in SIDES:
        placed = entry.get(side, {})
        units[side] = {}
        for area in placed:
            if area not in links:
                read.problem("setup-unknown-area", f"{where}.{side}: area {area}")
            units[side][area] = read.count(placed, area, f"{where}.{side}")
    stack_sizes = {}
    for stack in entry.get("stacks", {}):
        if stack not in stacks:
            read.problem("setup-unknown-area", f"{where}.stacks: {stack}")
        stack_sizes[stack] = read.count(entry["stacks"], stack, f"{where}.stacks")
    aside_table = entry.get("set_aside", {})
    aside = {side: read.count(aside_table, side, f"{where}.set_aside") for side in SIDES}
    for side in SIDES:
        count = sum(units[side].values()) + aside[side]
        if side == "france":
            count += sum(stack_sizes.values())
        if count != totals[side]:
            read.problem("setup-total", f"{where}: {side} places {count}, not {totals[side]}")
    helps = read.texts(entry, "help", where, languages)
    return Setup(name, helps, units, stack_sizes, aside)


def parse_board(raw: Mapping[str, Any]) -> Board | list[Problem]:
    """The board, or every problem with the file."""
    read = Reader()
    links = _areas(raw, read)
    _connected(links, read)
    table = raw.get("board", {})
    gates = [str(g) for g in table.get("gates", [])]
    mains = [str(m) for m in table.get("main_streets", [])]
    read.problems += [
        Problem("gate-not-area", f"gate {g} is not an area") for g in gates if g not in links
    ]
    read.problems += [
        Problem("main-street-not-area", f"main street {m} is not an area")
        for m in mains
        if m not in links
    ]
    if not gates:
        read.problem("missing-key", "board.gates is missing or empty")
    stack_gate: dict[str, str] = {}
    for stack, entry in dict(raw.get("stacks", {})).items():
        gate = str(entry.get("gate")) if isinstance(entry, dict) else ""
        if gate not in gates:
            read.problem("stack-gate-not-gate", f"stack {stack}: {gate!r}")
        stack_gate[stack] = gate
    totals_table = raw.get("units", {})
    totals: dict[Side, int] = {side: read.count(totals_table, side, "units") for side in SIDES}
    rules = _rules(raw, read)
    languages = read.languages(raw)
    setups = {
        name: _setup(name, entry, links, stack_gate, totals, read, languages)
        for name, entry in dict(raw.get("setups", {})).items()
    }
    if "seed" not in setups:
        read.problem("missing-key", "setups.seed (the default setup) is missing")
    if read.problems:
        return read.problems
    areas = tuple(sorted(links, key=_order))
    names = {area: str(raw["areas"][area].get("name", "")) for area in areas}
    return Board(
        areas=areas,
        index={area: number for number, area in enumerate(areas)},
        names=names,
        neighbours={area: tuple(sorted(links[area], key=_order)) for area in areas},
        gates=tuple(gates),
        main_streets=frozenset(mains),
        stacks=tuple(stack_gate),
        stack_gate=stack_gate,
        gate_stack={gate: stack for stack, gate in stack_gate.items()},
        setups=setups,
        rules=rules,
        totals=totals,
    )


def load_board(text: str) -> Board:
    """The board from TOML text; raises BoardError listing every problem."""
    parsed = parse_board(tomllib.loads(text))
    if isinstance(parsed, list):
        raise BoardError(parsed)
    return parsed


@functools.cache
def board() -> Board:
    """The packaged board (cached; validated once per process)."""
    package = resources.files("adjudicator.games.dos_de_mayo")
    return load_board(package.joinpath("board.toml").read_text(encoding="utf-8"))
