"""Musket & Pike data: the ruleset and the scenarios load, every broken file fails with coded
problems, the opening positions are right, and the hex geometry holds."""

from __future__ import annotations

import copy
import itertools
import tomllib
from importlib import resources
from typing import Any

import pytest
from builders.games import problem_codes

from adjudicator.games.musket_and_pike.rules import hexes
from adjudicator.games.musket_and_pike.rules.data import (
    LAST_TURN_RULES,
    RULESET_CODES,
    DataError,
    load_ruleset,
    parse_ruleset,
    ruleset,
)
from adjudicator.games.musket_and_pike.rules.scenario import (
    SCENARIO_CODES,
    parse_scenario,
    scenario,
    scenario_names,
)

PACKAGE = resources.files("adjudicator.games.musket_and_pike")


def raw_rules() -> dict[str, Any]:
    return tomllib.loads(PACKAGE.joinpath("ruleset.toml").read_text(encoding="utf-8"))


def raw_scenario(name: str = "skirmish") -> dict[str, Any]:
    text = PACKAGE.joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def rule_codes(raw: dict[str, Any]) -> set[str]:
    return problem_codes(parse_ruleset(raw), RULESET_CODES, "ruleset")


def scenario_codes(raw: dict[str, Any]) -> set[str]:
    return problem_codes(parse_scenario("broken", raw), SCENARIO_CODES, "scenario")


# --- ruleset ------------------------------------------------------------------------------------


def test_the_house_numbers() -> None:
    rules = ruleset()
    assert rules.die == 10
    assert rules.preempt_max == 4 and rules.preempt_ac_help == -1
    assert rules.continuation_max == (5, 3)
    assert rules.order_change[("make_ready", "charge")] == 6
    assert len(rules.order_change) == 16
    assert rules.leader_loss == frozenset({10})
    assert [rules.replacement_rating(roll) for roll in (1, 2, 3, 8, 10)] == [-1, -1, 0, 0, 0]
    assert dict(rules.allowance) == {"HI": 4, "LI": 6, "CAV": 8, "ART": 2}
    assert rules.leader_allowance == 8
    assert set(rules.weapons) == {"musket", "salvo", "pistol", "artillery"}
    assert rules.weapons["artillery"].range == 6 and rules.weapons["salvo"].kinds == {"HI"}
    assert not rules.terrain["river"].passable("LI")
    assert rules.orders["receive_charge"].max_hexes == 1
    assert rules.orders["rally"].rally_bonus == 2


def test_missing_key_and_bad_number() -> None:
    raw = raw_rules()
    del raw["command"]["preempt_max"]
    raw["movement"]["leader_allowance"] = "eight"
    assert {"missing-key", "bad-number"} <= rule_codes(raw)


def test_bad_choice_and_unknown_order() -> None:
    raw = raw_rules()
    raw["orders"]["charge"]["into_contact"] = "sometimes"
    raw["command"]["order_change"]["attack"] = {"charge": 1}
    assert {"bad-choice", "unknown-order"} <= rule_codes(raw)


def test_the_last_turn_rule_is_a_known_choice() -> None:
    assert ruleset().last_turn == "fewer_losses"
    raw = raw_rules()
    raw["victory"]["last_turn"] = "coin"
    parsed = parse_ruleset(raw)
    assert isinstance(parsed, list)
    assert [p.code for p in parsed if "victory.last_turn" in p.message] == ["bad-choice"]


def test_unknown_kind() -> None:
    raw = raw_rules()
    raw["movement"]["allowance"]["PIKE"] = 3
    assert "unknown-kind" in rule_codes(raw)


def test_duplicate_letter() -> None:
    raw = raw_rules()
    raw["terrain"]["woods"]["letter"] = "."
    assert "duplicate-letter" in rule_codes(raw)


def test_tables_must_ascend_and_cover_the_die() -> None:
    raw = raw_rules()
    raw["fire"]["musket"]["table"].reverse()
    raw["command"]["leader_replacement"][-1]["max"] = 9
    assert {"table-order", "table-gap"} <= rule_codes(raw)


def test_load_ruleset_raises_with_every_problem() -> None:
    with pytest.raises(DataError) as caught:
        load_ruleset("die = 10\n")
    assert len(caught.value.problems) > 5


# --- scenarios ----------------------------------------------------------------------------------


def test_packaged_scenarios_ship() -> None:
    assert {"braddock-down", "skirmish"} <= set(scenario_names())
    assert PACKAGE.joinpath("scenarios", "braddock-down.toml").is_file()


def test_braddock_down() -> None:
    battle = scenario("braddock-down")
    opening = battle.opening
    assert (battle.width, battle.height) == (20, 14) and opening.last_turn == 10
    assert opening.sides == ("royalist", "parliament")
    assert "Hopton" in battle.note
    for side in opening.sides:
        units = [u for u in opening.units if u.side == side]
        assert 12 <= len(units) <= 16
        kinds = {u.kind for u in units}
        assert kinds == {"HI", "LI", "CAV", "ART"}
        wings = [w for w in opening.wings if w.side == side]
        assert len(wings) == 3
        assert all(opening.commander(w.id) is not None for w in wings)
        assert opening.army_commander(side) is not None
        assert opening.break_level(side) > 0 and opening.lost(side) == 0
    assert len({u.hex for u in opening.units}) == len(opening.units)
    assert opening.phase == "setup" and opening.turn == 1


def test_skirmish_is_tiny() -> None:
    battle = scenario("skirmish")
    assert (battle.width, battle.height) == (8, 6) and battle.opening.last_turn == 3
    assert len(battle.opening.wings) == 4
    assert battle.letter((6, 3)) == "~"


def test_unknown_scenario() -> None:
    with pytest.raises(KeyError):
        scenario("hastings")


def test_scenario_map_problems() -> None:
    raw = raw_scenario()
    raw["scenario"]["map"][0] = "..X....."
    raw["scenario"]["map"][1] = "..."
    assert {"unknown-terrain", "map-size"} <= scenario_codes(raw)


def test_scenario_numbers_and_keys() -> None:
    raw = raw_scenario()
    raw["units"][0]["sp"] = 40
    del raw["units"][1]["morale"]
    raw["leaders"][0]["role"] = "KING"
    assert {"bad-number", "missing-key", "bad-choice"} <= scenario_codes(raw)


def test_scenario_ids_sides_wings_kinds_orders() -> None:
    raw = raw_scenario()
    raw["units"][1]["id"] = raw["units"][0]["id"]
    raw["wings"][0]["side"] = "scots"
    raw["units"][2]["wing"] = "Z"
    raw["units"][3]["kind"] = "PIKE"
    raw["wings"][1]["order"] = "attack"
    assert {
        "duplicate-id",
        "unknown-side",
        "unknown-wing",
        "unknown-kind",
        "unknown-order",
    } <= scenario_codes(raw)


def test_scenario_placement() -> None:
    raw = raw_scenario()
    raw["units"][0]["hex"] = [9, 9]
    raw["units"][1]["hex"] = raw["units"][2]["hex"]
    raw["units"][3]["hex"] = [6, 5]  # the stream
    raw["units"][4]["hex"] = [5, 2]  # royalists set up in rows 4-5
    assert {"off-map", "stacked", "impassable", "outside-deployment"} <= scenario_codes(raw)


def test_scenario_commanders() -> None:
    raw = raw_scenario()
    extra = copy.deepcopy(raw["leaders"][1])
    extra["id"] = "R-WC-A2"
    raw["leaders"].append(extra)
    raw["leaders"] = [x for x in raw["leaders"] if x["id"] != "P-AC"]
    assert {"wing-commander", "army-commander"} <= scenario_codes(raw)


# --- hexes --------------------------------------------------------------------------------------


def test_neighbours_in_odd_q_columns() -> None:
    # An even column's diagonal neighbours are a row up; an odd column's a row down.
    assert hexes.neighbours((2, 2)) == ((2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1))
    assert hexes.neighbours((3, 2)) == ((3, 1), (4, 2), (4, 3), (3, 3), (2, 3), (2, 2))


def test_distance_and_directions() -> None:
    origin = (4, 4)
    for direction, near in enumerate(hexes.neighbours(origin)):
        assert hexes.distance(origin, near) == 1
        assert hexes.direction_to(origin, near) == direction
        assert hexes.direction_to(near, origin) == (direction + 3) % 6
        assert hexes.facing_towards(origin, near) == direction
    assert hexes.distance((0, 0), (5, 0)) == 5
    assert hexes.distance((0, 0), (0, 5)) == 5
    assert hexes.distance((1, 1), (4, 7)) == hexes.distance((4, 7), (1, 1))
    assert hexes.direction_to(origin, (9, 9)) is None


def test_front_flank_rear() -> None:
    where, facing = (4, 4), 0
    front = hexes.front_hexes(where, facing)
    assert all(hexes.aspect(where, facing, h) == "front" for h in front)
    assert all(hexes.aspect(where, facing, h) == "flank" for h in hexes.flank_hexes(where, facing))
    assert hexes.aspect(where, facing, hexes.rear_hex(where, facing)) == "rear"
    assert hexes.aspect(where, facing, (4, 0)) == "front"
    assert hexes.aspect(where, facing, (4, 9)) == "rear"


def test_line_of_sight() -> None:
    line = hexes.line((0, 0), (0, 4))
    assert line == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert hexes.line_of_sight((0, 0), (0, 4), lambda where: where == (0, 2)) is False
    assert hexes.line_of_sight((0, 0), (0, 4), lambda where: where == (0, 4)) is True
    assert hexes.line_of_sight((0, 0), (0, 1), lambda where: True) is True
    for a, b in (((1, 1), (6, 4)), ((7, 0), (0, 5))):
        path = hexes.line(a, b)
        assert len(path) == hexes.distance(a, b) + 1
        assert all(hexes.distance(x, y) == 1 for x, y in itertools.pairwise(path))


# --- the tables on the help page ------------------------------------------------------------------


def test_the_help_page_prints_the_tables_the_rules_use() -> None:
    from adjudicator.games.musket_and_pike.words.tables import tables_text
    from adjudicator.games.registry import get

    rules = ruleset()
    text = tables_text(rules)
    assert max(len(line) for line in text.splitlines()) <= 78
    assert f"pre-emption succeeds on <= {rules.preempt_max}" in text
    for terrain in rules.terrain.values():
        assert f"{terrain.name} ({terrain.letter}):" in text
    for weapon in rules.weapons.values():
        assert f"  {weapon.name} (" in text
    assert "  Make Ready                   6             10" in text  # a row of order change
    game = get("musketpike")
    assert game is not None and text in game.help_text()
    # Typed-in numbers show at once: the page is written from the data, not kept beside it.
    raw = raw_rules()
    raw["command"]["preempt_max"] = 3
    raw["terrain"]["woods"]["cover"] = 4
    changed = parse_ruleset(raw)
    assert not isinstance(changed, list), changed
    other = tables_text(changed)
    assert "pre-emption succeeds on <= 3" in other
    assert "woods (W): 2/1/3/-, cover 4" in other


def test_the_scenario_names_its_rule_after_the_last_turn() -> None:
    raw = raw_scenario()
    raw["victory"] = {"last_turn": "draw"}
    drawn = parse_scenario("skirmish", raw)
    assert not isinstance(drawn, list) and drawn.last_turn_rule == "draw"
    # A scenario that names none plays the ruleset's; an unknown one is refused.
    del raw["victory"]
    plain = parse_scenario("skirmish", raw)
    assert not isinstance(plain, list) and plain.last_turn_rule == ruleset().last_turn
    raw["victory"] = {"last_turn": "sudden_death"}
    assert "bad-choice" in scenario_codes(raw)
    for name in ("braddock-down", "skirmish"):
        assert scenario(name).last_turn_rule in LAST_TURN_RULES
