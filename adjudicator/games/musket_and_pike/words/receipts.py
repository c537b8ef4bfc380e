"""Judging a whole mail against the decision owed: each line's reading (``grammar``) becomes a
receipt line, accepted, refused with a code and a reason, or ignored, and the accepted lines
become the order set the game resolves. Unit actions are tried by a dry run with dice of no
game, so a line is refused only for a fault every roll shares.
"""

from __future__ import annotations

import re
from dataclasses import replace

from adjudicator.core import suggest
from adjudicator.core.contract import Decision, LineReport, LineStatus, OrderReport
from adjudicator.core.lines import MailLines
from adjudicator.core.lines import read_mail as read_lines
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.rules import decisions, sequence, standing
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.decisions import (
    ChangeOrder,
    SetupOrders,
)
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.games.musket_and_pike.words.grammar import read_line
from adjudicator.games.musket_and_pike.words.lexicon import Names
from adjudicator.games.musket_and_pike.words.order_set import (
    PATH_STEPS,
    UNIT_STEPS,
    Mail,
    missing,
    order_set,
    unit_orders,
)
from adjudicator.games.musket_and_pike.words.readings import (
    GRAMMAR_CODES,
    ActionCheck,
    AnswerLine,
    NoActions,
    Reading,
    StandingLine,
    UnitLine,
    WingOrders,
)
from adjudicator.games.musket_and_pike.words.standing_words import MEANING

# The receipts' own codes, beside GRAMMAR_CODES: why a well-formed line is refused now.
RECEIPT_CODES = ("no-decision", "not-now", "not-yours", "illegal", "duplicate")
CODES = GRAMMAR_CODES + RECEIPT_CODES
# A unit named at such a step that is not the one (or among those) whose path is owed.
WHAT_IS_NOT_YOURS = {
    "rout_paths": N_("%(unit)s is not your routed unit (%(units)s)"),
    "retreat_path": N_("%(unit)s is not your retreating unit (%(units)s)"),
}
# Unit actions are checked by a dry run with dice of no game: only a failure every roll shares
# (a wrong path, a target out of range) refuses a line; the real dice come at resolution.
DRY_SEED = b"musket-and-pike dry run"
# An answer not open now is refused with the open one most like it, if this alike.
ANSWER_CUTOFF = 0.5


def read_mail(
    position: Position, seat: str, text: str, rules: CommandRules, check: ActionCheck
) -> OrderReport:
    """Every line's receipt and the canonical order set (see ``orders_json``)."""
    names = Names.of(position)
    owed = sequence.pending(position, rules)
    decision = owed.get(seat)
    legal = tuple(decisions.text(a) for a in sequence.legal_answers(position, seat, rules))
    mail = Mail(pairs={}, units={}, standing={})
    said: MailLines[Reading] = read_lines(text, lambda raw: read_line(raw, names))
    reports = {report.number: report for report in said.receipts}
    for line in said.read:
        number, raw, reading = line.number, line.text, line.reading
        reports[number] = _judge(position, seat, decision, legal, mail, number, raw, reading)
    _dry_run(position, seat, mail, reports, check)
    orders = order_set(position, seat, decision, mail)
    lines = tuple(reports[n] for n in sorted(reports))
    return OrderReport(lines, orders, missing(position, seat, decision, mail, orders))


def _line(number: int, raw: str, status: LineStatus, **more: str | None) -> LineReport:
    return LineReport(number, raw, status, **more)


def _judge(
    position: Position,
    seat: str,
    decision: Decision | None,
    legal: tuple[str, ...],
    mail: Mail,
    number: int,
    raw: str,
    reading: Reading,
) -> LineReport:
    """One read line judged against the decision owed (``mail`` keeps what the lines before it
    gave); chat, quoted text and unreadable lines have their receipts from ``core.lines``."""
    rejected, accepted = LineStatus.REJECTED, LineStatus.ACCEPTED
    if isinstance(reading, StandingLine):
        assert mail.standing is not None
        mail.standing[reading.kind] = reading.value
        known = MEANING.get((reading.kind, reading.value))
        meaning = _(known) if known else _("asked for each time")
        canonical = standing.phrase(reading.kind, reading.value)
        return _line(number, raw, accepted, canonical=canonical, reason=meaning)
    if decision is None:
        who = ", ".join(sorted(sequence.pending(position))) or _("nobody")
        why = _(
            "you owe no decision now (waiting for: %(who)s); STANDING lines are always read",
            who=who,
        )
        return _line(number, raw, rejected, code="no-decision", reason=why)
    step = position.step
    if isinstance(reading, AnswerLine) and reading.step in PATH_STEPS and step in PATH_STEPS:
        reading = AnswerLine(step, PATH_STEPS[step][1])  # DEFAULT ROUTS or RETREAT: the default
    if isinstance(reading, AnswerLine):
        if reading.step != step and not (reading.step == "order_change" and step == "actions"):
            return _line(
                number,
                raw,
                rejected,
                code="not-now",
                reason=_("now owed: %(prompt)s", prompt=decision.prompt),
                suggestion=" | ".join(legal[:6]) or None,
            )
        if reading.step != step or mail.answer is not None:
            why = _("one answer per decision: the first one counts")
            if reading.step != step:
                why = _("the order change is past: this activation's unit actions are owed")
            return _line(number, raw, LineStatus.IGNORED, reason=why)
        if reading.text not in legal:
            near = suggest.closest(reading.text, legal, cutoff=ANSWER_CUTOFF)
            why = _(
                "%(answer)s is not open now; open: %(open)s",
                answer=reading.text,
                open=", ".join(legal),
            )
            return _line(
                number,
                raw,
                rejected,
                code="illegal",
                reason=why,
                suggestion=near,
            )
        mail.answer, mail.answer_line = reading.text, number
        return _line(number, raw, accepted, canonical=decisions.in_words(reading.text))
    if isinstance(reading, WingOrders):
        return _judge_wings(position, seat, step, mail, number, raw, reading, decision)
    if step in PATH_STEPS:
        return _judge_router(position, seat, mail, number, raw, reading)
    if step not in UNIT_STEPS:
        why = _(
            "unit actions come when your wing's activation reaches them; now owed: %(prompt)s",
            prompt=decision.prompt,
        )
        return _line(number, raw, rejected, code="not-now", reason=why)
    if isinstance(reading, NoActions):
        if mail.no_actions:
            return _line(number, raw, LineStatus.IGNORED, reason=_("said already"))
        mail.no_actions = True
        return _line(number, raw, accepted, canonical="NO ACTIONS")
    return _judge_unit(position, mail, number, raw, reading)


def _judge_wings(
    position: Position,
    seat: str,
    step: str,
    mail: Mail,
    number: int,
    raw: str,
    reading: WingOrders,
    decision: Decision,
) -> LineReport:
    rejected = LineStatus.REJECTED
    if step != "setup_orders":
        why = _(
            "wing orders are given at set-up; later a wing tries CHANGE TO <order> "
            "(now owed: %(prompt)s)",
            prompt=decision.prompt,
        )
        return _line(number, raw, rejected, code="not-now", reason=why)
    assert mail.pairs is not None
    for wing, _order in reading.pairs:
        if position.wing(wing).side != seat:
            return _line(
                number,
                raw,
                rejected,
                code="not-yours",
                reason=_("%(wing)s is not your wing", wing=wing),
            )
        if wing in mail.pairs:
            why = _("%(wing)s already has an order in this mail", wing=wing)
            return _line(number, raw, rejected, code="duplicate", reason=why)
    mail.pairs.update(dict(reading.pairs))
    # Read back in the words a player writes (ORDERS R-A=make ready), never the stored codes.
    canonical = decisions.written(SetupOrders(tuple(reading.pairs)))
    return _line(number, raw, LineStatus.ACCEPTED, canonical=canonical)


def _judge_router(
    position: Position, seat: str, mail: Mail, number: int, raw: str, reading: Reading
) -> LineReport:
    """A line at the rout phase or a retreat: a path (ROUT, RETREAT or MOVE with hexes; HOLD is
    the empty path, open only to a unit with nowhere to go), or NO ACTIONS for the default."""
    rejected, accepted = LineStatus.REJECTED, LineStatus.ACCEPTED
    assert mail.units is not None
    verb, default, _what = PATH_STEPS[position.step]
    if isinstance(reading, NoActions):
        mail.no_actions = True
        return _line(number, raw, accepted, canonical=default.upper())
    order = reading.order if isinstance(reading, UnitLine) else None
    pathed = order is None or (
        order.get("action") in ("move", "rout", "retreat")
        and "leader" not in order
        and not order.get("target")
        and order.get("facing") is None
    )
    if not isinstance(reading, UnitLine) or not pathed:
        why = _(
            "only paths are read now: %(form)s, or %(default)s",
            form=f"UNIT {verb} <hex> <hex> ...",
            default=default.upper(),
        )
        return _line(number, raw, rejected, code="not-now", reason=why)
    running = _path_units(position, seat)
    if reading.actor not in running:
        why = _(WHAT_IS_NOT_YOURS[position.step], unit=reading.actor, units=", ".join(running))
        return _line(number, raw, rejected, code="not-yours", reason=why)
    if reading.actor in mail.units:
        why = _(
            "%(unit)s already has a path on line %(line)s",
            unit=reading.actor,
            line=mail.units[reading.actor][0],
        )
        return _line(number, raw, rejected, code="duplicate", reason=why)
    path = order.get("path", []) if order is not None else []
    action = verb.lower()
    line = UnitLine(reading.actor, {"unit": reading.actor, "action": action, "path": path})
    mail.units[reading.actor] = (number, line)
    return _line(number, raw, accepted, canonical=line.canonical)


def _path_units(position: Position, seat: str) -> tuple[str, ...]:
    """The units whose paths the seat gives now."""
    if position.step == "retreat_path":
        return (position.retreats[0][0],) if position.retreats else ()
    return position.routers(seat)


def _judge_unit(
    position: Position, mail: Mail, number: int, raw: str, reading: UnitLine
) -> LineReport:
    rejected = LineStatus.REJECTED
    assert position.current is not None and mail.units is not None
    wing = position.wing(position.current)
    actor = reading.actor
    if isinstance(reading.order, dict) and "leader" in reading.order:
        chief = next(x for x in position.leaders if x.id == actor)
        ours = chief.wing == wing.id or (chief.role == "AC" and chief.side == wing.side)
        if not ours:
            why = _(
                "%(leader)s is not a leader of the activated wing %(wing)s",
                leader=actor,
                wing=wing.id,
            )
            return _line(number, raw, rejected, code="not-yours", reason=why)
    else:
        unit = next(u for u in position.units if u.id == actor)
        if unit.wing != wing.id:
            why = _(
                "%(unit)s belongs to %(its_wing)s; the activated wing is %(wing)s",
                unit=actor,
                its_wing=unit.wing,
                wing=wing.id,
            )
            return _line(number, raw, rejected, code="not-yours", reason=why)
        if unit.hex is None:
            why = _("%(unit)s is no longer on the map", unit=actor)
            return _line(number, raw, rejected, code="illegal", reason=why)
    if actor in mail.units:
        why = _(
            "%(unit)s already has an action on line %(line)s: one action per unit",
            unit=actor,
            line=mail.units[actor][0],
        )
        return _line(number, raw, rejected, code="duplicate", reason=why)
    mail.units[actor] = (number, reading)
    return _line(number, raw, LineStatus.ACCEPTED, canonical=reading.canonical)


def _dry_run(
    position: Position,
    seat: str,
    mail: Mail,
    reports: dict[int, LineReport],
    check: ActionCheck,
) -> None:
    """Refuse the unit lines the actions (or rout) module refuses whatever the dice (see
    DRY_SEED). The check is given the activated wing, or at the rout phase the side."""
    assert mail.units is not None
    owner = seat if position.step in PATH_STEPS else position.current
    if not mail.units or owner is None:
        return
    keep = decisions.text(ChangeOrder(None))
    if position.step == "order_change" and mail.answer not in (None, keep):
        return  # the order may change first: the actions are checked when they are resolved
    problem = check(position, owner, unit_orders(mail))
    if problem is None:
        return
    # The unit the reason starts with is the one refused; others it names are only its cause
    # (the unit standing in the line of sight).
    named = [
        (n, line)
        for actor, (n, line) in mail.units.items()
        if re.match(rf"{re.escape(actor)}\b", problem.reason)
    ] or [
        (n, line)
        for actor, (n, line) in mail.units.items()
        if re.search(rf"\b{re.escape(actor)}\b", problem.reason)
    ]
    for number, line in named or list(mail.units.values()):
        # A refused line is no order: it must not reach the set even though the mail is refused.
        mail.units.pop(line.actor, None)
        old = reports[number]
        reports[number] = replace(
            old, status=LineStatus.REJECTED, canonical=None, code="illegal", reason=problem.reason
        )
