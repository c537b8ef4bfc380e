"""The forgiving 2 de Mayo order parser: phrasing, receipts, suggestions, what is missing, ADD."""

from __future__ import annotations

from typing import Any

import pytest
from builders.games import dos_de_mayo_midgame
from builders.games import dos_de_mayo_position as position

from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus, OrderReport
from adjudicator.core.refusal import Refusal
from adjudicator.games.dos_de_mayo import GAME
from adjudicator.games.dos_de_mayo.checks import CODES
from adjudicator.games.dos_de_mayo.grammar import Complaint, read_line
from adjudicator.games.dos_de_mayo.orders import Aim, Draw, Hold, Move, Play, Take
from adjudicator.games.dos_de_mayo.state import Position

ACCEPTED, REJECTED, IGNORED = LineStatus.ACCEPTED, LineStatus.REJECTED, LineStatus.IGNORED


MIDGAME = dos_de_mayo_midgame("S-BAR", "S-RIS")


def parse(text: str, seat: str = "france", state: Position = MIDGAME) -> OrderReport:
    return GAME.parse_orders(state, seat, text)


@pytest.mark.parametrize(
    ("line", "reading"),
    [
        ("9-14", Move(("9", "14"))),
        ("9 - 14", Move(("9", "14"))),
        ("9->14", Move(("9", "14"))),
        ("9 → 14", Move(("9", "14"))),
        ("9 — 14", Move(("9", "14"))),
        ("9 to 14", Move(("9", "14"))),
        ("move 9 14", Move(("9", "14"))),
        ("16-12 x2", Move(("16", "12"), 2)),
        ("16-12 X 2", Move(("16", "12"), 2)),
        ("16-12 (2)", Move(("16", "12"), 2)),
        ("16-12 2 units", Move(("16", "12"), 2)),
        ("16-12 ×2", Move(("16", "12"), 2)),
        ("OFF1-1 x5", Move(("OFF1", "1"), 5)),
        ("off 1 - 1", Move(("OFF1", "1"))),
        ("ENTER 6 x3", Move(("OFF6", "6"), 3)),
        ("Puerta del Sol - Plaza Mayor", Move(("14", "17"))),
        ("sol to calle mayor", Move(("14", "15"))),
        ("16 12 x2", Move(("16", "12"), 2)),
        ("HOLD 9", Hold("9")),
        ("9 holds", Hold("9")),
        ("PLAY MAMELUKES 16-14-9 x2", Play("F-MAM", move=Move(("16", "14", "9"), 2))),
        ("play carga de los mamelucos 16-14-9", Play("F-MAM", move=Move(("16", "14", "9")))),
        ("Play Cuirassiers 14", Play("F-COR", target="14")),
        ("PLAY S-MOL 20", Play("S-MOL", target="20")),
        ("PLAY BANDO OFF6", Play("F-BAN", move=Move(("OFF6", "6")))),
        ("PLAY PROCLAMATION 6 x2", Play("F-BAN", move=Move(("OFF6", "6"), 2))),
        ("play Mayor of Móstoles", Play("S-MOS")),
        ("ARTILLERY 14", Aim("F-ART", "14")),
        ("artillería 14", Aim("F-ART", "14")),
        ("TAKE MURAT", Take("F-MUR")),
        ("take marshal murat", Take("F-MUR")),
        ("DRAW", Draw(True)),
        ("NODRAW", Draw(False)),
        ("no draw", Draw(False)),
        ("don't draw", Draw(False)),
    ],
)
def test_forgiving_forms(line: str, reading: Any) -> None:
    assert read_line(line) == reading


@pytest.mark.parametrize(
    ("line", "code", "hint"),
    [
        ("9-22", "unknown-area", "did you mean 15?"),
        ("Puerta del Sool - 12", "unknown-area", "did you mean 14 (Puerta del Sol)?"),
        ("PLAY MAMLUKES 16-14-9", "unknown-card", "did you mean PLAY MAMELUKES 16-14-9?"),
        ("PALY CUIRASSIERS 14", "unknown-order", "did you mean PLAY CUIRASSIERS 14?"),
        ("mamelukes 16-14-9", "unknown-order", "did you mean PLAY MAMELUKES 16-14-9?"),
        ("PLAY MAMELUKES 16-14", "malformed", None),
        ("PLAY CUIRASSIERS", "malformed", None),
        ("ARTILLERY", "malformed", "PLAY ARTILLERY"),
        ("9", "unknown-order", None),
        ("ENTER 5", "not-own-gate", None),
    ],
)
def test_complaints_and_suggestions(line: str, code: str, hint: str | None) -> None:
    reading = read_line(line)
    assert isinstance(reading, Complaint)
    assert reading.code == code
    if hint is not None:
        assert reading.suggestion is not None and hint in reading.suggestion


@pytest.mark.parametrize(
    "line", ["Hello Spain,", "Thanks for the game!", "Regards, Joaquín", "> 9-14", "Turn 4 orders:"]
)
def test_chatter_is_not_an_order(line: str) -> None:
    assert read_line(line) is None


def test_receipts_line_by_line() -> None:
    report = parse(
        "Hello Spain,\n\n16-14\nPLAY MAMELUKES 1-2-3\n9-22\n> old line\nPLAY CUIRASSIERS 14\n"
        "ARTILLERY 14\n6-5\n1-11\nNODRAW\nCheers"
    )
    by_line = {line.number: line for line in report.lines}
    assert by_line[1].status is IGNORED and by_line[1].reason == "not an order"
    assert by_line[3].status is ACCEPTED and by_line[3].canonical == "16-14 x3"
    assert by_line[4].canonical == "PLAY MAMELUKES 1-2-3 x2"
    assert by_line[5].status is REJECTED and by_line[5].code == "unknown-area"
    assert by_line[6].status is IGNORED and by_line[6].reason == "quoted text"
    assert by_line[7].canonical == "PLAY CUIRASSIERS 14"
    assert by_line[8].canonical == "ARTILLERY 14"
    assert by_line[9].canonical == "6-5 x2"
    assert by_line[10].status is REJECTED and by_line[10].code == "too-many-units"
    assert by_line[11].canonical == "NODRAW"
    assert by_line[12].status is IGNORED
    assert report.orders == {
        "add": False,
        "take": None,
        "plays": [
            {"card": "F-MAM", "target": None, "move": {"path": ["1", "2", "3"], "units": 2}},
            {"card": "F-COR", "target": "14", "move": None},
        ],
        "aims": {"F-ART": "14"},
        "moves": [{"path": ["16", "14"], "units": 3}, {"path": ["6", "5"], "units": 2}],
        "draw": False,
    }
    assert all(line.code in CODES for line in report.rejected)
    assert all(line.reason for line in report.rejected)


def test_rejections_say_why_and_suggest() -> None:
    report = parse("16-9\n14-15\n1-2\n6-5\nOFF1-1")
    codes = [(line.text, line.code) for line in report.lines]
    assert codes == [
        ("16-9", "not-adjacent"),
        ("14-15", "pinned"),
        ("1-2", None),
        ("6-5", None),
        ("OFF1-1", "group-limit"),
    ]
    first = report.lines[0]
    assert first.suggestion == "did you mean 16-8?" and "16 borders 7, 8, 12, 14, 19" in (
        first.reason or ""
    )
    assert "2 groups" in (report.lines[4].reason or "")


def test_spanish_rules_on_receipt() -> None:
    report = parse("9-14 x1\n9-8\n4-5\nPLAY MAMELUKES 9-14-15\n14-17", seat="spain")
    assert [line.code for line in report.lines] == [
        "spain-no-split",
        None,
        None,
        "wrong-side",
        None,
    ]
    assert report.orders is not None
    assert report.orders["moves"] == [
        {"path": ["9", "8"], "units": None},
        {"path": ["4", "5"], "units": None},
        {"path": ["14", "17"], "units": None},
    ]


def test_rise_makes_spanish_counts_explicit() -> None:
    report = parse("PLAY RISE 9\n9-14 x1\n9-8", seat="spain")
    assert [line.canonical for line in report.lines] == ["PLAY RISE 9", "9-14 x1", "9-8 x1"]


def test_missing_says_what_defaults_will_do() -> None:
    start = GAME.new_game({}, Chance(b"m" * 32, "orders-test", 0))
    report = GAME.parse_orders(start, "france", "16-14")
    assert report.missing[0].startswith("TAKE ARTILLERY or TAKE MURAT")
    assert any("DRAW or NODRAW" in note for note in report.missing)
    assert any("no orders for the groups in 1, 6, 10, 20" in note for note in report.missing)
    aimed = parse("16-14\nDRAW")
    assert any(note.startswith("ARTILLERY <area>") for note in aimed.missing)


def test_add_flag_only_first() -> None:
    first = parse("ADD\n16-14")
    assert first.orders is not None and first.orders["add"] is True
    later = parse("16-14\nADD")
    assert later.orders is not None and later.orders["add"] is False
    assert later.lines[1].status is IGNORED


def test_no_order_lines_means_no_order_set() -> None:
    report = parse("Hi!\nSee you.")
    assert report.orders is None and not report.rejected
    refused = parse("9-22")
    assert refused.orders is None and refused.rejected


def test_game_over_and_unknown_seat() -> None:
    over = position(status="over", winner="spain", last_turn=4, end_reason="loss-limit")
    report = GAME.parse_orders(over, "france", "16-14\nhello")
    assert report.orders is None
    assert [line.code for line in report.lines] == ["game-over", None]
    stranger = GAME.parse_orders(MIDGAME, "portugal", "16-14")
    assert stranger.orders is None and stranger.lines[0].code == "unknown-seat"


def test_canonical_text_reads_back_to_the_same_orders() -> None:
    for seat in GAME.seats:
        for orders in GAME.legal_orders(MIDGAME, seat):
            from adjudicator.games.dos_de_mayo.orders import order_set_from_json

            order_set = order_set_from_json(orders)
            assert not isinstance(order_set, Refusal)
            again = GAME.parse_orders(MIDGAME, seat, "\n".join(order_set.lines()))
            assert again.orders == orders
            assert not again.rejected


def test_the_default_text_is_the_default_orders() -> None:
    start = GAME.new_game({}, Chance(b"q" * 32, "orders-test", 0))
    decisions = GAME.pending(start)
    assert decisions["france"].default == "TAKE ARTILLERY\nDRAW"
    assert decisions["spain"].default == "DRAW"
    for seat, decision in decisions.items():
        assert GAME.parse_orders(start, seat, decision.default).orders == GAME.default_orders(
            start, seat
        )
    assert any(form.startswith("TAKE ARTILLERY|MURAT") for form in decisions["france"].legal)


def test_a_card_that_changes_the_group_limit_is_named_where_the_limit_is_stated() -> None:
    """Looting, drawn this turn, sets France's limit at 1: both the list of what France may
    order and the refusal of a second group say so, and why."""
    from dataclasses import replace

    from adjudicator.games.dos_de_mayo.open_orders import forms

    looted = replace(MIDGAME, turn_effects=("F-SAQ",))
    shown = forms(looted, "france")
    assert any("may move 1 group outside the main streets" in line for line in shown), shown
    assert shown[-1] == "(Looting sets the limit at 1 this turn, not 2)", shown
    report = parse("1-2\n6-5", state=looted)
    assert report.lines[1].code == "group-limit"
    assert str(report.lines[1].reason).endswith(
        "(1 already): Looting sets it at 1 this turn, not 2"
    )
    # Without the card the limit is the usual one and nothing is added.
    assert not any("sets the limit" in line for line in forms(MIDGAME, "france"))
    assert "sets it at" not in str(parse("1-2\n6-5\n9-8").lines[1].reason or "")
