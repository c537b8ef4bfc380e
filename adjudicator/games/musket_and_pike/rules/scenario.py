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

from adjudicator.games.musket_and_pike.rules.data import DataError, Problem, Ruleset, ruleset
from adjudicator.games.musket_and_pike.rules.hexes import Hex, on_map
from adjudicator.games.musket_and_pike.rules.scenario_readers import (
    Sheet,
    SideInfo,
    check_commanders,
    read_end_rule,
    read_heading,
    read_leaders,
    read_map,
    read_sides,
    read_units,
    read_wings,
    read_words,
)
from adjudicator.games.musket_and_pike.rules.state import Position

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
class Scenario:
    id: str
    title: str
    note: str
    width: int
    height: int
    rows: tuple[str, ...]  # terrain letters, one string per map row, north first
    sides: tuple[SideInfo, ...]
    names: Mapping[str, str]  # wing, unit and leader id -> display name
    # Its title, sides' titles and wings' names in other languages: lang -> English -> text.
    words: Mapping[str, Mapping[str, str]]
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


def parse_scenario(
    ident: str, raw: Mapping[str, Any], rules: Ruleset | None = None
) -> Scenario | list[Problem]:
    """The scenario, or every problem with its file. The file is read in numbered steps, each a
    reader in scenario_readers.py that records its problems and goes on."""
    head = raw.get("scenario")
    if not isinstance(head, dict):
        return [Problem("missing-key", "[scenario] is missing")]
    sheet = Sheet(raw, head, rules or ruleset())
    # 1. The heading: the battle's title and its number of turns.
    read_heading(sheet)
    # 2. The rule after the last turn: the scenario's, else the ruleset's.
    read_end_rule(sheet)
    # 3. The map: its size and terrain letters.
    read_map(sheet)
    # 4. The two sides, each with its break level and set-up rows.
    read_sides(sheet)
    # 5. The wings, each of a side, with its opening order.
    read_wings(sheet)
    # 6. The units, each of a wing, in its side's set-up rows, one to a hex.
    read_units(sheet)
    # 7. The leaders, a wing's or an army's, in their side's set-up rows.
    read_leaders(sheet)
    # 8. One commander per wing; one army commander and a wing at least per side.
    check_commanders(sheet)
    # 9. The scenario's words in other languages, each a text it uses.
    read_words(sheet)
    if sheet.problems:
        return sheet.problems
    return _scenario(ident, sheet)


def _scenario(ident: str, sheet: Sheet) -> Scenario:
    """The scenario a sheet read without problems gives, with its opening position."""
    sides = sheet.sides
    opening = Position(
        scenario=ident,
        turn=1,
        last_turn=sheet.turns,
        phase="setup",
        units=tuple(sheet.units),
        leaders=tuple(sheet.leaders),
        wings=tuple(sheet.wings),
        lost_sp=tuple((side.id, 0) for side in sides),
        break_levels=tuple((side.id, side.break_level) for side in sides),
        sides=tuple(side.id for side in sides),
        step="setup_orders",
    )
    return Scenario(
        id=ident,
        title=sheet.title,
        note=str(sheet.head.get("note", "")).strip(),
        width=sheet.width,
        height=sheet.height,
        rows=sheet.rows,
        sides=tuple(sides),
        names=sheet.names,
        words=sheet.words,
        opening=opening,
        last_turn_rule=sheet.last_turn_rule,
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
