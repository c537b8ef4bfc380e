"""Retreat paths chosen by mail: a side with STANDING RETREAT ASK ME is asked, in the middle of an
activation's close combat, for the path of each of its units a close combat result sends back
(the "retreat_path" decision); the rest of the close combat waits for the answer, a path is
checked against the retreat rule, and the default falls back away from the enemy."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from test_musket_and_pike_actions import SEED, Loaded, opening, piece, place

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.rules import standing
from adjudicator.games.musket_and_pike.rules.actions import resolve_activation, resolve_retreat
from adjudicator.games.musket_and_pike.rules.state import Position, dump, load

GAME = MusketAndPike()
CAVALRY_CHARGE = {"unit": "R-CAV-1", "action": "charge", "target": "P-LI-1"}
FOOT_CHARGE = {"unit": "R-HI-1", "action": "charge", "target": "P-HI-1"}


def choosing(position: Position, *sides: str) -> Position:
    for side in sides:
        position = standing.with_instruction(position, side, "retreat", "choose")
    return position


def charged(*sides: str) -> Position:
    """The skirmish with P-LI-1 at 1.3, in front of R-CAV-1 at 1.4 (R-A's), and P-HI-1 at 2.3 in
    front of R-HI-1 at 2.4; ``sides`` choose their retreat paths."""
    position = place(place(opening(), "P-LI-1", (1, 3)), "P-HI-1", (2, 3))
    return choosing(position, *sides)


def fought(position: Position, orders: list[dict[str, Any]], *faces: int) -> Position:
    done = resolve_activation(position, "R-A", orders, Loaded(*faces))
    assert not isinstance(done, Refusal), done
    return done[0]


def test_without_the_instruction_the_retreat_is_made_at_once() -> None:
    # Cavalry against shot, rolled 6 (+2): the defender loses 1 SP and falls back 1 hex.
    after = fought(charged(), [CAVALRY_CHARGE], 6, 2)
    assert after.retreats == () and after.combats == ()
    assert piece(after, "P-LI-1").hex == (1, 2)


def test_the_close_combat_waits_for_the_chosen_path_then_goes_on() -> None:
    # Two charges; the first sends P-LI-1 back. Only two dice are loaded: the second combat
    # would need a third, so it is not fought before the path is given.
    waiting = fought(charged("parliament"), [CAVALRY_CHARGE, FOOT_CHARGE], 6, 2)
    assert waiting.retreats == (("P-LI-1", 1),)
    assert waiting.combats == (("P-HI-1", ("R-HI-1",)),)
    assert piece(waiting, "P-LI-1").hex == (1, 3) and piece(waiting, "P-LI-1").sp == 2
    # The default would go north to 1.2; the player falls back west to 0.3 instead. Then the
    # second combat is fought: rolled 1, the attacker loses 2 SP, checks (1: holds), and falls
    # back 1 hex by default (royalist does not choose).
    done = resolve_retreat(waiting, [(0, 3)], Loaded(1, 1))
    assert not isinstance(done, Refusal), done
    after, events = done
    assert piece(after, "P-LI-1").hex == (0, 3)
    assert [e["type"] for e in events if e["type"] in ("retreat", "close_combat")] == [
        "retreat",
        "close_combat",
        "retreat",
    ]
    assert piece(after, "R-HI-1").sp == 6 and piece(after, "R-HI-1").hex != (2, 4)
    assert after.retreats == () and after.combats == ()


def test_each_side_is_asked_for_its_own_units_retreat() -> None:
    waiting = fought(charged("parliament", "royalist"), [CAVALRY_CHARGE, FOOT_CHARGE], 6, 2)
    done = resolve_retreat(waiting, None, Loaded(1, 1))
    assert not isinstance(done, Refusal), done
    after = done[0]
    # The default path for P-LI-1; then the foot's combat sends R-HI-1 back, and royalist chooses.
    assert piece(after, "P-LI-1").hex == (1, 2)
    assert after.retreats == (("R-HI-1", 1),) and after.combats == ()
    assert piece(after, "R-HI-1").hex == (2, 4)


def test_paths_the_retreat_rule_refuses_are_refused_with_the_reason() -> None:
    waiting = fought(charged("parliament"), [CAVALRY_CHARGE], 6, 2)
    cases = {
        "is not next to": [(1, 1)],
        "cannot fall back into": [(2, 3)],  # occupied by P-HI-1
        "falls back 1 hexes, not 2": [(1, 2), (1, 1)],
    }
    for reason, path in cases.items():
        refused = resolve_retreat(waiting, path, Chance(SEED, "test", 1))
        assert isinstance(refused, Refusal) and reason in refused.reason, (path, refused)
    near = place(waiting, "R-LI-1", (0, 4))  # an enemy next to 0.3: no farther than 1.3 is
    refused = resolve_retreat(near, [(0, 3)], Chance(SEED, "test", 1))
    assert isinstance(refused, Refusal) and "cannot fall back into 0.3" in refused.reason
    # Each refusal names its cause and the hexes that are open, not a list of what might be.
    assert "0.3: it is no farther from the enemy; it may fall back into 1.2" in refused.reason
    occupied = resolve_retreat(waiting, [(2, 3)], Chance(SEED, "test", 1))
    assert isinstance(occupied, Refusal)
    assert "2.3: P-HI-1 stands there; it may fall back into " in occupied.reason, occupied
    assert "off the map, blocked" not in occupied.reason
    # Stopping short while a step is open is refused too; the full path is taken.
    long_way = replace(waiting, retreats=(("P-LI-1", 2),))
    short = resolve_retreat(long_way, [(1, 2)], Chance(SEED, "test", 1))
    assert isinstance(short, Refusal) and "farther from the enemy is open" in short.reason
    default = resolve_retreat(long_way, None, Chance(SEED, "test", 1))
    assert not isinstance(default, Refusal)
    [record] = [e for e in default[1] if e["type"] == "retreat"]
    assert len(record["path"]) == 2  # (1.1 holds P-CAV-1: the default goes round it)
    written = [(c, r) for c, r in record["path"]]
    full = resolve_retreat(long_way, written, Chance(SEED, "test", 1))
    assert not isinstance(full, Refusal) and piece(full[0], "P-LI-1").hex == written[-1]


def test_a_unit_with_nowhere_to_go_is_not_asked_and_loses_sp() -> None:
    position = charged("parliament")
    for unit_id, where in (("R-LI-1", (0, 3)), ("R-HI-2", (1, 2)), ("R-ART-1", (0, 2))):
        position = place(position, unit_id, where)
    after = fought(position, [CAVALRY_CHARGE], 6, 2)
    assert after.retreats == ()
    assert piece(after, "P-LI-1").hex == (1, 3) and piece(after, "P-LI-1").sp < 2


def at_the_charge(*sides: str) -> Position:
    """Turn 1, R-A activated and at its unit actions, the charges above open to it."""
    return replace(
        charged(*sides),
        turn=1,
        phase="activation",
        step="actions",
        active="royalist",
        current="R-A",
        initiative="royalist",
    )


def test_by_mail_the_defender_is_asked_answers_and_the_activation_goes_on() -> None:
    position = at_the_charge("parliament")
    orders = GAME.parse_orders(position, "royalist", "R-CAV-1 CHARGE P-LI-1\n")
    assert orders.ok, orders.lines
    resolved = GAME.resolve(position, {"royalist": orders.orders}, Loaded(6, 2))
    waiting = resolved.state
    assert waiting.step == "retreat_path" and waiting.active == "parliament"
    owed = GAME.pending(waiting)
    assert list(owed) == ["parliament"] and "P-LI-1 falls back 1 hex" in owed["parliament"].prompt
    assert owed["parliament"].default == "default retreat"
    assert any("P-LI-1 RETREAT" in form for form in owed["parliament"].legal)
    # A path into the enemy's reach is refused on its line; another unit is not the one owed.
    refused = GAME.parse_orders(waiting, "parliament", "P-LI-1 RETREAT 2.2\nP-HI-1 RETREAT 2.2")
    codes = [(line.status.value, line.code) for line in refused.lines]
    assert codes == [("rejected", "illegal"), ("rejected", "not-yours")], refused.lines
    assert refused.orders is None or refused.orders.get("answer") is None
    # The royalist owes nothing now.
    assert not GAME.parse_orders(waiting, "royalist", "CONTINUE").ok
    answer = GAME.parse_orders(waiting, "parliament", "p-li-1 retreat 0.3")
    assert answer.ok and answer.orders == {
        "step": "retreat_path",
        "answer": [{"unit": "P-LI-1", "action": "retreat", "path": [[0, 3]]}],
    }
    after = GAME.resolve(waiting, {"parliament": answer.orders}, Chance(SEED, "test", 3))
    assert piece(after.state, "P-LI-1").hex == (0, 3)
    # Back to the activation: royalist owes its continuation.
    assert after.state.step == "continuation" and list(GAME.pending(after.state)) == ["royalist"]
    assert any(line.startswith("P-LI-1: 1.3 → 0.3") for line in after.facts["changes"])


def test_the_default_retreat_is_what_a_passed_deadline_takes() -> None:
    position = at_the_charge("parliament")
    orders = GAME.parse_orders(position, "royalist", "R-CAV-1 CHARGE P-LI-1\n")
    waiting = GAME.resolve(position, {"royalist": orders.orders}, Loaded(6, 2)).state
    default = GAME.default_orders(waiting, "parliament")
    assert default == {"step": "retreat_path", "answer": "default retreat"}
    assert GAME.parse_orders(waiting, "parliament", "DEFAULT RETREAT").orders == default
    after = GAME.resolve(waiting, {"parliament": default}, Chance(SEED, "test", 3)).state
    assert piece(after, "P-LI-1").hex == (1, 2) and after.step == "continuation"
    # The default written out as a path is one of the legal answers, and is accepted.
    written = [o for o in GAME.legal_orders(waiting, "parliament") if isinstance(o["answer"], list)]
    assert written == [
        {
            "step": "retreat_path",
            "answer": [{"unit": "P-LI-1", "action": "retreat", "path": [[1, 2]]}],
        }
    ]


def test_a_paused_close_combat_is_stored_and_read_back() -> None:
    waiting = fought(charged("parliament"), [CAVALRY_CHARGE, FOOT_CHARGE], 6, 2)
    stored = dump(waiting)
    assert stored["combats"] == [["P-HI-1", ["R-HI-1"]]] and stored["retreats"] == [["P-LI-1", 1]]
    assert load(stored) == waiting
    # A position stored before retreats were asked (schema 1) reads back with none owed.
    old = {k: v for k, v in dump(opening()).items() if k not in ("combats", "retreats")}
    assert load({**old, "schema": 1}) == opening()
