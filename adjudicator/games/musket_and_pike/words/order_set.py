"""What the accepted lines of one mail add up to: the order set the game resolves and what it
still lacks (``receipts`` judges each line; this module gathers the accepted ones)."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.contract import JSON, Decision
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import decisions
from adjudicator.games.musket_and_pike.rules.decisions import ChangeOrder, SetupOrders
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.games.musket_and_pike.words.readings import UnitLine

UNIT_STEPS = ("order_change", "actions")
# The steps answered with paths: the rout phase's (every router of the side) and a retreat's
# after close combat (the one unit falling back). Each: (verb, default answer, what moves).
PATH_STEPS = {
    "rout_paths": ("ROUT", decisions.DEFAULT_ROUTS, "routed unit"),
    "retreat_path": ("RETREAT", decisions.DEFAULT_RETREAT, "retreating unit"),
}


@dataclass
class Mail:
    """What the lines of one mail add up to while they are read."""

    answer: str | None = None
    answer_line: int = 0
    pairs: dict[str, str] | None = None
    units: dict[str, tuple[int, UnitLine]] | None = None
    no_actions: bool = False
    standing: dict[str, str] | None = None


def unit_orders(mail: Mail) -> list[JSON]:
    """The accepted unit lines' orders, in the mail's order."""
    assert mail.units is not None
    return [line.order for _, line in mail.units.values() if line.order is not None]


def order_set(
    position: Position,
    seat: str,
    decision: Decision | None,
    mail: Mail,
) -> JSON | None:
    """The order set the accepted lines make (see ``game``'s JSON form), or None for a mail that
    answers nothing and keeps no standing instruction."""
    step = position.step
    answer: JSON | None = mail.answer
    acted = bool(mail.units) or mail.no_actions
    extra: dict[str, JSON] = {}
    if decision is not None and step == "setup_orders":
        assert mail.pairs is not None
        mine = [w.id for w in position.wings if w.side == seat]
        if mail.pairs and all(w in mail.pairs for w in mine):
            answer = decisions.text(SetupOrders(tuple((w, mail.pairs[w]) for w in mine)))
    if decision is not None and step == "actions" and acted:
        answer = unit_orders(mail)
    if decision is not None and step in PATH_STEPS and acted:
        answer = unit_orders(mail) if mail.units else PATH_STEPS[step][1]
    if decision is not None and step == "order_change" and acted:
        answer = answer or decisions.text(ChangeOrder(None))
        extra["actions"] = unit_orders(mail)
    if mail.standing:
        extra["standing"] = dict(sorted(mail.standing.items()))
    if answer is None and not extra.get("standing"):
        return None
    return {"step": step, "answer": answer, **extra}


def missing(
    position: Position, seat: str, decision: Decision | None, mail: Mail, orders: JSON | None
) -> tuple[str, ...]:
    """What the order set still lacks, as notes for the receipt: an answer, a wing's order, the
    units left to hold or to run by default."""
    if decision is None:
        return ()
    notes: list[str] = []
    answered = orders is not None and orders.get("answer") is not None
    step = position.step
    if step == "setup_orders" and not answered:
        assert mail.pairs is not None
        lacking = [w.id for w in position.wings if w.side == seat and w.id not in mail.pairs]
        notes.append(_("an order for every wing: none yet for %(wings)s", wings=", ".join(lacking)))
    elif not answered:
        notes.append(
            _(
                "%(prompt)s (at the deadline: %(default)s)",
                prompt=decision.prompt,
                default=decision.default,
            )
        )
    if step == "rout_paths" and answered and mail.units:
        by_default = [u for u in position.routers(seat) if u not in mail.units]
        if by_default:
            notes.append(
                _("no path for %(units)s: it runs by default", units=", ".join(by_default))
            )
    if (
        step in UNIT_STEPS
        and answered
        and position.current is not None
        and (mail.units or mail.no_actions)
    ):
        assert mail.units is not None
        idle = [
            u.id
            for u in position.units
            if u.wing == position.current and u.hex is not None and u.id not in mail.units
        ]
        if idle and not mail.no_actions:
            notes.append(_("no action for %(units)s: they hold", units=", ".join(idle)))
    return tuple(notes)
