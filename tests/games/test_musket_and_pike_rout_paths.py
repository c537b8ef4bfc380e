"""Rout paths chosen by mail: a side with STANDING RETREAT ASK ME is asked at the rout phase for
its routed units' paths (the "rout_paths" decision), each path is checked against the rout rules,
and a router left out, or a deadline left to pass, runs by default."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from test_musket_and_pike_actions import SEED, alone, boxed_in, opening, piece, place

from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.rules import standing
from adjudicator.games.musket_and_pike.rules.data import ruleset
from adjudicator.games.musket_and_pike.rules.resolvers import command_rules, unit_resolvers
from adjudicator.games.musket_and_pike.rules.rout import resolve_rout, rout_side
from adjudicator.games.musket_and_pike.rules.sequence import answer, pending
from adjudicator.games.musket_and_pike.rules.state import Position

GAME = MusketAndPike()
RULES = command_rules(ruleset())


def routed(position: Position, unit_id: str, where: tuple[int, int]) -> Position:
    return place(position, unit_id, where, morale_state="routed", formation="broken")


def chosen(position: Position, paths: dict[str, list[tuple[int, int]]]) -> Any:
    return rout_side(position, Chance(SEED, "test", 1), "royalist", paths)


def test_a_chosen_path_is_run_and_one_left_out_runs_by_default() -> None:
    # R-HI-1 at 2.3 with the enemy at 0.3: the default runs NE, away; the player runs it south
    # toward home instead, never nearer the enemy.
    position = alone(opening(), {"R-HI-1": (2, 3), "R-LI-1": (5, 3), "P-HI-1": (0, 3)})
    position = routed(routed(position, "R-HI-1", (2, 3)), "R-LI-1", (5, 3))
    done = chosen(position, {"R-HI-1": [(2, 4), (3, 4), (4, 4)]})
    assert not isinstance(done, Refusal), done
    after, events = done
    assert piece(after, "R-HI-1").hex == (4, 4)
    default_after, _ = resolve_rout(position, Chance(SEED, "test", 1))
    assert piece(default_after, "R-HI-1").hex == (5, 4)
    assert piece(after, "R-LI-1").hex == piece(default_after, "R-LI-1").hex
    assert [e["unit"] for e in events if e["type"] == "rout"] == ["R-HI-1", "R-LI-1"]


def test_paths_the_rout_rules_refuse_are_refused_with_the_reason() -> None:
    position = routed(alone(opening(), {"R-HI-1": (2, 3), "P-HI-1": (0, 3)}), "R-HI-1", (2, 3))
    cases = {
        "is not next to": [(2, 5)],
        "1.3 is nearer the enemy; a rout never runs toward it; it may rout into 2.2, 3.2": [(1, 3)],
        # Back into the hex it left: the cause, and the hexes open from 3.3.
        "cannot rout into 2.3: the path has been there already; it may rout into ": [
            (3, 3),
            (2, 3),
        ],
        "farther from the enemy is open": [(3, 3)],  # stops short of its rout distance
        "routs": [(3, 3), (4, 2), (5, 3), (6, 2), (7, 3)],  # longer than the distance
    }
    for reason, path in cases.items():
        refused = chosen(position, {"R-HI-1": path})
        assert isinstance(refused, Refusal) and reason in refused.reason, (path, refused)
    assert "not a routed unit" in str(chosen(position, {"R-HI-2": [(4, 5)]}))


def test_a_path_off_the_map_ends_there_and_loses_the_unit() -> None:
    position = routed(alone(opening(), {"R-HI-1": (2, 4), "P-HI-1": (2, 1)}), "R-HI-1", (2, 4))
    done = chosen(position, {"R-HI-1": [(2, 5), (2, 6)]})
    assert not isinstance(done, Refusal), done
    after, events = done
    assert piece(after, "R-HI-1").hex is None and after.lost("royalist") == 8
    assert any(e["type"] == "rout" and e.get("off_map") for e in events)
    refused = chosen(position, {"R-HI-1": [(2, 5), (2, 6), (2, 7)]})
    assert isinstance(refused, Refusal) and "leaves the map" in refused.reason


def at_the_rout_phase(choosers: tuple[str, ...]) -> Position:
    """The skirmish in turn 1's activation phase, R-HI-1 routed at 2.3 and P-HI-1 at 0.3 alone on
    the field, and royalist to pass, the parliament having passed: the next pass ends the phase."""
    position = alone(opening(), {"R-HI-1": (2, 3), "P-HI-1": (0, 3)})
    position = routed(position, "R-HI-1", (2, 3))
    position = replace(
        position, turn=1, step="activate", active="royalist", passes=1, initiative="royalist"
    )
    for side in choosers:
        position = standing.with_instruction(position, side, "retreat", "choose")
    return position


def test_a_side_that_asks_is_asked_at_the_rout_phase_and_its_answer_moves_the_router() -> None:
    resolvers = unit_resolvers()
    chance = Chance(SEED, "test", 1)
    # Without the instruction the pass runs the rout phase at once: no decision is owed for it.
    done = answer(at_the_rout_phase(()), "royalist", "pass", chance, RULES, resolvers)
    assert not isinstance(done, Refusal) and done[0].step != "rout_paths"
    asked = answer(at_the_rout_phase(("royalist",)), "royalist", "pass", chance, RULES, resolvers)
    assert not isinstance(asked, Refusal), asked
    waiting, events = asked
    assert waiting.step == "rout_paths" and waiting.phase == "rout"
    owed = pending(waiting, RULES)
    assert list(owed) == ["royalist"] and "R-HI-1" in owed["royalist"].prompt
    assert owed["royalist"].default == "default routs"
    assert events[-1].kind == "rout-paths"
    # The answer by mail: a line per router, read, checked and resolved.
    report = GAME.parse_orders(waiting, "royalist", "R-HI-1 ROUT 2.4 3.4 4.4\n")
    assert report.ok and report.orders == {
        "step": "rout_paths",
        "answer": [{"unit": "R-HI-1", "action": "rout", "path": [[2, 4], [3, 4], [4, 4]]}],
    }
    resolved = GAME.resolve(waiting, {"royalist": report.orders}, Chance(SEED, "test", 2))
    assert piece(resolved.state, "R-HI-1").hex == (4, 4)
    assert resolved.state.step != "rout_paths" and resolved.state.phase != "rout"
    assert any(line.startswith("R-HI-1: 2.3 → 4.4") for line in resolved.facts["changes"])


def test_a_refused_path_is_named_on_its_receipt_line_and_the_default_is_kept() -> None:
    resolvers = unit_resolvers()
    chance = Chance(SEED, "test", 1)
    done = answer(at_the_rout_phase(("royalist",)), "royalist", "pass", chance, RULES, resolvers)
    assert not isinstance(done, Refusal)
    waiting = done[0]
    report = GAME.parse_orders(waiting, "royalist", "R-HI-1 ROUT 1.3\nR-HI-2 ROUT 4.5\n")
    codes = [(line.status.value, line.code) for line in report.lines]
    assert codes == [("rejected", "illegal"), ("rejected", "not-yours")], report.lines
    assert "nearer the enemy" in str(report.lines[0].reason)
    assert report.orders is None or report.orders.get("answer") is None
    default = GAME.parse_orders(waiting, "royalist", "DEFAULT ROUTS")
    assert default.ok and default.orders == {"step": "rout_paths", "answer": "default routs"}
    # At the deadline the service takes the default: every router runs away from the enemy.
    assert GAME.default_orders(waiting, "royalist") == default.orders


def parliament_asked(position: Position) -> tuple[Position, Any]:
    """The position at the rout phase with parliament choosing its routers' paths, and the
    default paths written out (the legal answer that is not DEFAULT ROUTS)."""
    position = replace(
        position,
        turn=1,
        step="rout_paths",
        phase="rout",
        active="parliament",
        initiative="royalist",
    )
    position = standing.with_instruction(position, "parliament", "retreat", "choose")
    [written] = [
        o for o in GAME.legal_orders(position, "parliament") if o["answer"] != "default routs"
    ]
    return position, written


def test_a_written_path_off_the_top_edge_reads_back_from_the_mail() -> None:
    """The hex beyond row 0 has a negative row (4.-1): the default rout written out names it,
    and the mail grammar reads it back to the same path."""
    position = alone(opening(), {"P-HI-1": (2, 0), "R-HI-1": (2, 2)})
    position = place(position, "P-HI-1", (2, 0), morale_state="routed", formation="broken")
    position, written = parliament_asked(position)
    [path] = [entry["path"] for entry in written["answer"]]
    assert path and path[-1][1] < 0, path  # it leaves the map by the top edge
    text = GAME.orders_text(written)
    assert text is not None and ".-1" in text, text
    report = GAME.parse_orders(position, "parliament", text)
    assert report.ok and report.orders == written, (report.lines, report.orders)
    resolved = GAME.resolve(position, {"parliament": report.orders}, Chance(SEED, "test", 2))
    assert piece(resolved.state, "P-HI-1").hex is None  # routed off the map


def test_a_router_with_nowhere_to_run_is_written_hold_and_reads_back() -> None:
    position, written = parliament_asked(boxed_in())
    text = GAME.orders_text(written)
    assert text == "P-HI-1 HOLD", text
    report = GAME.parse_orders(position, "parliament", text)
    assert report.ok and report.orders == written, (report.lines, report.orders)
    resolved = GAME.resolve(position, {"parliament": report.orders}, Chance(SEED, "test", 2))
    assert piece(resolved.state, "P-HI-1").sp == piece(position, "P-HI-1").sp - 1
