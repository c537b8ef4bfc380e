"""The step report both players get after every Musket & Pike decision, and the archive shows:
each die with its purpose and modifiers where it fell, what happened in order, and what changed,
from public facts only (secret set-up orders stay out until the reveal)."""

from __future__ import annotations

import re

from test_musket_and_pike_game import GAME, History, histories  # noqa: F401 (fixture)

from adjudicator.core.chance import Chance
from adjudicator.games.musket_and_pike.words.outcomes import OUTCOME_CODES
from adjudicator.games.musket_and_pike.words.report import die_words


def test_a_command_roll_adds_its_modifiers_and_is_judged_against_its_target() -> None:
    die = {
        "purpose": "continuation R-B",
        "natural": 4,
        "modifiers": [["wing commander rating", -1], ["second activation", 2]],
        "total": 5,
        "target": 5,
        "success": True,
    }
    assert die_words(die) == (
        "d10 for continuation R-B: 4 -1 (wing commander rating) +2 (second activation) = 5, "
        "needs 5 or less: success"
    )
    assert die_words({**die, "natural": 5, "total": 6}).endswith("needs 5 or less: failure")


def test_a_check_moves_its_target_and_a_table_roll_has_none() -> None:
    check = {
        "purpose": "morale R-HI-2",
        "natural": 8,
        "modifiers": [["shaken", -1], ["leader", 1]],
        "base": 7,
        "target": 7,
        "total": 8,
    }
    assert die_words(check) == (
        "d10 for morale R-HI-2: 8, needs 7 or less (morale 7, shaken -1, leader +1): fails"
    )
    table = {"purpose": "fire musket A>B", "natural": 6, "modifiers": [["cover", -1]], "total": 5}
    assert die_words(table) == "d10 for fire musket A>B: 6 -1 (cover) = 5"


def test_secret_set_up_orders_change_nothing_anyone_is_shown_until_both_are_in() -> None:
    state = GAME.new_game({"scenario": "skirmish"}, Chance(b"r" * 32, "report", 0))
    first = GAME.resolve(
        state,
        {"royalist": {"step": "setup_orders", "answer": "orders R-A=rally R-B=rally"}},
        Chance(b"r" * 32, "report", 1),
    )
    assert [o.code for o in first.outcomes] == ["setup-orders"]
    shown = GAME.step_report(first.facts)
    assert "rally" not in shown.lower() and "order" not in " ".join(first.facts["changes"])
    second = GAME.resolve(
        first.state,
        {"parliament": {"step": "setup_orders", "answer": "orders P-A=charge P-B=charge"}},
        Chance(b"r" * 32, "report", 2),
    )
    changes = second.facts["changes"]
    # The reveal shows each wing's order; none of them "changed" from an order never in force.
    assert "wing R-A: its secret order is revealed: Rally" in changes, changes
    assert "wing P-B: its secret order is revealed: Charge" in changes, changes
    assert "wing R-B: its secret order is revealed: Rally" in changes, changes
    assert not [line for line in changes if "→" in line and line.startswith("wing ")], changes


def test_every_die_and_every_loss_of_random_battles_is_in_its_step_report(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    dice = losses = 0
    for history in histories:
        for before, resolution in history:
            facts = resolution.facts
            report = GAME.step_report(facts)
            lines = [line.strip() for line in report.splitlines()]
            rolled = [line for line in lines if line.startswith("d10 for ")]
            assert len(rolled) == len(facts["dice"]), (report, facts["dice"])
            for line, die in zip(rolled, facts["dice"], strict=True):
                assert line.startswith(f"d10 for {die['purpose']}: {die['natural']}"), line
                for name, value in die["modifiers"]:
                    assert f"{value:+d}" in line and name in line, (line, die)
            dice += len(rolled)
            after = {u.id: u for u in resolution.state.units}
            for unit in before.units:
                now = after[unit.id]
                if now.sp != unit.sp and now.hex is not None:
                    said = f"{unit.sp} → {now.sp} SP"
                    assert any(re.match(rf"{unit.id}: .*{said}", line) for line in lines), report
                    losses += 1
    # The battles rolled and bled: the checks above were not vacuous.
    assert dice > 200 and losses > 5, (dice, losses)


def test_every_outcome_of_random_battles_has_a_listed_code(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    seen = {o.code for history in histories for _, r in history for o in r.outcomes}
    assert seen <= set(OUTCOME_CODES), seen - set(OUTCOME_CODES)
    assert {"activate", "actions", "continuation", "setup-orders"} <= seen


def test_each_part_of_a_step_reads_under_the_heading_of_its_own_kind(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    # An order change answered with its unit actions, whose charge ends in close combat, is one
    # step: its report heads each part by what it is, never the unit actions "the order change".
    seen: set[str] = set()
    for history in histories:
        for _before, resolution in history:
            report = GAME.step_report(resolution.facts)
            assert "STEP:" not in report, report
            heading = ""
            for line in report.splitlines():
                if line and not line.startswith(" "):
                    heading = line.split(" (turn ")[0]
                    continue
                words = line.strip().removeprefix("- ")
                if words.startswith("close combat:") or " charges " in words:
                    assert heading == "CLOSE COMBAT", report
                elif re.match(r"\S+ (moves to|fires) ", words):
                    assert heading in ("UNIT ACTIONS", "CLOSE COMBAT"), report
                elif " changes its order " in words or "fails to change its order" in words:
                    assert heading == "ORDER CHANGE", report
                elif words.startswith("d10 for pre-emption"):
                    assert heading == "PRE-EMPTION", report
                elif words.startswith("d10 for continuation") or re.match(r"\S+ stops$", words):
                    assert heading == "CONTINUATION", report
                else:
                    continue
                seen.add(heading)
    assert seen >= {"CLOSE COMBAT", "UNIT ACTIONS", "ORDER CHANGE", "CONTINUATION"}, seen


def test_standing_instructions_are_stated_in_plain_sentences() -> None:
    state = GAME.new_game({"scenario": "skirmish"}, Chance(b"r" * 32, "report", 0))
    kept = GAME.resolve(
        state,
        {"royalist": {"standing": {"retreat": "choose", "preempt": "never"}}},
        Chance(b"r" * 32, "report", 1),
    )
    shown = GAME.describe(GAME.view(kept.state, "royalist"))
    assert "retreat choose" not in shown and "preempt never" not in shown, shown
    assert (
        "Your standing instructions: never try to pre-empt; ask me for each retreat's path after"
        " close combat and for my routed units' paths at each rout phase (by default: away from"
        " the enemy)." in shown
    ) or (
        "Your standing instructions: ask me for each retreat's path after close combat and for my"
        " routed units' paths at each rout phase (by default: away from the enemy); never try to"
        " pre-empt." in shown
    ), shown
    # The other side is not shown them.
    assert "standing instructions" not in GAME.describe(GAME.view(kept.state, "parliament"))


def test_no_stored_order_code_reaches_a_step_report(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    # "equal wings holding make_ready" was the initiative's reason: the words are "make ready".
    codes = ("make_ready", "receive_charge")
    for history in histories:
        for _before, resolution in history:
            report = GAME.step_report(resolution.facts)
            assert not [code for code in codes if code in report], report


def test_every_step_with_events_has_a_summary_of_what_happened(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    told = 0
    for history in histories:
        for _before, resolution in history:
            facts = resolution.facts
            summary = GAME.step_summary(facts)
            if facts.get("events"):
                assert summary and summary.endswith("."), facts
                assert "d10 for" not in summary and "\n" not in summary, summary
                told += 1
    assert told > 100, told


def test_a_step_that_ends_asking_for_a_retreat_is_summed_up_by_its_fight() -> None:
    from dataclasses import replace

    from adjudicator.games.musket_and_pike.rules import standing

    state = GAME.new_game({"scenario": "skirmish"}, Chance(b"r" * 32, "report", 0))
    units = tuple(replace(u, hex=(1, 3)) if u.id == "P-LI-1" else u for u in state.units)
    position = replace(
        state,
        units=units,
        phase="activation",
        step="actions",
        active="royalist",
        current="R-A",
        initiative="royalist",
    )
    position = standing.with_instruction(position, "parliament", "retreat", "choose")
    orders = GAME.parse_orders(position, "royalist", "R-CAV-1 CHARGE P-LI-1").orders
    for number in range(100):
        played = GAME.resolve(
            position, {"royalist": orders}, Chance(bytes([number]) * 32, "report", 1)
        )
        if played.state.retreats:
            break
    else:
        raise AssertionError("no seed of a hundred sent P-LI-1 back")
    report = GAME.step_report(played.facts)
    assert "Parliament chooses the path of P-LI-1's retreat" in report, report
    summary = GAME.step_summary(played.facts)
    assert summary.startswith("R-CAV-1 charges P-LI-1"), summary
    assert "chooses the path" not in summary, summary


def test_an_answer_that_moved_nothing_says_what_it_did(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    # "Royalists: first R-B: done" told nothing: each answer says what it did.
    details = [o.detail for h in histories for _b, r in h for o in r.outcomes]
    assert "done" not in details
    assert any(d.endswith("is activated; the other side may try to pre-empt it") for d in details)
    assert "the wing keeps its order" in details
    assert "no unit acts" in details and not [d for d in details if d.startswith("0 unit")]


def test_no_heading_of_a_step_report_stands_with_nothing_under_it(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    routs = 0
    for history in histories:
        for _before, resolution in history:
            report = GAME.step_report(resolution.facts)
            lines = report.split("WHAT CHANGED")[0].strip("\n").splitlines()
            for index, here in enumerate(lines):
                after = lines[index + 1] if index + 1 < len(lines) else ""
                if here and not here.startswith(" "):
                    assert after.startswith("  "), report
            routs += "ROUT PHASE\n  - no unit is routed" in report
    assert routs, "no rout phase without routers was played"


def test_a_unit_that_only_turns_is_said_to_turn() -> None:
    from adjudicator.games.musket_and_pike.words.report import record_words

    turned = {"type": "move", "unit": "R-CAV-1", "path": [[1, 4]], "facing": 1}
    assert record_words(turned) == "R-CAV-1 turns to face NE"
    assert "nowhere" not in record_words(turned)


def test_an_answers_outcome_is_one_sentence_beside_the_step_report(
    histories: list[History],  # noqa: F811 (the fixture)
) -> None:
    # The step report tells what followed; the outcome says what the answer itself did, not a
    # log of the whole step ("stop: R-A stops; R-A has finished; rout phase; ...").
    seen = set()
    for history in histories:
        for _before, resolution in history:
            for outcome in resolution.outcomes:
                if outcome.code == "actions" and re.match(r"[A-Z]+-|NO ACTIONS", outcome.order):
                    assert re.fullmatch(r"\d+ unit actions? played|no unit acts", outcome.detail)
                    seen.add("actions")
                if outcome.code == "continuation" and outcome.order == "stop":
                    assert re.fullmatch(r"\S+ stops", outcome.detail), outcome
                    seen.add("stop")
    assert seen == {"actions", "stop"}, seen
