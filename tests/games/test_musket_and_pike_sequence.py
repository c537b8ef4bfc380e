"""Musket & Pike sequence of play: the golden cases in tests/games/cases/musket_and_pike, run by one
loader, and property tests of the decision machine.

A case is a compact position (wings with their commanders, army commanders, a few units), how to
start (at the turn's start, at setup, or as given), the dice (scripted by purpose, or a seed), the
answers in order and what must follow: the position's fields, the wings and leaders, the events
(kinds in order, and rolls with their modifiers) and the decisions then owed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import golden
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.core.chance import Chance, ChanceEvent, verify
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules import sequence
from adjudicator.games.musket_and_pike.rules.command import CommandRules, CommandTable
from adjudicator.games.musket_and_pike.rules.data import ruleset
from adjudicator.games.musket_and_pike.rules.decisions import text
from adjudicator.games.musket_and_pike.rules.resolvers import command_rules, unit_resolvers
from adjudicator.games.musket_and_pike.rules.scenario import scenario
from adjudicator.games.musket_and_pike.rules.state import (
    ORDERS,
    Event,
    Leader,
    Position,
    Unit,
    Wing,
    dump,
    load,
)

SIDES = ("royalist", "parliament")
RULES: CommandRules = CommandTable()


# --- dice ---------------------------------------------------------------------------------------


@dataclass
class ScriptedChance(Chance):
    """Dice given by the case, each with the purpose it must be rolled for."""

    script: list[tuple[str, int]] = field(default_factory=list)

    def roll(self, label: str, sides: int = 6) -> int:
        assert self.script, f"an unscripted die was rolled for {label!r}"
        want, value = self.script.pop(0)
        assert label == want, f"die rolled for {label!r}, the script has {want!r}"
        assert 1 <= value <= sides
        counter = self._next(label)
        self.events.append(ChanceEvent(self.turn, label, counter, "die", sides, (value,)))
        return value


# --- compact positions --------------------------------------------------------------------------


def build(raw: dict[str, Any]) -> Position:
    """A position from a case's compact form; every field a case leaves out takes a plain value."""
    wings: list[Wing] = []
    leaders: list[Leader] = []
    for w in raw["wings"]:
        wings.append(
            Wing(
                id=w["id"],
                side=w["side"],
                order=w["order"],
                finished=w.get("finished", False),
                bypassed=w.get("bypassed", False),
                activations=w.get("activations", 0),
                preempt_failed=w.get("preempt_failed", False),
            )
        )
        spot = w.get("wc_hex", [0, 0])
        leaders.append(
            Leader(
                id=f"{w['id']}-wc",
                side=w["side"],
                role="WC",
                wing=w["id"],
                rating=w.get("wc", 0),
                hex=None if spot is None else (spot[0], spot[1]),
                finished=w.get("wc_finished", w.get("finished", False)),
                lost_this_turn=w.get("wc_lost", False),
            )
        )
    for a in raw.get("acs", []):
        spot = a.get("hex", [0, 0])
        leaders.append(
            Leader(
                id=f"{a['side']}-ac",
                side=a["side"],
                role="AC",
                wing=None,
                rating=a.get("rating", 0),
                hex=None if spot is None else (spot[0], spot[1]),
                finished=a.get("finished", False),
                lost_this_turn=a.get("lost", False),
            )
        )
    units = []
    for u in raw.get("units", []):
        spot = u.get("hex", [1, 1])
        units.append(
            Unit(
                id=u["id"],
                side=u["side"],
                kind=u.get("kind", "HI"),
                wing=u["wing"],
                hex=None if spot is None else (spot[0], spot[1]),
                facing=0,
                sp=u.get("sp", 6),
                morale=6,
                formation="normal",
                morale_state=u.get("morale_state", "good"),
                casualties=0,
                fired=u.get("fired", False),
                salvo=u.get("salvo", False),
            )
        )
    machine = raw.get("machine", {})
    position = Position(
        scenario="case",
        turn=raw.get("turn", 1),
        last_turn=raw.get("last_turn", 10),
        phase=machine.get("phase", "initiative"),
        units=tuple(units),
        leaders=tuple(leaders),
        wings=tuple(wings),
        lost_sp=tuple((s, raw.get("lost_sp", {}).get(s, 0)) for s in SIDES),
        break_levels=tuple((s, raw.get("break_levels", {}).get(s, 0)) for s in SIDES),
        sides=SIDES,
    )
    keys = ("step", "active", "current", "interrupted", "initiative", "senior", "passes")
    return replace(position, **{k: machine[k] for k in keys if k in machine})


# --- the case runner ----------------------------------------------------------------------------


def _cases() -> Iterator[Any]:
    yield from golden.params("musket_and_pike")


def _chance(case: dict[str, Any], number: int) -> Chance:
    if "dice" in case:
        scripted: Chance = case["_dice"]
        return scripted
    chance = Chance(bytes.fromhex(case["seed"]), "case", number)
    case.setdefault("_chances", []).append(chance)
    return chance


EXPECT_KEYS = {
    "phase",
    "step",
    "active",
    "current",
    "interrupted",
    "initiative",
    "senior",
    "turn",
    "passes",
    "winner",
    "end_reason",
    "wings",
    "leaders",
    "units",
    "event_kinds",
    "events",
    "pending",
    "error",
}


def _matches(event: Event, want: dict[str, Any]) -> bool:
    if event.kind != want["kind"]:
        return False
    for key in ("side", "wing"):
        if key in want and getattr(event, key) != want[key]:
            return False
    if "text" in want and want["text"] not in event.text:
        return False
    if "rolls" in want:
        got = [r.to_json() for r in event.rolls]
        if len(got) != len(want["rolls"]):
            return False
        for roll, wanted in zip(got, want["rolls"], strict=True):
            if any(roll[k] != v for k, v in wanted.items()):
                return False
    return True


def _check_events(events: list[Event], wanted: list[dict[str, Any]]) -> None:
    """Every wanted event appears, in this order (other events may come between)."""
    at = 0
    for want in wanted:
        while at < len(events) and not _matches(events[at], want):
            at += 1
        assert at < len(events), f"event {want} not found (in order) among {events}"
        at += 1


def _check(position: Position, events: list[Event], expect: dict[str, Any]) -> None:
    assert set(expect) <= EXPECT_KEYS, f"unknown expectations {set(expect) - EXPECT_KEYS}"
    for key in ("phase", "step", "active", "current", "interrupted", "initiative", "senior"):
        if key in expect:
            assert getattr(position, key) == expect[key], key
    for key in ("turn", "passes", "winner", "end_reason"):
        if key in expect:
            assert getattr(position, key) == expect[key], key
    for wing_id, fields in expect.get("wings", {}).items():
        wing = position.wing(wing_id)
        for key, value in fields.items():
            if key == "wc_finished":
                leader = position.commander(wing_id)
                assert leader is not None and leader.finished == value, (wing_id, key)
            else:
                assert getattr(wing, key) == value, (wing_id, key)
    leaders = {x.id: x for x in position.leaders}
    for leader_id, fields in expect.get("leaders", {}).items():
        for key, value in fields.items():
            got = getattr(leaders[leader_id], key)
            got = list(got) if isinstance(got, tuple) else got
            assert got == value, (leader_id, key)
    units = {u.id: u for u in position.units}
    for unit_id, fields in expect.get("units", {}).items():
        for key, value in fields.items():
            assert getattr(units[unit_id], key) == value, (unit_id, key)
    if "event_kinds" in expect:
        assert [e.kind for e in events] == expect["event_kinds"]
    _check_events(events, expect.get("events", []))
    if "pending" in expect:
        owed = sequence.pending(position, RULES)
        assert {side: list(d.legal) for side, d in owed.items()} == expect["pending"]


@pytest.mark.parametrize("case", list(_cases()))
def test_case(case: dict[str, Any]) -> None:
    position = build(case["position"])
    if "dice" in case:
        case["_dice"] = ScriptedChance(b"x", "case", 1, script=[tuple(d) for d in case["dice"]])
    events: list[Event] = []
    start = case.get("start", "turn")
    if start == "turn":
        position, first = sequence.start_turn(position, _chance(case, 0), RULES)
        events += first
    elif start == "setup":
        position = sequence.setup(position)
    answers = case.get("answers", [])
    for number, (side, reply) in enumerate(answers, start=1):
        last = number == len(answers)
        result = sequence.answer(position, side, reply, _chance(case, number), RULES)
        if last and "error" in case["expect"]:
            assert isinstance(result, Refusal), f"answer {reply!r} was accepted"
            assert case["expect"]["error"] in result.reason
            break
        assert not isinstance(result, Refusal), f"answer {number} {reply!r} refused: {result}"
        position, happened = result
        events += happened
        assert load(json.loads(json.dumps(dump(position)))) == position
    _check(position, events, case["expect"])
    if "dice" in case:
        assert case["_dice"].script == [], "scripted dice left unrolled"
    else:
        # Seeded dice: every draw is the HMAC the seed gives, as a player can check afterwards.
        seed = bytes.fromhex(case["seed"])
        for chance in case["_chances"]:
            assert verify(seed, "case", chance.events) == []
        assert any(chance.events for chance in case["_chances"]), "a seeded case rolls no die"


def test_cases_exist() -> None:
    assert len(list(_cases())) >= 20


# --- properties ---------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    raw: dict[str, Any] = {"wings": [], "acs": [], "units": []}
    for side in SIDES:
        for n in range(draw(st.integers(1, 3))):
            wing_id = f"{side[0]}{n}"
            off = draw(st.integers(0, 5)) == 0
            raw["wings"].append(
                {
                    "id": wing_id,
                    "side": side,
                    "order": draw(st.sampled_from(ORDERS)),
                    "wc": draw(st.sampled_from((0, -1, -2))),
                    "wc_hex": None if off else [n, 0],
                    "wc_lost": off and draw(st.booleans()),
                }
            )
            raw["units"].append({"id": f"{wing_id}u", "side": side, "wing": wing_id})
        raw["acs"].append({"side": side, "rating": draw(st.sampled_from((0, -1)))})
    raw["last_turn"] = draw(st.integers(1, 3))
    raw["lost_sp"] = {"royalist": draw(st.integers(0, 12))}
    raw["break_levels"] = {"royalist": 10, "parliament": 10}
    return build(raw)


def _play(position: Position, picks: st.DataObject, setup: bool) -> list[Position]:
    """Answer with random legal answers until the game ends; every position on the way."""
    seen = [position]
    if setup:
        position = sequence.setup(position)
        seen.append(position)
    else:
        position, _ = sequence.start_turn(position, Chance(b"p", "prop", 0), RULES)
        seen.append(position)
    for number in range(1, 2000):
        if position.phase == "over":
            return seen
        owed = sequence.pending(position, RULES)
        assert owed, f"nothing owed at step {position.step} of phase {position.phase}"
        side = picks.draw(st.sampled_from(sorted(owed)))
        options = sequence.legal_answers(position, side, RULES)
        assert [text(a) for a in options] == list(owed[side].legal)
        reply = text(picks.draw(st.sampled_from(options)))
        result = sequence.answer(position, side, reply, Chance(b"p", "prop", number), RULES)
        assert not isinstance(result, Refusal), (reply, result)
        position = result[0]
        seen.append(position)
    raise AssertionError("the game did not end")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), picks=st.data(), setup=st.booleans())
def test_random_legal_answers_reach_the_end(
    position: Position, picks: st.DataObject, setup: bool
) -> None:
    seen = _play(position, picks, setup)
    end = seen[-1]
    assert end.phase == "over" and end.step == "none"
    # Every turn was played through: the game ends at the last turn or by a withdrawal.
    assert end.end_reason in ("last turn played", "royalist withdraws")
    if end.end_reason == "last turn played":
        assert end.turn == end.last_turn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), picks=st.data(), setup=st.booleans())
def test_one_decision_at_a_time(position: Position, picks: st.DataObject, setup: bool) -> None:
    for seen in _play(position, picks, setup)[1:]:
        owed = sequence.pending(seen, RULES)
        if seen.step == "setup_orders":
            assert 1 <= len(owed) <= 2
        elif seen.phase == "over":
            assert owed == {}
        else:
            assert len(owed) == 1, (seen.step, owed)
            (side,) = owed
            # Only pre-emption is answered by the side that is not active.
            if seen.step == "preempt":
                assert side != seen.active
            else:
                assert side == seen.active
        # The machine's bookkeeping holds at every decision.
        assert sum(w.bypassed for w in seen.wings) == (seen.interrupted is not None)
        assert all(0 <= w.activations <= 3 for w in seen.wings)
        if seen.step in ("order_change", "actions", "continuation"):
            current = seen.wing(seen.current or "")
            assert not current.finished and current.activations >= 1


def _royalist_wing_activated() -> Position:
    """Royalist's one wing activated at the first turn: parliament owes the pre-emption answer."""
    position = build(
        {
            "wings": [
                {"id": "R", "side": "royalist", "order": "charge"},
                {"id": "P", "side": "parliament", "order": "rally"},
            ]
        }
    )
    position, _ = sequence.start_turn(position, Chance(b"s", "t", 0), RULES)
    return position


def test_a_side_that_owes_nothing_is_refused() -> None:
    position = _royalist_wing_activated()
    assert position.step == "preempt" and position.active == "royalist"
    refused = sequence.answer(position, "royalist", "no preempt", Chance(b"s", "t", 1), RULES)
    assert refused == Refusal("Royalists owe no decision now", "not-owed")


def test_an_answer_of_the_wrong_form_is_refused_as_malformed_and_one_not_open_as_illegal() -> None:
    position = _royalist_wing_activated()
    chance = Chance(b"s", "t", 1)
    garbled = sequence.answer(position, "parliament", "maybe later", chance, RULES)
    assert garbled == Refusal(
        "write: preempt WING, preempt WING with ac, or no preempt", "malformed"
    )
    stranger = sequence.answer(position, "parliament", "preempt X", chance, RULES)
    assert isinstance(stranger, Refusal) and stranger.code == "illegal", stranger
    assert str(stranger) == stranger.reason and stranger.reason.startswith("X may not pre-empt")


def test_dump_load_round_trip_mid_activation() -> None:
    position = build(
        {
            "wings": [
                {"id": "R", "side": "royalist", "order": "charge", "bypassed": True},
                {"id": "P", "side": "parliament", "order": "rally", "activations": 2},
            ],
            "acs": [{"side": "royalist", "hex": None, "lost": True}],
            "units": [{"id": "u", "side": "royalist", "wing": "R", "salvo": True}],
            "machine": {"step": "continuation", "active": "parliament", "current": "P"},
        }
    )
    position = replace(position, interrupted="R", secret_orders=(("royalist", (("R", "rally"),)),))
    data = json.loads(json.dumps(dump(position)))
    assert load(data) == position
    data["wings"][0]["activations"] = True
    with pytest.raises(ValueError, match="activations"):
        load(data)


# --- wired to the packaged ruleset, scenario and unit modules -----------------------------------


def test_the_packaged_ruleset_gives_the_command_numbers() -> None:
    rules = command_rules(ruleset())
    assert rules.preempt_max == 4 and rules.preempt_ac_help == -1
    assert rules.continuation_max == (5, 3)
    assert rules.order_change[("make_ready", "charge")] == 6


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.data())
def test_the_skirmish_plays_to_its_end_with_the_unit_modules(picks: st.DataObject) -> None:
    rules = command_rules(ruleset())
    wired = unit_resolvers()
    position = scenario("skirmish").opening
    assert sequence.pending(position, rules).keys() == set(position.sides)
    for number in range(1, 2000):
        if position.phase == "over":
            break
        owed = sequence.pending(position, rules)
        side = picks.draw(st.sampled_from(sorted(owed)))
        reply = text(picks.draw(st.sampled_from(sequence.legal_answers(position, side, rules))))
        chance = Chance(b"skirmish", "prop", number)
        result = sequence.answer(position, side, reply, chance, rules, wired)
        assert not isinstance(result, Refusal), (reply, result)
        position = result[0]
    assert position.phase == "over" and position.end_reason == "last turn played"
    assert position.turn == position.last_turn


def test_the_actions_module_checks_the_unit_actions() -> None:
    rules = command_rules(ruleset())
    wired = unit_resolvers()
    position = scenario("skirmish").opening
    for number, side in enumerate(position.sides, start=1):
        orders = " ".join(f"{w.id}=rally" for w in position.wings if w.side == side)
        result = sequence.answer(
            position, side, f"orders {orders}", Chance(b"s", "t", number), rules
        )
        assert not isinstance(result, Refusal)
        position = result[0]
    # All Rally: the die decides; answer through to the first wing's unit actions.
    for number in range(10, 20):
        if position.step == "actions":
            break
        (side,) = sequence.pending(position, rules)
        reply = text(sequence.legal_answers(position, side, rules)[0])
        done = sequence.answer(position, side, reply, Chance(b"s", "t", number), rules, wired)
        assert not isinstance(done, Refusal)
        position = done[0]
    assert position.step == "actions" and position.active is not None
    bad = [{"unit": "no-such-unit", "action": "rally"}]
    refused = sequence.answer(position, position.active, bad, Chance(b"s", "t", 30), rules, wired)
    assert isinstance(refused, Refusal) and "no-such-unit" in refused.reason
    done = sequence.answer(
        position, position.active, "no actions", Chance(b"s", "t", 31), rules, wired
    )
    assert not isinstance(done, Refusal) and done[0].step in ("continuation", "activate", "preempt")


def test_a_draw_rule_gives_no_winner_at_the_last_turn() -> None:
    # The same end as the "smaller share" case, under the other house rule: nobody wins.
    position = build(
        {
            "last_turn": 1,
            "lost_sp": {"royalist": 4, "parliament": 3},
            "break_levels": {"royalist": 20, "parliament": 10},
            "wings": [
                {"id": "RL", "side": "royalist", "order": "charge", "wc": 0, "wc_hex": None},
                {"id": "PL", "side": "parliament", "order": "rally", "wc": 0, "wc_hex": None},
            ],
        }
    )
    chance = Chance(b"x" * 32, "case", 0)
    for rule, winner in (("draw", None), ("fewer_losses", "royalist")):
        ended, _ = sequence.start_turn(position, chance, CommandTable(last_turn=rule))
        assert (ended.phase, ended.winner) == ("over", winner), rule
