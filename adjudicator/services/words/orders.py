"""How a mail's order lines become the order set it files: one reading for the mail pipeline and
the web order checker, so the checker's receipt is the mail's receipt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import LineStatus, OrderReport
from adjudicator.services.record import subjects
from adjudicator.services.words import commands


@dataclass(frozen=True)
class OrderSet:
    """The order lines read: ``report`` is None when they hold no order (commands and chatter
    only); ``text`` is the set as it would be filed, joined to the earlier one where the
    game's orders ask for that (``Game.joined_orders``)."""

    report: OrderReport | None
    text: str
    merged: bool


def files(rules: Rules[Any], report: OrderReport) -> bool:
    """Whether a mail's orders are filed: every line accepted, or, in a game whose turns wait
    for a deadline, the lines accepted even beside refused ones. There the player may send again
    until the deadline, and a line misread must never cost the turn's other orders. A game that
    resolves each answer on receipt acts only on a set whose every line is accepted: it would act
    at once on what the player did not wholly mean."""
    return report.ok or (report.orders is not None and not rules.resolves_on_receipt)


def read(
    rules: Rules[Any],
    state: Any,
    seat: str,
    lines: list[str],
    reading: commands.Reading,
    sections: commands.Sections,
    earlier: str | None,
    subject_only: bool = False,
) -> OrderSet:
    """Parse ``lines`` (a mail's lines less its commands) for ``seat``; ``earlier`` is the
    accepted set on file for the coming turn, its accepted lines alone (so a set joined to it
    with ADD leaves a refused line behind and may be whole; ``on_file.orders_text_on_file``),
    and ``subject_only`` says the lines are the Subject of a mail with an empty body."""
    if not lines:
        return OrderSet(None, "", False)
    trial = rules.parse_orders(state, seat, "\n".join(lines))
    # A reply with an empty body keeps our subject, the game's title and what the mail was:
    # no order in it.
    titled = subject_only and subjects.ours(lines[0], rules.title)
    no_order = all(line.status is LineStatus.IGNORED for line in trial.lines)
    if titled or (no_order and (reading.commands or subject_only)):
        # Beside commands (or as a bare subject) lines without an order are chatter, not a
        # refused order set: they go to the reply's sections and nothing is filed.
        if not subject_only:
            commands.set_aside(trial.lines, sections)
        return OrderSet(None, "", False)
    joined = None if earlier is None else rules.joined_orders(trial.orders, lines, earlier)
    if joined is not None:
        # The new lines join the set on file; parsing them together re-checks every limit.
        return OrderSet(rules.parse_orders(state, seat, joined), joined, True)
    return OrderSet(trial, "\n".join(lines), False)
