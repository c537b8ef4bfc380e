"""2 de Mayo data files: the board and the cards load, and every broken file fails loudly with
coded problems; setups add up; positions survive dump/load and damaged records are refused."""

from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources
from typing import Any

import pytest
from builders.games import problem_codes

from adjudicator.core.chance import Chance
from adjudicator.games.dos_de_mayo import GAME
from adjudicator.games.dos_de_mayo.board import BOARD_CODES, BoardError, board, load_board
from adjudicator.games.dos_de_mayo.board import parse_board as parse_board_data
from adjudicator.games.dos_de_mayo.cards import card_data, parse_card_data
from adjudicator.games.dos_de_mayo.codec import dump, load, read_position

PACKAGE = resources.files("adjudicator.games.dos_de_mayo")


def raw_board() -> dict[str, Any]:
    return tomllib.loads(PACKAGE.joinpath("board.toml").read_text(encoding="utf-8"))


def raw_cards() -> dict[str, Any]:
    return tomllib.loads(PACKAGE.joinpath("cards.toml").read_text(encoding="utf-8"))


def codes(raw: dict[str, Any]) -> set[str]:
    return problem_codes(parse_board_data(raw), BOARD_CODES, "board")


def test_the_board_of_the_reference() -> None:
    the_board = board()
    assert the_board.areas == tuple(str(n) for n in range(1, 22))
    assert the_board.gates == ("1", "6", "16", "20")
    assert the_board.main_streets == {"14", "15", "16"}
    assert the_board.neighbours["9"] == ("3", "4", "8", "11", "14", "15")
    assert the_board.stack_gate == {"OFF1": "1", "OFF6": "6", "OFF16": "16", "OFF20": "20"}
    for area, neighbours in the_board.neighbours.items():
        for neighbour in neighbours:
            assert area in the_board.neighbours[neighbour]
    assert the_board.rules.turns == 10 and the_board.rules.france_loss_limit == 4
    assert the_board.totals == {"france": 30, "spain": 10}


def test_one_way_adjacency() -> None:
    raw = raw_board()
    raw["areas"]["1"]["neighbours"].append("5")
    assert "one-way" in codes(raw)


def test_unknown_area_self_loop_and_duplicate() -> None:
    raw = raw_board()
    raw["areas"]["2"]["neighbours"] += ["99", "2", "3"]
    assert {"unknown-area", "self-loop", "duplicate-neighbour"} <= codes(raw)


def test_gate_and_main_street_must_be_areas() -> None:
    raw = raw_board()
    raw["board"]["gates"].append("22")
    raw["board"]["main_streets"].append("0")
    assert {"gate-not-area", "main-street-not-area"} <= codes(raw)


def test_disconnected_board() -> None:
    raw = raw_board()
    raw["areas"]["22"] = {"name": "Nowhere", "neighbours": []}
    assert "disconnected" in codes(raw)


def test_setup_must_add_up_and_name_areas() -> None:
    raw = raw_board()
    raw["setups"]["seed"]["france"]["10"] = 2
    raw["setups"]["alt"]["spain"]["30"] = 1
    assert {"setup-total", "setup-unknown-area"} <= codes(raw)


def test_stacks_rules_and_missing_keys() -> None:
    raw = raw_board()
    raw["stacks"]["OFF1"]["gate"] = "2"
    raw["rules"]["initiative_on_tie"] = "nobody"
    raw["rules"]["half_stays"] = "round"
    del raw["rules"]["turns"]
    assert {"stack-gate-not-gate", "bad-choice", "missing-key"} <= codes(raw)


def test_every_problem_is_reported_at_once() -> None:
    raw = raw_board()
    raw["areas"]["1"]["neighbours"].append("5")
    raw["board"]["gates"].append("22")
    with pytest.raises(BoardError) as error:
        load_board(_dump_toml(raw))
    assert {p.code for p in error.value.problems} >= {"one-way", "gate-not-area"}
    assert "one-way" in str(error.value)


def _dump_toml(raw: dict[str, Any]) -> str:
    """A tiny TOML writer for the board's shape (tables of strings, ints and lists)."""
    lines: list[str] = []

    def value(item: Any) -> str:
        return json.dumps(item, ensure_ascii=False)

    def table(prefix: str, data: dict[str, Any]) -> None:
        plain = {k: v for k, v in data.items() if not isinstance(v, dict)}
        nested = {k: v for k, v in data.items() if isinstance(v, dict)}
        if prefix:
            lines.append(f"[{prefix}]")
        lines.extend(f"{json.dumps(k)} = {value(v)}" for k, v in plain.items())
        for key, sub in nested.items():
            table(f"{prefix}.{json.dumps(key)}" if prefix else json.dumps(key), sub)

    table("", raw)
    return "\n".join(lines) + "\n"


def test_toml_writer_round_trips_the_good_board() -> None:
    assert load_board(_dump_toml(raw_board())) == board()


def test_the_cards_of_the_reference() -> None:
    data = card_data()
    assert len(data.cards) == 22
    assert len(data.deck("france")) == 11 and len(data.deck("spain")) == 11
    assert data.france_choice == ("F-ART", "F-MUR") and data.france_default == "F-ART"
    assert data.spain_start == ("S-MOL",)
    assert data.card("S-RUI").requires_any == ("S-MOS", "F-FUS")
    assert data.card("S-PRE").precedes == ("F-ART",)
    assert data.card("F-TOQ").earliest == data.card("F-TOQ").latest == 10
    assert data.card("F-MUR").earliest == 3
    windows = {card.id: card.window for card in data.cards}
    assert [c for c, w in windows.items() if w == "on-draw"] == ["F-COL", "F-SAQ", "F-DES"]
    assert data.aliases["mamelukes"] == "F-MAM" and data.aliases["presos"] == "S-PRE"


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda raw: raw["cards"][0].update(effect={"kind": "teleport"}), "effect.kind"),
        (lambda raw: raw["cards"][1].update(window="sometimes"), "window"),
        (lambda raw: raw["cards"][2].update(side="portugal"), "side"),
        (lambda raw: raw["cards"][3].update(id="F-ART"), "unique"),
        (lambda raw: raw["cards"][4].update(aliases=["murat"]), "alias"),
        (lambda raw: raw["cards"][5].update(requires_any=["X-NOPE"]), "unknown card"),
        (lambda raw: raw["cards"][6].update(earliest=9, latest=3), "earliest"),
        (lambda raw: raw["cards"].pop(), "checks"),
        (lambda raw: raw["start"].update(france_default="F-COL"), "france_default"),
        (lambda raw: raw["cards"][5].update(effect={"kind": "two_step"}), "two_step"),
        (lambda raw: raw["cards"][4]["target"].update(also=["99"]), "also"),
    ],
)
def test_broken_card_files_are_refused(change: Any, fragment: str) -> None:
    raw = copy.deepcopy(raw_cards())
    change(raw)
    problems = parse_card_data(raw)
    assert isinstance(problems, list)
    assert any(fragment in problem for problem in problems), problems


@pytest.mark.parametrize("setup", ["seed", "alt"])
def test_setups_place_every_unit(setup: str) -> None:
    state = GAME.new_game({"setup": setup}, Chance(b"s" * 32, "board-test", 0))
    for side, total in (("france", 30), ("spain", 10)):
        assert state.accounted(side) == total
    pairs = [a for a in board().areas if state.at("france", a) == 2]
    assert pairs == (["1", "6", "16", "20"] if setup == "seed" else ["1", "6", "11", "19"])
    assert state.hands.spain == ("S-MOL",) and state.hands.france == ()
    assert state.start_choice == ("F-ART", "F-MUR")
    assert len(state.decks.france) == 9 and len(state.decks.spain) == 10


def test_dump_load_and_damage() -> None:
    state = GAME.new_game({}, Chance(b"d" * 32, "board-test", 0))
    data = dump(state)
    assert load(json.loads(json.dumps(data))) == state
    broken = copy.deepcopy(data)
    broken["hands"]["spain"].append("S-MAN")  # now in two places
    with pytest.raises(ValueError, match="S-MAN is in 2 places"):
        load(broken)
    broken = copy.deepcopy(data)
    broken["areas"]["14"]["france"] = 5
    with pytest.raises(ValueError, match="france units add up"):
        load(broken)
    broken = copy.deepcopy(data)
    broken["schema"] = 99
    with pytest.raises(ValueError, match="schema"):
        load(broken)
    broken = copy.deepcopy(data)
    del broken["losses"]
    with pytest.raises(ValueError, match="losses is missing"):
        load(broken)


def test_case_positions_take_defaults_and_report_every_problem() -> None:
    position = read_position({"turn": 4, "areas": {"14": [2, 1]}})
    assert not isinstance(position, list)
    assert position.gone.france == 28 and position.gone.spain == 9
    assert len(position.decks.france) == 11
    problems = read_position(
        {"turn": 11, "areas": {"99": [1, 0], "14": [40, 0]}, "hands": {"spain": ["F-MAM"]}}
    )
    assert isinstance(problems, list)
    text = " ".join(problems)
    assert "turn must be" in text and "'99'" in text and "F-MAM is not a spain card" in text
    assert "france units add up to 40" in text
    wrong = read_position({"turn": 4, "losses": {"france": 1}, "initiative": "france"})
    assert isinstance(wrong, list) and "initiative is spain" in wrong[0]


def test_help_names_every_card_and_the_numbers() -> None:
    text = GAME.help_text()
    for card in card_data().cards:
        assert card.keyword in text
    assert "turn 3" in text and "2 groups" in text and "{" not in text
