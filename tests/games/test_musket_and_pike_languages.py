"""Musket & Pike in the reader's language: the position in words, the decisions owed, a receipt's
reasons and a resolved step's outcomes and report are written in Spanish and Russian where the
service holds that reader's language (``i18n.speaking``), and a sentence made at resolve time in
English is written anew in each reader's; English stays as it was."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from adjudicator import i18n
from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.core.said import anew
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.musket_and_pike.state import Position

GAME = MusketAndPike()
OPTIONS = {"scenario": "skirmish"}
SEED = b"l" * 32

# Words of the English sentences converted: none may be left in a translated text. The canonical
# order forms (MOVE, DEFAULT ROUTS, activate R-A...) and the ids, kinds and names stay.
ENGLISH = (
    "Turn",
    "turn",
    "wing",
    "Wing",
    "unit",
    "lost",
    "withdraws",
    "commander",
    "facing",
    "morale",
    "rating",
    "initiative",
    "phase",
    "handed",
    "secret",
    "none yet",
    "is not",
    "there is no",
    "moves",
    "fires",
    "passes",
    "fails",
    "STEP",
    "WHAT CHANGED",
    "needs",
    "or less",
    "begins",
    "finished",
    "activation",
    "activates",
    "Decision",
    "Result",
    "owed",
    "the",
    "and",
    "with",
    "your",
    "you",
    "each",
    "of",
    "to",
    "try",
    "order",
    "orders",
    "hex",
    "hexes",
    "path",
    "close combat",
    "enemy",
    "army",
    "Army",
    "revealed",
    "stops",
    "changes",
    "gains",
    "success",
    "failure",
)
WORD = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in ENGLISH))


def english_left(text: str) -> list[str]:
    return sorted(set(WORD.findall(text)))


def opening() -> Position:
    return GAME.new_game(OPTIONS, Chance(SEED, "t", 0))


def played(steps: int = 60) -> list[tuple[Position, Any]]:
    """A random legal play-out in English (as a turn is resolved, with no reader's language):
    every (state before, resolution) pair."""
    choose = random.Random(7)
    state = opening()
    history = []
    for number in range(1, steps):
        pending = GAME.pending(state)
        if not pending:
            break
        orders = {s: choose.choice(list(GAME.legal_orders(state, s))) for s in sorted(pending)}
        resolution = GAME.resolve(state, orders, Chance(SEED, "t", number))
        history.append((state, resolution))
        state = resolution.state
    return history


def _texts_of_the_opening() -> list[str]:
    state = opening()
    texts = [GAME.describe(GAME.view(state, seat)) for seat in (*GAME.seats, None)]
    for decision in GAME.pending(state).values():
        texts += [decision.prompt, decision.brief]
    return texts


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_opening_position_and_prompts_are_in_the_readers_language(lang: str) -> None:
    with i18n.speaking(lang):
        texts = _texts_of_the_opening()
    for text in texts:
        assert text and english_left(text) == [], text
    english = _texts_of_the_opening()
    assert "Decision owed by" in english[0] and "Turn 1 of" in english[0]
    assert "secret orders for each of your wings" in " ".join(english)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_prompt_made_in_english_is_written_anew(lang: str) -> None:
    state = opening()
    made = GAME.pending(state)["royalist"]
    view = GAME.view(state, "royalist")
    with i18n.speaking(lang):
        assert english_left(anew(made.prompt)) == []
        assert english_left(anew(made.brief)) == []
        assert english_left(GAME.describe(view)) == []


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_receipts_rejected_lines_give_their_reasons_in_the_readers_language(lang: str) -> None:
    state = opening()
    mail = "ORDERS R-A=charge R-Q=rally\nR-A fly\nP-A charge\nSTANDING PREEMPT NEVER\n"
    english = GAME.parse_orders(state, "royalist", mail)
    with i18n.speaking(lang):
        report = GAME.parse_orders(state, "royalist", mail)
        again = [anew(line.reason) for line in english.lines if line.reason]
        missing = [anew(note) for note in english.missing]
    rejected = [line for line in report.lines if line.status is LineStatus.REJECTED]
    assert rejected and all(line.reason for line in rejected)
    for line in report.lines:
        if line.reason:
            assert english_left(line.reason) == [], line
    for text in (*again, *missing, *report.missing):
        assert english_left(text) == [], text
    # The canonical forms are the same in every language: the archive and the other side read them.
    assert [line.canonical for line in report.lines] == [line.canonical for line in english.lines]
    assert [line.suggestion for line in report.lines] == [line.suggestion for line in english.lines]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_resolved_steps_outcomes_and_report_are_written_anew(lang: str) -> None:
    history = played()
    assert len(history) > 10
    with i18n.speaking(lang):
        for _state, resolution in history:
            for outcome in resolution.outcomes:
                detail = anew(outcome.detail)
                assert english_left(detail) == [], (outcome, detail)
            report = GAME.step_report(resolution.facts)
            assert english_left(report) == [], report
            summary = anew(GAME.outcome(resolution.state).summary)
            assert english_left(summary) == [], summary
    # English is the text as written.
    reports = "\n".join(GAME.step_report(r.facts) for _s, r in history)
    assert "STEP:" in reports and "WHAT CHANGED" in reports and "d10 for" in reports


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_step_resolved_in_the_readers_language_is_in_it(lang: str) -> None:
    choose = random.Random(3)
    state = opening()
    with i18n.speaking(lang):
        for number in range(1, 40):
            pending = GAME.pending(state)
            if not pending:
                break
            for decision in pending.values():
                assert english_left(decision.prompt) == [], decision
            orders = {s: choose.choice(list(GAME.legal_orders(state, s))) for s in sorted(pending)}
            resolution = GAME.resolve(state, orders, Chance(SEED, "u", number))
            for outcome in resolution.outcomes:
                assert english_left(outcome.detail) == [], outcome
            assert english_left(GAME.step_report(resolution.facts)) == []
            state = resolution.state
            assert english_left(GAME.describe(GAME.view(state, None))) == []
