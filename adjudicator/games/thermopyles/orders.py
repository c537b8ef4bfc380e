"""The forgiving order parser: a receipt for every line of a mail, and at most one action.

Lines are read by ``grammar`` (through ``core.lines``, which sets chat and quoted text aside);
here they are checked against the position. A mail carries one action (the next is decided after
the player sees this one's result) and, when the hand is over the limit, one DISCARD. Every
rejection names what is legal now and, where we can, a fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from adjudicator.core import said
from adjudicator.core.contract import LineReport, LineStatus, OrderReport
from adjudicator.core.lines import Complaint, by_number, read_mail
from adjudicator.core.said import N_, _
from adjudicator.games.thermopyles import grammar
from adjudicator.games.thermopyles.actions import Action
from adjudicator.games.thermopyles.rules import (
    Problem,
    auto_discards,
    check,
    check_discard,
    excess,
    game_over,
    without,
)
from adjudicator.games.thermopyles.state import SEAT, Position

# The closed set of rejection codes a line report may carry.
CODES = (
    "card-not-in-hand",
    "support-exceeds-left",
    "empty-hand",
    "no-discard-needed",
    "unknown-order",
    "malformed",
    "game-over",
    "unknown-seat",
)
ONE_ACTION = N_("one action per mail; the next is decided after you see this one's result")


@dataclass(frozen=True)
class _Verdict:
    """What became of one order on a line."""

    status: LineStatus
    canonical: str | None = None  # accepted
    problem: Problem | None = None  # rejected
    note: str | None = None  # ignored: why


@dataclass
class _Line:
    number: int
    text: str
    readings: list[grammar.Reading]
    verdicts: list[_Verdict] = field(default_factory=list)  # one per reading, by _check_lines


def legal_summary(position: Position) -> str:
    """What is legal now, in one short phrase for rejection reasons (the order forms canonical,
    the words around them in the reader's language)."""
    if position.over:
        return _("nothing: the game is over")
    if not position.hand:
        return _("legal now: RETREAT [NODRAW]")
    cards = "|".join(str(v) for v in sorted(set(position.hand)))
    support = f" [SUPPORT 0-{position.supports}]" if position.supports else ""
    if excess(position):
        return _(
            "legal now: DISCARD %(cards)s first, FIGHT %(cards)s%(support)s, RETREAT [NODRAW]",
            cards=cards,
            support=support,
        )
    return _(
        "legal now: FIGHT %(cards)s%(support)s, RETREAT [NODRAW]", cards=cards, support=support
    )


def _nearest(hand: tuple[int, ...], wanted: int) -> int | None:
    # Closest value; on a tie the stronger card, since a fight is what the player had in mind.
    return min(set(hand), key=lambda v: (abs(v - wanted), -v), default=None)


def _suggest(position: Position, hand: tuple[int, ...], reading: grammar.Reading) -> str | None:
    """A 'did you mean' for a reading that failed, built from what would be legal."""
    kind = reading.keyword if isinstance(reading, grammar.Complaint) else reading.kind
    numbers = (
        reading.numbers
        if isinstance(reading, grammar.Complaint)
        else tuple(n for n in (reading.value,) if n is not None)
    )
    support = min(reading.support, position.supports) if isinstance(reading, grammar.Parsed) else 0
    if kind == "retreat":
        return _("did you mean %(order)s?", order="RETREAT")
    if kind == "discard" and excess(position):
        card = _nearest(position.hand, numbers[0] if numbers else 0)
        order = f"DISCARD {card}"
        return None if card is None else _("did you mean %(order)s?", order=order)
    if kind == "fight":
        if not hand:
            return _("did you mean %(order)s?", order="RETREAT")
        card = _nearest(hand, numbers[0] if numbers else max(hand))
        extra = f" SUPPORT {support}" if support else ""
        order = f"FIGHT {card}{extra}"
        return _("did you mean %(order)s?", order=order)
    return None


def _action(reading: grammar.Parsed, discard: int | None) -> Action:
    if reading.kind == "retreat":
        return Action("retreat", draw=reading.draw, discard=discard)
    return Action("fight", value=reading.value, support=reading.support, discard=discard)


def parse_orders(position: Position, seat: str, text: str) -> OrderReport:
    mail = read_mail(text, _read)
    # A line refused before the grammar saw it (an overlong number) is judged with the rest, so
    # its reason names what is legal now, as every refused line's does.
    refused = [_Line(n.number, n.text, [_complaint(n.reading)]) for n in mail.refused]
    lines = sorted(refused + [_Line(n.number, n.text, n.reading) for n in mail.read], key=_place)
    reports = list(mail.ignored)
    action, discard = _check_lines(position, seat, lines)
    note = None if action is None else _auto_discard_note(position, action.value, discard)
    for line in lines:
        reports.append(_report(position, line, discard, note))
    reports.sort(key=by_number)
    if action is None:
        missing = _("one action (%(legal)s)", legal=legal_summary(position))
        return OrderReport(tuple(reports), None, (missing,))
    orders = replace(action, discard=discard).to_json()
    return OrderReport(tuple(reports), orders, () if note is None else (note,))


def _read(raw: str) -> list[grammar.Reading] | None:
    return grammar.segments(raw.strip())


def _complaint(complaint: Complaint) -> grammar.Complaint:
    return grammar.Complaint(complaint.code, complaint.reason)


def _place(line: _Line) -> int:
    return line.number


def _fatal(position: Position, seat: str) -> Problem | None:
    """A problem that rejects every order line of the mail, whatever it says."""
    if seat != SEAT:
        reason = _(
            "this game has one seat, %(seat)s, not %(given)s", seat=repr(SEAT), given=repr(seat)
        )
        return Problem("unknown-seat", reason)
    if position.over:
        return game_over()
    return None


def _check_lines(
    position: Position, seat: str, lines: list[_Line]
) -> tuple[Action | None, int | None]:
    """Give every reading a verdict. The first good DISCARD counts wherever it stands (the action
    is checked against the hand after it); then the first good action counts."""
    fatal = _fatal(position, seat)
    taken: grammar.Reading | None = None
    for line in lines:
        for reading in line.readings:
            if (
                isinstance(reading, grammar.Parsed)
                and reading.kind == "discard"
                and taken is None
                and fatal is None
                and reading.value is not None
                and check_discard(position, reading.value) is None
            ):
                taken = reading
    discard = taken.value if isinstance(taken, grammar.Parsed) else None
    action: Action | None = None
    for line in lines:
        for reading in line.readings:
            verdict = _verdict(position, reading, fatal, discard, taken, action)
            line.verdicts.append(verdict)
            if (
                action is None
                and verdict.status is LineStatus.ACCEPTED
                and isinstance(reading, grammar.Parsed)
                and reading.kind != "discard"
            ):
                action = _action(reading, None)
    return action, discard


def _verdict(
    position: Position,
    reading: grammar.Reading,
    fatal: Problem | None,
    discard: int | None,
    taken: grammar.Reading | None,
    action: Action | None,
) -> _Verdict:
    if fatal is not None:
        return _Verdict(LineStatus.REJECTED, problem=fatal)
    if isinstance(reading, grammar.Complaint):
        return _Verdict(LineStatus.REJECTED, problem=Problem(reading.code, reading.reason))
    if reading.kind == "discard":
        if reading is taken:
            return _Verdict(LineStatus.ACCEPTED, canonical=f"DISCARD {discard}")
        problem = check_discard(position, reading.value or 0)
        if problem is not None:
            return _Verdict(LineStatus.REJECTED, problem=problem)
        note = _("one DISCARD per turn; %(card)s is the one discarded", card=discard)
        return _Verdict(LineStatus.IGNORED, note=note)
    if action is not None:
        return _Verdict(LineStatus.IGNORED, note=_(ONE_ACTION))
    candidate = _action(reading, discard)
    problem = check(position, candidate)
    if problem is not None:
        return _Verdict(LineStatus.REJECTED, problem=problem)
    return _Verdict(LineStatus.ACCEPTED, canonical=candidate.action_text())


def _auto_discard_note(position: Position, played: int | None, discard: int | None) -> str | None:
    over = excess(position)
    if not over or discard is not None:
        return None
    lost = auto_discards(position.hand, played, over)
    return _(
        "DISCARD: your hand holds %(held)s cards, over the limit of %(limit)s; with no DISCARD "
        "line your lowest card (%(cards)s) will be discarded",
        held=len(position.hand),
        limit=position.settings.hand_limit,
        cards=", ".join(str(card) for card in lost),
    )


def _report(position: Position, line: _Line, discard: int | None, note: str | None) -> LineReport:
    """One receipt per line: rejected if any order on it failed, else accepted if any counted."""
    accepted = [v.canonical for v in line.verdicts if v.canonical is not None]
    notes = [v.note for v in line.verdicts if v.note is not None]
    for reading, verdict in zip(line.readings, line.verdicts, strict=True):
        problem = verdict.problem
        if problem is None:
            continue
        hand = position.hand if discard is None else without(position.hand, discard)
        suggestion = None
        if problem.code not in ("game-over", "unknown-seat", "no-discard-needed"):
            suggestion = _suggest(position, hand, reading)
        legal = legal_summary(position)
        if accepted:  # "DISCARD 99 FIGHT 17": the good half of the line still counts
            reason = _(
                "%(problem)s; %(legal)s; taken from this line: %(taken)s",
                problem=problem.reason,
                legal=legal,
                taken="; ".join(accepted),
            )
        else:
            reason = _("%(problem)s; %(legal)s", problem=problem.reason, legal=legal)
        return LineReport(
            line.number,
            line.text,
            LineStatus.REJECTED,
            code=problem.code,
            reason=reason,
            suggestion=suggestion,
        )
    if not accepted:
        return LineReport(line.number, line.text, LineStatus.IGNORED, reason=said.joined(notes))
    if note and any(not text.startswith("DISCARD") for text in accepted):
        notes.append(note)
    return LineReport(
        line.number,
        line.text,
        LineStatus.ACCEPTED,
        canonical="; ".join(accepted),
        reason=said.joined(notes) if notes else None,
    )
