"""The Musket & Pike ruleset: every house number (command, movement, terrain, orders, fire, close
combat, morale, rally, rout) read from ``ruleset.toml`` into frozen values.

The file is validated when it loads; every problem is collected with a code (``missing-key``,
``bad-number``, ...) so a broken ruleset fails loudly, all at once, before any game uses it.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from adjudicator.games.musket_and_pike.rules.datafile import DataError, Problem, Reader
from adjudicator.games.musket_and_pike.rules.ruleset import (
    CONTACT_RULES,
    LAST_TURN_RULES,
    LAST_TURN_WORDS,
    CloseCombatRules,
    CombatRow,
    FireModifiers,
    FireRow,
    MoraleRules,
    OrderLimits,
    Ruleset,
    Terrain,
    Weapon,
)
from adjudicator.games.musket_and_pike.rules.state import ORDERS

# The ruleset's values (ruleset.py) and the reading kit (datafile.py) are importable from here too,
# where the rules modules have always found them.
__all__ = [
    "CONTACT_RULES",
    "LAST_TURN_RULES",
    "LAST_TURN_WORDS",
    "RULESET_CODES",
    "CloseCombatRules",
    "CombatRow",
    "DataError",
    "FireModifiers",
    "FireRow",
    "MoraleRules",
    "OrderLimits",
    "Problem",
    "Ruleset",
    "Terrain",
    "Weapon",
    "load_ruleset",
    "parse_ruleset",
    "ruleset",
]

# The closed set of ruleset problem codes.
RULESET_CODES = (
    "missing-key",
    "bad-number",
    "bad-choice",
    "unknown-kind",
    "unknown-order",
    "duplicate-letter",
    "table-order",
    "table-gap",
)


def _command(raw: Mapping[str, Any], read: Reader, die: int) -> dict[str, Any]:
    table = read.table(raw, "command", "")
    continuation = table.get("continuation_max")
    if (
        not isinstance(continuation, list)
        or len(continuation) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in continuation)
    ):
        read.problem("bad-number", "command.continuation_max must be two whole numbers")
        continuation = [0, 0]
    losses = table.get("leader_loss")
    if not isinstance(losses, list) or not losses:
        read.problem("missing-key", "command.leader_loss must list die faces")
        losses = []
    for face in losses:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= die:
            read.problem("bad-number", f"command.leader_loss: {face!r} is not a face of the die")
    change_table = read.table(table, "order_change", "command")
    change: dict[tuple[str, str], int] = {}
    for current in change_table:
        if current not in ORDERS:
            read.problem("unknown-order", f"command.order_change: {current!r}")
    for current in ORDERS:
        row = read.table(change_table, current, "command.order_change")
        for wanted in row:
            if wanted not in ORDERS:
                read.problem("unknown-order", f"command.order_change.{current}: {wanted!r}")
        for wanted in ORDERS:
            change[(current, wanted)] = read.number(
                row, wanted, f"command.order_change.{current}", low=0, high=die
            )
    replacement: list[tuple[int, int]] = []
    for number, row in enumerate(read.rows(table, "leader_replacement", "command")):
        where = f"command.leader_replacement[{number}]"
        replacement.append(
            (
                read.number(row, "max", where, low=1, high=die),
                read.number(row, "rating", where, -2, -2, 0),
            )
        )
    read.ascending([top for top, _ in replacement], "command.leader_replacement")
    if replacement and replacement[-1][0] != die:
        read.problem("table-gap", f"command.leader_replacement must end at max = {die}")
    return {
        "preempt_max": read.number(table, "preempt_max", "command", low=0, high=die),
        "preempt_ac_help": read.number(table, "preempt_ac_help", "command", high=0),
        "continuation_max": (int(continuation[0]), int(continuation[1])),
        "leader_loss": frozenset(int(face) for face in losses if isinstance(face, int)),
        "order_change": change,
        "leader_replacement": tuple(replacement),
    }


def _terrain(raw: Mapping[str, Any], read: Reader) -> tuple[dict[str, Terrain], dict[str, str]]:
    terrain: dict[str, Terrain] = {}
    letters: dict[str, str] = {}
    for name, entry in read.table(raw, "terrain", "").items():
        where = f"terrain.{name}"
        if not isinstance(entry, dict):
            read.problem("missing-key", f"{where} must be a table")
            continue
        letter = entry.get("letter")
        if not isinstance(letter, str) or len(letter) != 1 or letter.isspace():
            read.problem("bad-choice", f"{where}.letter must be one visible character")
            letter = "?"
        elif letter in letters:
            read.problem("duplicate-letter", f"{where}: letter {letter!r} is {letters[letter]}'s")
        letters[letter] = str(name)
        terrain[str(name)] = Terrain(
            name=str(name),
            letter=letter,
            cost=read.per_kind(entry, "cost", where, complete=False, low=1),
            cover=read.number(entry, "cover", where, default=0),
            defence=read.number(entry, "defence", where, default=0),
            blocks_sight=read.flag(entry, "blocks_sight", where),
            disorders=read.kinds(entry.get("disorders", []), f"{where}.disorders"),
        )
    if "road" not in terrain:
        read.problem("missing-key", "terrain.road is missing (the road bonus needs it)")
    return terrain, letters


def _orders(raw: Mapping[str, Any], read: Reader) -> dict[str, OrderLimits]:
    table = read.table(raw, "orders", "")
    for order in table:
        if order not in ORDERS:
            read.problem("unknown-order", f"orders.{order}")
    limits: dict[str, OrderLimits] = {}
    for order in ORDERS:
        entry = read.table(table, order, "orders")
        where = f"orders.{order}"
        contact = entry.get("into_contact", "always")
        if contact not in CONTACT_RULES:
            read.problem("bad-choice", f"{where}.into_contact must be one of {CONTACT_RULES}")
            contact = "always"
        limits[order] = OrderLimits(
            order=order,
            max_hexes=read.number(entry, "max_hexes", where, default=0, low=0),
            into_contact=str(contact),
            near_distance=read.number(entry, "near_distance", where, default=1, low=1),
            must_close=read.flag(entry, "must_close", where),
            close_combat=read.flag(entry, "close_combat", where),
            rally=read.flag(entry, "rally", where),
            rally_bonus=read.number(entry, "rally_bonus", where, default=0),
        )
    return limits


def _weapons(raw: Mapping[str, Any], read: Reader) -> tuple[dict[str, Weapon], FireModifiers]:
    table = read.table(raw, "fire", "")
    weapons: dict[str, Weapon] = {}
    for name in ("musket", "salvo", "pistol", "artillery"):
        entry = read.table(table, name, "fire")
        where = f"fire.{name}"
        mods = entry.get("range_mods")
        if not isinstance(mods, list) or not mods or not all(isinstance(m, int) for m in mods):
            read.problem("missing-key", f"{where}.range_mods must list one modifier per range")
            mods = [0]
        rows = [
            FireRow(
                min=read.number(row, "min", f"{where}.table[{n}]"),
                hits=read.number(row, "hits", f"{where}.table[{n}]", default=0, low=0),
                check=read.optional_int(row, "check", f"{where}.table[{n}]"),
            )
            for n, row in enumerate(read.rows(entry, "table", where))
        ]
        read.ascending([row.min for row in rows], f"{where}.table")
        weapons[name] = Weapon(
            name=name,
            kinds=read.kinds(entry.get("kinds"), f"{where}.kinds"),
            range_mods=tuple(int(m) for m in mods),
            use_strength=read.flag(entry, "use_strength", where),
            table=tuple(rows),
        )
    mods_table = read.table(table, "modifiers", "fire")
    strength = [
        (
            read.number(row, "min_sp", f"fire.modifiers.strength[{n}]", low=1),
            read.number(row, "mod", f"fire.modifiers.strength[{n}]"),
        )
        for n, row in enumerate(read.rows(mods_table, "strength", "fire.modifiers"))
    ]
    read.ascending([low for low, _ in strength], "fire.modifiers.strength")
    modifiers = FireModifiers(
        firer_disordered=read.number(mods_table, "firer_disordered", "fire.modifiers"),
        firer_shaken=read.number(mods_table, "firer_shaken", "fire.modifiers"),
        target_flank=read.number(mods_table, "target_flank", "fire.modifiers"),
        target_kind=read.per_kind(mods_table, "target_kind", "fire.modifiers", low=-9),
        strength=tuple(strength),
        units_block_sight=read.flag(mods_table, "units_block_sight", "fire.modifiers"),
    )
    return weapons, modifiers


def _ratios(raw: Mapping[str, Any], key: str, read: Reader) -> tuple[tuple[float, int], ...]:
    rows = raw.get(key, [])
    if not isinstance(rows, list):
        read.problem("missing-key", f"close_combat.{key} must be a list of rows")
        return ()
    out = tuple(
        (read.ratio(row, "ratio", f"close_combat.{key}"), read.number(row, "mod", "close_combat"))
        for row in rows
        if isinstance(row, dict)
    )
    read.ascending([ratio for ratio, _ in out], f"close_combat.{key}")
    return out


def _close_combat(raw: Mapping[str, Any], read: Reader) -> CloseCombatRules:
    table = read.table(raw, "close_combat", "")
    rows: list[CombatRow] = []
    for n, row in enumerate(read.rows(table, "table", "close_combat")):
        where = f"close_combat.table[{n}]"
        rows.append(
            CombatRow(
                min=read.number(row, "min", where),
                a_sp=read.number(row, "a_sp", where, default=0, low=0),
                d_sp=read.number(row, "d_sp", where, default=0, low=0),
                a_disorder=read.flag(row, "a_disorder", where),
                d_disorder=read.flag(row, "d_disorder", where),
                a_check=read.optional_int(row, "a_check", where),
                d_check=read.optional_int(row, "d_check", where),
                a_retreat=read.number(row, "a_retreat", where, default=0, low=0),
                d_retreat=read.number(row, "d_retreat", where, default=0, low=0),
            )
        )
    read.ascending([row.min for row in rows], "close_combat.table")
    vs_table = read.table(table, "kind_vs", "close_combat")
    kind_vs: dict[tuple[str, str], int] = {}
    attackers = read.kinds(list(vs_table), "close_combat.kind_vs")
    for attacker in attackers:
        for defender, mod in read.per_kind(
            vs_table, attacker, "close_combat.kind_vs", low=-9
        ).items():
            kind_vs[(attacker, defender)] = mod
    kinds = read.kinds(table.get("kinds"), "close_combat.kinds")
    for kind in sorted(kinds - attackers):
        read.problem("missing-key", f"close_combat.kind_vs.{kind} is missing")
    where = "close_combat"
    return CloseCombatRules(
        kinds=kinds,
        extra_attacker=read.number(table, "extra_attacker", where),
        attacker_disordered=read.number(table, "attacker_disordered", where),
        attacker_shaken=read.number(table, "attacker_shaken", where),
        defender_disordered=read.number(table, "defender_disordered", where),
        defender_shaken=read.number(table, "defender_shaken", where),
        flank=read.number(table, "flank", where),
        rear=read.number(table, "rear", where),
        odds=_ratios(table, "odds", read),
        odds_against=_ratios(table, "odds_against", read),
        table=tuple(rows),
        kind_vs=kind_vs,
    )


def parse_ruleset(raw: Mapping[str, Any]) -> Ruleset | list[Problem]:
    """The ruleset, or every problem with the file."""
    read = Reader()
    die = read.number(raw, "die", "", low=2)
    command = _command(raw, read, die)
    movement = read.table(raw, "movement", "")
    terrain, letters = _terrain(raw, read)
    orders = _orders(raw, read)
    weapons, fire = _weapons(raw, read)
    close_combat = _close_combat(raw, read)
    morale_table = read.table(raw, "morale", "")
    morale = MoraleRules(
        shaken=read.number(morale_table, "shaken", "morale"),
        disordered=read.number(morale_table, "disordered", "morale"),
        broken=read.number(morale_table, "broken", "morale"),
        rout_margin=read.number(morale_table, "rout_margin", "morale", low=1),
    )
    rout = read.table(raw, "rout", "")
    ruleset = Ruleset(
        die=die,
        allowance=read.per_kind(movement, "allowance", "movement", low=1),
        leader_allowance=read.number(movement, "leader_allowance", "movement", low=1),
        leader_cost=read.number(movement, "leader_cost", "movement", low=1),
        road_bonus=read.per_kind(movement, "road_bonus", "movement"),
        contact_stops=read.flag(movement, "contact_stops", "movement"),
        terrain=terrain,
        letters=letters,
        orders=orders,
        weapons=weapons,
        fire=fire,
        close_combat=close_combat,
        morale=morale,
        rally_mod=read.number(read.table(raw, "rally", ""), "mod", "rally", default=0),
        reform_target=read.number(read.table(raw, "reform", ""), "target", "reform", low=0),
        rout_hexes=read.per_kind(rout, "hexes", "rout"),
        rout_blocked_sp=read.number(rout, "blocked_sp", "rout", low=0),
        last_turn=_last_turn(raw, read),
        **command,
    )
    return read.problems or ruleset


def _last_turn(raw: Mapping[str, Any], read: Reader) -> str:
    rule = read.table(raw, "victory", "").get("last_turn")
    if rule not in LAST_TURN_RULES:
        read.problem("bad-choice", f"victory.last_turn must be one of {LAST_TURN_RULES}")
        return "draw"
    return str(rule)


def load_ruleset(text: str) -> Ruleset:
    """The ruleset from TOML text; raises DataError listing every problem."""
    parsed = parse_ruleset(tomllib.loads(text))
    if isinstance(parsed, list):
        raise DataError("ruleset.toml", parsed)
    return parsed


@functools.cache
def ruleset() -> Ruleset:
    """The packaged ruleset (cached; validated once per process)."""
    package = resources.files("adjudicator.games.musket_and_pike")
    return load_ruleset(package.joinpath("ruleset.toml").read_text(encoding="utf-8"))
