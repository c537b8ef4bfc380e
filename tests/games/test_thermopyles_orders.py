"""The forgiving Thermopyles order parser: phrasing, receipts, rejections with suggestions."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from random import Random

import pytest

from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus, OrderReport
from adjudicator.games.thermopyles import GAME
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.orders import CODES
from adjudicator.games.thermopyles.state import Position, Settings, dump, load

ACCEPTED, REJECTED, IGNORED = LineStatus.ACCEPTED, LineStatus.REJECTED, LineStatus.IGNORED


def position(hand: Sequence[int], supports: int = 4, marker: int = 1) -> Position:
    data = card_data()
    rest = Counter(data.spartans) - Counter(hand)
    persians = [card.id for card in data.persians if card.id not in ("20b", "17b")]
    built = Position(
        settings=Settings("deck-empty", 5),
        spartan_deck=tuple(sorted(rest.elements())),
        hand=tuple(sorted(hand)),
        spartan_discard=(),
        persian_deck=tuple(persians),
        near="20b",
        far="17b",
        graveyard=(),
        persian_discard=(),
        marker=marker,
        supports=supports,
        turn=2,
    )
    return load(dump(built))


HAND = position([12, 15, 17, 19])
FULL = position([11, 12, 15, 17, 18, 19])  # one over the limit of 5


def parse(text: str, state: Position = HAND, seat: str = "spartans") -> OrderReport:
    return GAME.parse_orders(state, seat, text)


def fight(value: int, support: int = 0, discard: int | None = None) -> dict[str, object]:
    return {"discard": discard, "action": "fight", "value": value, "support": support}


def retreat(draw: bool = True, discard: int | None = None) -> dict[str, object]:
    return {"discard": discard, "action": "retreat", "draw": draw}


@pytest.mark.parametrize(
    ("text", "orders", "canonical"),
    [
        ("fight 17 support 1", fight(17, 1), "FIGHT 17 SUPPORT 1"),
        ("Fight with 17, support 2", fight(17, 2), "FIGHT 17 SUPPORT 2"),
        ("F 17 S 1", fight(17, 1), "FIGHT 17 SUPPORT 1"),
        ("FIGHT 17 +1", fight(17, 1), "FIGHT 17 SUPPORT 1"),
        ("FIGHT 17", fight(17), "FIGHT 17"),
        ("fight 17, 2 supports", fight(17, 2), "FIGHT 17 SUPPORT 2"),
        ("fight 19 without support", fight(19), "FIGHT 19"),
        ("Attack with 15!", fight(15), "FIGHT 15"),
        ("I'll fight with 12.", fight(12), "FIGHT 12"),
        ("retreat", retreat(), "RETREAT"),
        ("RETREAT NODRAW", retreat(False), "RETREAT NODRAW"),
        ("retreat no draw", retreat(False), "RETREAT NODRAW"),
        ("Retreat, but don't draw a card", retreat(False), "RETREAT NODRAW"),
        ("retreat no-draw", retreat(False), "RETREAT NODRAW"),
        ("r", retreat(), "RETREAT"),
        ("We retreat.", retreat(), "RETREAT"),
    ],
)
def test_accepted_phrasings(text: str, orders: dict[str, object], canonical: str) -> None:
    report = parse(text)
    assert report.orders == orders
    assert report.ok
    (line,) = report.lines
    assert (line.status, line.canonical, line.number) == (ACCEPTED, canonical, 1)


def test_greetings_and_signoffs_are_ignored_around_the_order() -> None:
    report = parse("Hi!\n\nFIGHT 17 SUPPORT 1\n\nThanks, good game so far.\n-- \nIvan\n> quoted 12")
    assert report.orders == fight(17, 1) and report.ok
    statuses = {line.number: line.status for line in report.lines}
    assert statuses == {1: IGNORED, 3: ACCEPTED, 5: IGNORED, 6: IGNORED, 7: IGNORED, 8: IGNORED}
    assert [line.reason for line in report.lines if line.number == 8] == ["quoted text"]
    assert all(line.number != 2 for line in report.lines)  # blank lines get no receipt


def test_a_second_action_is_ignored() -> None:
    report = parse("FIGHT 17\nRETREAT\nfight 99")
    assert report.orders == fight(17)
    assert [line.status for line in report.lines] == [ACCEPTED, IGNORED, IGNORED]
    assert "one action per mail" in (report.lines[1].reason or "")
    assert report.ok


def test_card_not_in_hand_suggests_the_nearest_card() -> None:
    report = parse("fight 16 support 1")
    assert report.orders is None and not report.ok
    (line,) = report.lines
    assert (line.status, line.code) == (REJECTED, "card-not-in-hand")
    assert "FIGHT 12|15|17|19 [SUPPORT 0-4]" in (line.reason or "")
    assert line.suggestion == "did you mean FIGHT 17 SUPPORT 1?"
    assert report.missing and "one action" in report.missing[0]


def test_misspelt_keyword_is_rejected_with_a_suggestion() -> None:
    (line,) = parse("FIHGT 17").lines
    assert (line.status, line.code, line.suggestion) == (
        REJECTED,
        "unknown-order",
        "did you mean FIGHT 17?",
    )
    (line,) = parse("retreta").lines
    assert (line.code, line.suggestion) == ("unknown-order", "did you mean RETREAT?")


def test_unknown_orders_and_bare_numbers() -> None:
    (line,) = parse("HOLD 17").lines
    assert (line.status, line.code) == (REJECTED, "unknown-order")
    (line,) = parse("18").lines
    assert (line.code, line.suggestion) == ("unknown-order", "did you mean FIGHT 19?")
    (line,) = parse("Turn 3").lines
    assert line.status is IGNORED


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("fight", "needs the value of a card"),
        ("fight 17 19", "one card per fight"),
        ("fight 17 support", "how many support"),
        ("discard", "exactly one card"),
    ],
)
def test_malformed_orders(text: str, reason_part: str) -> None:
    (line,) = parse(text, FULL if text == "discard" else HAND).lines
    assert (line.status, line.code) == (REJECTED, "malformed")
    assert reason_part in (line.reason or "")


def test_support_beyond_what_is_left() -> None:
    (line,) = parse("fight 17 support 3", position([17], supports=2)).lines
    assert (line.code, line.suggestion) == (
        "support-exceeds-left",
        "did you mean FIGHT 17 SUPPORT 2?",
    )
    assert "SUPPORT 0-2" in (line.reason or "")


def test_empty_hand_only_retreat() -> None:
    empty = position([])
    (line,) = parse("fight 17", empty).lines
    assert (line.code, line.suggestion) == ("empty-hand", "did you mean RETREAT?")
    assert parse("retreat", empty).orders == retreat()


def test_discard_when_over_the_limit() -> None:
    report = parse("DISCARD 12\nFIGHT 17 SUPPORT 1", FULL)
    assert report.orders == fight(17, 1, discard=12) and report.ok and report.missing == ()
    assert [line.canonical for line in report.lines] == ["DISCARD 12", "FIGHT 17 SUPPORT 1"]
    # The DISCARD may come after the action, or on the same line.
    assert parse("retreat\ndiscard 11", FULL).orders == retreat(discard=11)
    same_line = parse("Discard 12, fight 17", FULL)
    assert same_line.orders == fight(17, discard=12)
    assert same_line.lines[0].canonical == "DISCARD 12; FIGHT 17"


def test_no_discard_when_over_the_limit_names_the_card_that_goes() -> None:
    report = parse("fight 17", FULL)
    assert report.orders == fight(17) and report.ok
    assert report.missing and "lowest card (11)" in report.missing[0]
    assert "lowest card (11)" in (report.lines[0].reason or "")
    # Fighting with the lowest card protects it: the next lowest goes.
    assert "lowest card (12)" in parse("fight 11", FULL).missing[0]


def test_discard_problems() -> None:
    (line,) = parse("discard 12\nretreat").lines[:1]
    assert (line.code, line.status) == ("no-discard-needed", REJECTED)
    report = parse("discard 13\nretreat", FULL)
    assert report.lines[0].code == "card-not-in-hand"
    assert report.lines[0].suggestion == "did you mean DISCARD 12?"
    assert report.orders == retreat()  # the action stands; the lowest card will go
    twice = parse("discard 12\ndiscard 15\nretreat", FULL)
    assert [line.status for line in twice.lines] == [ACCEPTED, IGNORED, ACCEPTED]
    assert twice.orders == retreat(discard=12)


def test_discarding_the_only_copy_of_the_fighting_card() -> None:
    report = parse("discard 17\nfight 17", FULL)
    assert report.lines[1].code == "card-not-in-hand"
    assert "once the DISCARD is taken" in (report.lines[1].reason or "")
    assert report.orders is None


def test_rejected_line_then_a_good_one() -> None:
    report = parse("fight 16\nfight 17")
    assert [line.status for line in report.lines] == [REJECTED, ACCEPTED]
    assert report.orders == fight(17) and not report.ok


def test_game_over_and_wrong_seat() -> None:
    over = replace(HAND, status="lost", end_reason="front")
    report = parse("fight 17\nthanks", over)
    assert report.orders is None and report.lines[0].code == "game-over"
    assert report.lines[1].status is IGNORED
    assert parse("fight 17", seat="persians").lines[0].code == "unknown-seat"


def test_every_legal_order_text_parses_back_to_itself() -> None:
    for state in (HAND, FULL, position([])):
        for orders in GAME.legal_orders(state, "spartans"):
            text = "\n".join(
                part
                for part in (
                    f"DISCARD {orders['discard']}" if orders["discard"] is not None else "",
                    f"FIGHT {orders['value']} SUPPORT {orders['support']}"
                    if orders["action"] == "fight"
                    else ("RETREAT" if orders["draw"] else "RETREAT NODRAW"),
                )
                if part
            )
            assert parse(text, state).orders == orders, text


def test_pending_decision() -> None:
    decision = GAME.pending(FULL)["spartans"]
    assert decision.default == "RETREAT"
    assert decision.legal[0].startswith("DISCARD 11|12|15|17|18|19")
    assert "FIGHT 19 [SUPPORT 0-4]" in decision.legal
    assert "RETREAT NODRAW" in decision.legal
    assert "11, 12, 15, 17, 18, 19" in decision.prompt


def test_support_count_in_words() -> None:
    assert parse("fight 17 support two").orders == fight(17, 2)
    assert parse("One more thing: thanks").orders is None
    assert parse("One more thing: thanks").lines[0].status is IGNORED


def test_half_good_line_is_rejected_but_says_what_was_taken() -> None:
    report = parse("discard 99 fight 17", FULL)
    (line,) = report.lines
    assert (line.status, line.code) == (REJECTED, "card-not-in-hand")
    assert "taken from this line: FIGHT 17" in (line.reason or "")
    assert report.orders == fight(17) and not report.ok


def test_rejection_codes_come_from_the_closed_set() -> None:
    mails = [
        "fight 99",
        "fight 17 support 9",
        "discard 12",
        "FIHGT 17",
        "fight",
        "HOLD 3",
        "17",
        "fight 17 18",
    ]
    codes = {
        line.code
        for text in mails
        for state in (HAND, FULL, position([]), replace(HAND, status="won"))
        for line in parse(text, state).lines
        if line.status is REJECTED
    }
    assert codes <= set(CODES)
    assert codes >= {"card-not-in-hand", "support-exceeds-left", "empty-hand", "game-over"}
    assert codes >= {"no-discard-needed", "unknown-order", "malformed"}


def _offered_lines(forms: Sequence[str]) -> list[str]:
    """Each choice the mail's list names, written out alone: "FIGHT 3|5 [SUPPORT 0-2]" gives
    FIGHT 3, FIGHT 3 SUPPORT 2, FIGHT 5 and so on."""
    lines = []
    for form in forms:
        bare = re.sub(r"\s*\(.*\)", "", form)
        found = re.fullmatch(r"(DISCARD|FIGHT) (\d+(?:\|\d+)*)(?: \[SUPPORT 0-(\d+)\])?", bare)
        if found is None:
            lines.append(bare)
            continue
        word, values, most = found.groups()
        for value in values.split("|"):
            lines += [f"{word} {value}"]
            if most:
                lines += [
                    f"{word} {value} SUPPORT {support}" for support in range(1, int(most) + 1)
                ]
    return lines


@pytest.mark.parametrize("seed", range(12))
def test_the_list_offers_what_the_rules_accept_and_every_legal_action(seed: int) -> None:
    """Over a seeded play-out: every choice the list offers, mailed alone (a DISCARD with the
    fight it comes before), is accepted, and every legal fight or retreat is on the list."""
    pick = Random(seed)
    state = GAME.new_game({}, Chance(bytes([seed]), "list", 0))
    for turn in range(1, 60):
        if state.over:
            break
        offered = _offered_lines(GAME.pending(state)["spartans"].legal)
        fight = next(line for line in offered if line.startswith(("FIGHT", "RETREAT")))
        for line in offered:
            text = f"{line}\n{fight}" if line.startswith("DISCARD") else line
            report = GAME.parse_orders(state, "spartans", text)
            assert report.ok, (text, [entry.reason for entry in report.lines])
        legal = list(GAME.legal_orders(state, "spartans"))
        for action in legal:
            if action.get("discard") is None:
                assert action_line(action) in offered, (action, offered)
        state = GAME.resolve(
            state, {"spartans": pick.choice(legal)}, Chance(bytes([seed]), "list", turn)
        ).state
    assert state.over or turn == 59


def action_line(action: dict[str, object]) -> str:
    """A legal action as the list writes it (SUPPORT 0 is the plain FIGHT)."""
    if action["action"] == "retreat":
        return "RETREAT" if action.get("draw", True) else "RETREAT NODRAW"
    support = action.get("support") or 0
    return f"FIGHT {action['value']}" + (f" SUPPORT {support}" if support else "")
