"""Musket & Pike actions on the tiny test scenario: movement costs and each order's limits, fire,
salvo, guns, close combat and rout against the tables, and orders refused with their reasons."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.core.chance import Chance, ChanceEvent, verify
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules.actions import resolve_activation
from adjudicator.games.musket_and_pike.rules.combat import (
    close_combat,
    close_combat_modifiers,
    fire_row,
)
from adjudicator.games.musket_and_pike.rules.data import ruleset
from adjudicator.games.musket_and_pike.rules.field import Event, field_for, unit
from adjudicator.games.musket_and_pike.rules.hexes import Hex, distance
from adjudicator.games.musket_and_pike.rules.movement import allowance, legal_moves, path_cost
from adjudicator.games.musket_and_pike.rules.retreat import retreat
from adjudicator.games.musket_and_pike.rules.rout import resolve_rout
from adjudicator.games.musket_and_pike.rules.scenario import scenario
from adjudicator.games.musket_and_pike.rules.state import Position, Unit

SEED = b"musket-and-pike-test-seed-000000"

# The skirmish map (row 0 north):      Royalists: R-A (charge) R-CAV-1 1,4  R-HI-1 2,4  R-ART-1 3,5
#   0 ...WW...                                    R-B (make ready) R-HI-2 4,4  R-LI-1 5,4
#   1 ........                         Parliament: P-A (receive charge) P-CAV-1 1,1  P-HI-1 2,1
#   2 .R..H...                                     P-LI-1 3,1;  P-B (rally) P-HI-2 4,1  P-ART-1 5,0
#   3 ......~.
#   4 ..E...F=
#   5 ..E...~=


class Loaded(Chance):
    """Dice that show the faces a test asks for, recorded like real ones."""

    def __init__(self, *faces: int) -> None:
        super().__init__(SEED, "test", 1)
        self.faces = list(faces)

    def roll(self, label: str, sides: int = 6) -> int:
        face = self.faces.pop(0)
        self.events.append(ChanceEvent(self.turn, label, 0, "die", sides, (face,)))
        return face


def opening() -> Position:
    return replace(scenario("skirmish").opening, phase="activation")


def piece(position: Position, unit_id: str) -> Unit:
    found = unit(position, unit_id)
    assert found is not None
    return found


def place(position: Position, unit_id: str, where: Hex | None, **changes: Any) -> Position:
    return position.with_unit(replace(piece(position, unit_id), hex=where, **changes))


def act(
    position: Position, wing: str, orders: list[dict[str, Any]], chance: Chance | None = None
) -> tuple[Position, list[Event]]:
    done = resolve_activation(position, wing, orders, chance or Chance(SEED, "test", 1))
    assert not isinstance(done, Refusal), done
    return done


def refused(position: Position, wing: str, orders: list[dict[str, Any]]) -> str:
    done = resolve_activation(position, wing, orders, Chance(SEED, "test", 1))
    assert isinstance(done, Refusal), "the orders were accepted"
    return done.reason


def rolls(events: list[Event]) -> list[Event]:
    return [event for event in events if event["type"] == "roll"]


# --- movement -----------------------------------------------------------------------------------


def test_terrain_costs_and_allowances() -> None:
    position = opening()
    field = field_for(position)
    assert path_cost(position, field, piece(position, "R-HI-2"), [(4, 3), (4, 2)]) == 3  # hill 2
    assert path_cost(position, field, piece(position, "R-LI-1"), [(6, 4)]) == 3  # ford
    river = path_cost(position, field, piece(position, "R-LI-1"), [(6, 5)])
    assert isinstance(river, Refusal) and "may not enter river" in river.reason
    guns = path_cost(position, field, piece(position, "R-ART-1"), [(3, 4), (3, 3), (3, 2)])
    assert isinstance(guns, Refusal) and "more than 2" in guns.reason
    assert "occupied" in str(path_cost(position, field, piece(position, "R-HI-1"), [(1, 4)]))
    assert "not next to" in str(path_cost(position, field, piece(position, "R-HI-1"), [(2, 2)]))
    on_road = place(position, "R-LI-1", (7, 5))
    runner = piece(on_road, "R-LI-1")
    assert allowance(field, runner, [(7, 4)]) == 8
    assert allowance(field, runner, [(6, 4)]) == 6


def test_contact_stops_a_move() -> None:
    position = opening()
    field = field_for(position)
    stopped = path_cost(position, field, piece(position, "R-CAV-1"), [(1, 3), (1, 2), (0, 2)])
    assert isinstance(stopped, Refusal) and "must stop at [1, 2]" in stopped.reason
    assert path_cost(position, field, piece(position, "R-CAV-1"), [(1, 3), (1, 2)]) == 3


def test_entering_woods_or_rough_disorders_cavalry() -> None:
    after, events = act(
        opening(), "R-A", [{"unit": "R-CAV-1", "action": "move", "path": [[1, 3], [1, 2]]}]
    )
    assert piece(after, "R-CAV-1").formation == "disordered"
    assert any(e["type"] == "formation" for e in events)


def test_charge_must_close() -> None:
    position = opening()
    sideways = refused(position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": [[3, 4]]}])
    assert "R-HI-1" in sideways and "nearer an enemy" in sideways
    after, _ = act(position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": [[2, 3]]}])
    assert piece(after, "R-HI-1").hex == (2, 3)
    stand = refused(position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": []}])
    assert "nearer" in stand


def test_charge_in_contact_may_only_turn() -> None:
    position = place(opening(), "R-HI-1", (2, 2))
    moved = refused(position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": [[3, 2]]}])
    assert "may only turn" in moved
    after, _ = act(position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": [], "facing": 1}])
    assert piece(after, "R-HI-1").facing == 1 and piece(after, "R-HI-1").hex == (2, 2)


def test_receive_charge_one_hex_never_into_contact() -> None:
    position = opening()
    far = refused(position, "P-A", [{"unit": "P-LI-1", "action": "move", "path": [[3, 2], [3, 3]]}])
    assert "at most 1" in far
    near = place(position, "R-HI-1", (3, 3))
    contact = refused(near, "P-A", [{"unit": "P-LI-1", "action": "move", "path": [[3, 2]]}])
    assert "no move may end in contact" in contact
    field = field_for(near)
    for end in legal_moves(near, field, piece(near, "P-LI-1"), "receive_charge"):
        assert distance(end, (3, 1)) <= 1 and distance(end, (3, 3)) > 1


def test_make_ready_closes_only_from_near() -> None:
    position = place(opening(), "P-LI-1", (5, 1))
    position = place(position, "P-HI-2", (4, 0))
    # R-LI-1 at 5,4 is 3 hexes from P-LI-1 at 5,1: it may not end next to it.
    far = refused(position, "R-B", [{"unit": "R-LI-1", "action": "move", "path": [[5, 3], [5, 2]]}])
    assert "more than 2 hexes" in far
    near = place(position, "R-LI-1", (5, 3))
    after, _ = act(near, "R-B", [{"unit": "R-LI-1", "action": "move", "path": [[5, 2]]}])
    assert piece(after, "R-LI-1").hex == (5, 2)


def test_rally_order_forbids_contact_and_charge_forbids_rally() -> None:
    position = place(opening(), "R-HI-2", (4, 3))
    contact = refused(position, "P-B", [{"unit": "P-HI-2", "action": "move", "path": [[4, 2]]}])
    assert "no move may end in contact" in contact
    rally = refused(opening(), "R-A", [{"unit": "R-HI-1", "action": "rally"}])
    assert "no rally under charge" in rally


# --- fire ---------------------------------------------------------------------------------------


def test_musket_fire_looks_up_the_table() -> None:
    position = place(opening(), "P-LI-1", (4, 2))
    after, events = act(
        position, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-LI-1"}], Loaded(10)
    )
    (rolled,) = rolls(events)
    # range 2: +0; 6 SP: +0; light infantry target: -1; front; hill gives no cover.
    assert rolled["die"] == 10 and rolled["total"] == 9
    assert rolled["modifiers"] == [["target kind", -1]]
    fire = next(e for e in events if e["type"] == "fire")
    assert fire["hits"] == 1 and fire["check"] is None
    assert piece(after, "P-LI-1").sp == 2 and piece(after, "P-LI-1").casualties == 1
    assert after.lost("parliament") == 1 and after.lost("royalist") == 0
    missed, events = act(
        position, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-LI-1"}], Loaded(3)
    )
    assert (
        piece(missed, "P-LI-1").sp == 3
        and next(e for e in events if e["type"] == "fire")["hits"] == 0
    )


def test_fire_with_a_fixed_seed_is_verifiable() -> None:
    position = place(opening(), "P-LI-1", (4, 2))
    chance = Chance(SEED, "game-1", 1)
    after, events = act(
        position, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-LI-1"}], chance
    )
    (rolled,) = rolls(events)
    assert chance.events[0].label == rolled["purpose"] == "fire musket R-HI-2>P-LI-1"
    assert chance.events[0].result == (rolled["die"],)
    assert verify(SEED, "game-1", chance.events) == []
    row = fire_row(ruleset().weapons["musket"], rolled["die"] - 1)
    assert piece(after, "P-LI-1").sp == 3 - (row.hits if row else 0)


def test_fire_needs_range_front_and_sight() -> None:
    position = opening()
    far = refused(position, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-HI-2"}])
    assert "beyond range 2" in far
    behind = place(position, "P-LI-1", (4, 5))
    rear = refused(behind, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-LI-1"}])
    assert "not in its front" in rear
    screened = place(place(position, "P-LI-1", (4, 2)), "R-LI-1", (4, 3))
    blocked = refused(screened, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-LI-1"}])
    assert "no line of sight" in blocked


def test_a_fire_refused_names_what_blocks_the_sight_and_the_targets_open() -> None:
    # R-ART-1 (3.5) aims at P-LI-1 (3.1); R-HI-1 of its own wing moved to 3.3 first, on the line.
    orders = [
        {"unit": "R-HI-1", "action": "move", "path": [[3, 3]]},
        {"unit": "R-ART-1", "action": "fire", "target": "P-LI-1"},
    ]
    blocked = refused(opening(), "R-A", orders)
    assert "R-ART-1: no line of sight to P-LI-1, blocked by R-HI-1 at 3.3" in blocked, blocked
    assert blocked.endswith("; it may fire at P-CAV-1"), blocked
    # Out of range, the refusal names the target it may fire at instead.
    near = place(opening(), "P-LI-1", (3, 3))
    far = refused(near, "R-B", [{"unit": "R-HI-2", "action": "fire", "target": "P-HI-2"}])
    assert "beyond range 2; it may fire at P-LI-1" in far, far


def test_salvo_marks_and_routs() -> None:
    position = place(opening(), "P-HI-2", (4, 3))
    after, events = act(
        position, "R-B", [{"unit": "R-HI-2", "action": "salvo", "target": "P-HI-2"}], Loaded(7, 9)
    )
    fired, check = rolls(events)
    # range 1: +2; pike target: +1 -> 10: 2 hits and a check at -1 (target 6 - 1 = 5, rolled 9).
    assert fired["total"] == 10 and check["target"] == 5
    target = piece(after, "P-HI-2")
    assert target.sp == 4 and target.morale_state == "routed" and target.formation == "broken"
    assert piece(after, "R-HI-2").salvo is True
    again = refused(after, "R-B", [{"unit": "R-HI-2", "action": "salvo", "target": "P-HI-2"}])
    assert "Salvo marker" in again
    light = place(position, "R-LI-1", (3, 3), facing=0)
    assert "no salvo fire" in refused(
        light, "R-B", [{"unit": "R-LI-1", "action": "salvo", "target": "P-HI-2"}]
    )


def test_guns_fire_once_a_turn() -> None:
    position = place(opening(), "P-LI-1", (3, 2))
    after, events = act(
        position, "R-A", [{"unit": "R-ART-1", "action": "fire", "target": "P-LI-1"}], Loaded(9)
    )
    (rolled,) = rolls(events)
    assert rolled["modifiers"] == [["range", 1], ["target kind", -1]]  # range 3
    assert piece(after, "R-ART-1").fired is True
    again = refused(after, "R-A", [{"unit": "R-ART-1", "action": "fire", "target": "P-LI-1"}])
    assert "fired this turn" in again


def test_cavalry_moves_then_fires_pistols() -> None:
    position = place(opening(), "P-LI-1", (1, 2))
    after, events = act(
        position,
        "R-A",
        [{"unit": "R-CAV-1", "action": "pistol", "path": [[1, 3]], "target": "P-LI-1"}],
        Loaded(10, 1),
    )
    assert piece(after, "R-CAV-1").hex == (1, 3)
    assert [e["type"] for e in events][:3] == ["move", "roll", "fire"]
    # 10, shot target -1, rough cover -1 = 8: no hits, a morale check (passed on a 1).
    assert rolls(events)[0]["total"] == 8 and piece(after, "P-LI-1").sp == 3


# --- close combat -------------------------------------------------------------------------------


def test_close_combat_table() -> None:
    position = place(opening(), "P-LI-1", (1, 3))
    after, events = act(
        position, "R-A", [{"unit": "R-CAV-1", "action": "charge", "target": "P-LI-1"}], Loaded(6, 2)
    )
    combat, check = rolls(events)
    # Horse against shot: +2 -> 8: defender loses 1, is disordered, checks at 0, falls back 1.
    assert combat["modifiers"] == [["kinds", 2]] and combat["total"] == 8
    assert check["target"] == 4  # morale 5, disordered -1; rolled 2: holds
    defender = piece(after, "P-LI-1")
    assert defender.sp == 2 and defender.formation == "disordered"
    assert defender.morale_state == "good" and defender.hex != (1, 3)
    assert distance(defender.hex or (0, 0), (1, 4)) == 2
    assert after.lost("parliament") == 1


def test_leader_lost_on_a_natural_ten() -> None:
    position = place(opening(), "P-LI-1", (1, 3))
    chief = next(x for x in position.leaders if x.id == "P-WC-A")
    position = position.with_leader(replace(chief, hex=(1, 3)))
    after, events = act(
        position,
        "R-A",
        [{"unit": "R-CAV-1", "action": "charge", "target": "P-LI-1"}],
        Loaded(10, 1),
    )
    lost = next(x for x in after.leaders if x.id == "P-WC-A")
    assert lost.hex is None and lost.lost_this_turn
    assert any(e["type"] == "leader_lost" and e["leader"] == "P-WC-A" for e in events)
    assert piece(after, "P-LI-1").sp == 1  # total 12: two SP


def test_flank_attack_and_extra_attackers() -> None:
    position = place(opening(), "P-LI-1", (2, 3), facing=0)  # facing north, away from R-HI-1
    field = field_for(position)
    attackers = [piece(position, "R-HI-1"), piece(position, "R-CAV-1")]
    mods = dict(close_combat_modifiers(position, field, attackers, piece(position, "P-LI-1")))
    assert mods["flank or rear"] == 3 and mods["extra attackers"] == 1 and mods["odds"] == 2


def test_no_close_combat_under_receive_charge() -> None:
    position = place(opening(), "R-HI-1", (2, 2))
    refusal = refused(position, "P-A", [{"unit": "P-HI-1", "action": "charge", "target": "R-HI-1"}])
    assert "no close combat under receive charge" in refusal


# --- rally, reform, orders ------------------------------------------------------------------------


def test_rally_and_reform_rolls() -> None:
    position = place(opening(), "P-HI-2", (4, 1), morale_state="shaken", formation="disordered")
    after, events = act(position, "P-B", [{"unit": "P-HI-2", "action": "rally"}], Loaded(8))
    assert rolls(events)[0]["target"] == 8  # morale 6 + Rally order 2
    assert piece(after, "P-HI-2").morale_state == "good"
    after, events = act(position, "P-B", [{"unit": "P-HI-2", "action": "reform"}], Loaded(10))
    assert rolls(events)[0]["target"] == 9 and piece(after, "P-HI-2").formation == "disordered"


def test_orders_are_refused_with_reasons() -> None:
    position = opening()
    problems = refused(
        position,
        "R-A",
        [
            {"unit": "R-HI-2", "action": "move", "path": [[4, 3]]},
            {"unit": "R-HI-1", "action": "dance"},
            {"unit": "R-CAV-1", "action": "fire"},
            {"unit": "R-CAV-1", "action": "move", "path": "north"},
        ],
    )
    assert "R-HI-2 is not a unit of wing R-A" in problems
    assert "unknown action 'dance'" in problems
    assert "R-CAV-1: fire needs a target" in problems
    assert "R-CAV-1 has more than one action" in problems
    assert "path must be a list" in problems
    assert refused(position, "Z", []) == "there is no wing Z"


def test_routed_units_only_rally_and_an_empty_activation_holds() -> None:
    position = place(opening(), "R-HI-1", (2, 4), morale_state="routed", formation="broken")
    assert "may only rally" in refused(
        position, "R-A", [{"unit": "R-HI-1", "action": "move", "path": [[2, 3]]}]
    )
    same, events = act(position, "R-A", [])
    assert same == position and events == []


def test_leaders_move() -> None:
    position = opening()
    after, events = act(position, "R-A", [{"leader": "R-WC-A", "path": [[2, 3], [2, 2]]}])
    assert next(x for x in after.leaders if x.id == "R-WC-A").hex == (2, 2)
    assert events[0]["type"] == "leader_move"
    assert "not a leader of wing R-A" in refused(position, "R-A", [{"leader": "P-AC", "path": []}])
    enemy = refused(position, "R-A", [{"leader": "R-WC-A", "path": [[2, 3], [2, 2], [2, 1]]}])
    assert "holds the enemy P-HI-1" in enemy


# --- rout ---------------------------------------------------------------------------------------


def test_rout_off_the_map_eliminates() -> None:
    position = place(opening(), "P-LI-1", (3, 0), morale_state="routed", formation="broken")
    position = place(position, "R-HI-2", (3, 2))
    after, events = resolve_rout(position, Chance(SEED, "test", 1))
    gone = piece(after, "P-LI-1")
    assert gone.hex is None and gone.sp == 0
    assert after.lost("parliament") == 3
    assert any(e["type"] == "rout" and e.get("off_map") for e in events)


def test_rout_runs_away_and_guns_are_abandoned() -> None:
    position = place(opening(), "R-HI-1", (2, 3), morale_state="routed", formation="broken")
    position = place(position, "R-ART-1", (3, 5), morale_state="routed")
    after, events = resolve_rout(position, Chance(SEED, "test", 1))
    # Straight south, away from P-HI-1, and off the royalists' own edge after two hexes.
    assert events[0] == {
        "type": "rout",
        "unit": "R-HI-1",
        "path": [[2, 4], [2, 5], [2, 6]],
        "off_map": True,
    }
    assert events[1]["at"] == [2, 5]
    assert piece(after, "R-HI-1").hex is None and piece(after, "R-ART-1").hex is None
    assert after.lost("royalist") == 8 + 1
    assert events[2] == {"type": "rout", "unit": "R-ART-1", "path": [], "abandoned": True}


def boxed_in() -> Position:
    """P-HI-1 routed at 3.2 with every neighbour taken: it has nowhere to run."""
    position = place(opening(), "P-HI-1", (3, 2), morale_state="routed", formation="broken")
    ring = {
        "P-CAV-1": (3, 1),
        "P-LI-1": (4, 2),
        "P-HI-2": (4, 3),
        "R-HI-1": (3, 3),
        "R-CAV-1": (2, 3),
        "R-HI-2": (2, 2),
    }
    for unit_id, where in ring.items():
        position = place(position, unit_id, where)
    return position


def test_a_blocked_router_loses_sp() -> None:
    position = boxed_in()
    after, events = resolve_rout(position, Chance(SEED, "test", 1))
    trapped = piece(after, "P-HI-1")
    assert trapped.hex == (3, 2) and trapped.sp == 6 and after.lost("parliament") == 1
    assert events[0] == {"type": "rout", "unit": "P-HI-1", "path": []}


# --- standing retreat preference ----------------------------------------------------------------


def alone(position: Position, keep: dict[str, Hex], **changes: Any) -> Position:
    """Only the units in ``keep``, where given; every other unit off the map."""
    for piece_ in position.units:
        where = keep.get(piece_.id)
        extra = changes if piece_.id == "R-HI-1" else {}
        position = position.with_unit(replace(piece_, hex=where, **extra))
    return position


def preferring(position: Position, value: str) -> Position:
    return replace(position, extra=(("standing.royalist.retreat", value),))


def test_a_retreat_follows_the_standing_preference() -> None:
    # The enemy to the west: the farthest steps are NE (3,2) and SE (3,3), both three away.
    position = alone(opening(), {"R-HI-1": (2, 3), "P-HI-1": (0, 3)})
    field = field_for(position)
    ways = {}
    for value in (None, "away", "edge"):
        start = position if value is None else preferring(position, value)
        events: list[Event] = []
        after = retreat(start, field, "R-HI-1", 1, events)
        ways[value] = piece(after, "R-HI-1").hex
    # Away (and no instruction): the first farthest side; toward my edge: the one nearer row 5.
    assert ways[None] == ways["away"] == (3, 2)
    assert ways["edge"] == (3, 3)


def test_a_rout_runs_home_when_the_side_prefers_its_edge() -> None:
    position = alone(
        opening(),
        {"R-HI-1": (2, 3), "P-HI-1": (0, 3)},
        morale_state="routed",
        formation="broken",
    )
    first_steps = {}
    for value in ("away", "edge"):
        _, events = resolve_rout(preferring(position, value), Chance(SEED, "test", 1))
        first_steps[value] = events[0]["path"][0]
    # Away: farthest from the enemy; edge: straight for home without letting the enemy nearer.
    assert first_steps["away"] == [3, 3]
    assert first_steps["edge"] == [2, 4]


def test_a_leader_with_any_unit_in_the_close_combat_is_lost_on_a_natural_ten() -> None:
    # Two Royalist units charge one Parliament unit; the wing commander stands with the second
    # attacker (R-HI-1 at 2.4), not the lead's hex nor the defender's: it is in the combat all
    # the same, as the rules reference and the help page say.
    position = place(opening(), "P-LI-1", (1, 3))
    assert next(x for x in position.leaders if x.id == "R-WC-A").hex == (2, 4)
    events: list[Event] = []
    after, _owed = close_combat(
        position, field_for(position), ["R-CAV-1", "R-HI-1"], "P-LI-1", Loaded(10, 1, 1), events
    )
    lost = next(x for x in after.leaders if x.id == "R-WC-A")
    assert lost.hex is None and lost.lost_this_turn
    assert any(e["type"] == "leader_lost" and e["leader"] == "R-WC-A" for e in events)
    fought = next(e for e in events if e["type"] == "close_combat")
    assert fought["attackers"] == ["R-CAV-1", "R-HI-1"]
    # A leader of a unit not in the combat stays where it is.
    assert next(x for x in after.leaders if x.id == "R-AC").hex == (3, 5)


def test_a_charge_refused_names_the_enemies_the_unit_may_charge() -> None:
    # R-CAV-1 (1.4, R-A holding Charge) has P-LI-1 next to its front at 1.3, and names P-HI-1.
    position = place(opening(), "P-LI-1", (1, 3))
    wrong = refused(position, "R-A", [{"unit": "R-CAV-1", "action": "charge", "target": "P-HI-1"}])
    assert wrong == "R-CAV-1: P-HI-1 is not next to it; it may charge P-LI-1", wrong
    alone = refused(opening(), "R-A", [{"unit": "R-CAV-1", "action": "charge", "target": "P-HI-1"}])
    assert alone.endswith("; no enemy is next to its front"), alone
