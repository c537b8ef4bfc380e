"""What a Musket & Pike step tells the players about each answer: its outcome code, the line as
the player gave it, and the words of what happened, as the receipts and the step report show it.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.contract import JSON, OrderOutcome
from adjudicator.core.said import _, ngettext
from adjudicator.games.musket_and_pike.rules import decisions
from adjudicator.games.musket_and_pike.rules.state import Event
from adjudicator.games.musket_and_pike.words import grammar
from adjudicator.games.musket_and_pike.words.report import event_words

OUTCOME_CODES = (
    "rout-paths",
    "retreat-path",
    "setup-orders",
    "first-wing",
    "activate",
    "pass",
    "preempt",
    "order-change",
    "actions",
    "continuation",
    "standing",
    "standing-set",
    "refused",
    "not-owed",
    "nothing",
)
_STEP_CODES = {
    "setup_orders": "setup-orders",
    "first_wing": "first-wing",
    "activate": "activate",
    "preempt": "preempt",
    "order_change": "order-change",
    "actions": "actions",
    "continuation": "continuation",
    "rout_paths": "rout-paths",
    "retreat_path": "retreat-path",
}


def said(reply: JSON) -> str:
    if isinstance(reply, list):
        return "; ".join((grammar.orders_text({"answer": reply}) or "NO ACTIONS").splitlines())
    return decisions.in_words(str(reply))


def outcome_of(seat: str, step: str, reply: JSON, happened: Sequence[Event]) -> OrderOutcome:
    """An answer's outcome: what the answer itself did, in one sentence; the step report, shown
    beside it, tells everything that followed from it."""
    code = "pass" if reply == "pass" else _STEP_CODES.get(step, "actions")
    texts = [t for e in happened if (e.data or {}).get("type") != "roll" and (t := event_words(e))]
    detail = texts[0] if texts else _quiet(step, reply)
    if step == "setup_orders":
        # The orders stay secret until revealed; the reveal itself is a public event.
        return OrderOutcome(seat, said(reply), code, detail, public=False)
    if step == "actions" and isinstance(reply, list):
        played = ngettext("%(num)s unit action played", "%(num)s unit actions played", len(reply))
        detail = played if reply else _("no unit acts")
    if step == "rout_paths":
        count = len(reply) if isinstance(reply, list) else 0
        detail = ngettext("%(num)s path chosen", "%(num)s paths chosen", count)
    if step == "retreat_path" and isinstance(reply, list) and reply:
        detail = _("path chosen")
    return OrderOutcome(seat, said(reply), code, detail)


def earlier_sentences() -> tuple[str, ...]:
    """Outcomes stored by games played when an outcome listed the whole step: their messages stay
    in the catalogs, so the archive still writes them anew in each reader's language."""
    return (
        ngettext(
            "%(num)s unit action; %(detail)s", "%(num)s unit actions; %(detail)s", 1, detail=""
        ),
        ngettext(
            "%(num)s path chosen; %(detail)s", "%(num)s paths chosen; %(detail)s", 1, detail=""
        ),
        _("path chosen; %(detail)s", detail=""),
    )


def _quiet(step: str, reply: JSON) -> str:
    """What an answer that moved nothing on the map did, in words (never a bare "done")."""
    read = decisions.read(step, reply)
    if isinstance(read, decisions.FirstWing | decisions.Activate) and read.wing:
        return _("%(wing)s is activated; the other side may try to pre-empt it", wing=read.wing)
    if isinstance(read, decisions.ChangeOrder) and read.order is None:
        return _("the wing keeps its order")
    if step == "actions":
        return _("no unit acts")
    return _("done")


def lines_of(reply: JSON) -> tuple[str, ...]:
    """An answer's lines as the receipt reads them back (LineReport.canonical)."""
    if isinstance(reply, list):
        return tuple((grammar.orders_text({"answer": reply}) or "NO ACTIONS").splitlines())
    return (decisions.in_words(str(reply)),)


def not_done(
    seat: str, replies: Sequence[tuple[str, JSON]], code: str, reason: str
) -> OrderOutcome:
    """Answers not carried out, the first one for ``reason`` and the rest since they follow it
    (the unit actions given with an order change are not played when the change is refused)."""
    given = "; ".join(said(reply) for _step, reply in replies)
    lines = [line for _step, reply in replies for line in lines_of(reply)]
    # The line the reason is about (it starts with its unit's id), else the first, has the
    # reason itself; the others were not played because an activation is played whole.
    blamed = next((line for line in lines if reason.startswith(line.split(" ")[0] + ":")), None)
    held = _("not played, as the activation is played whole: %(reason)s", reason=reason)
    undone = tuple((line, "" if line == (blamed or lines[0]) else held) for line in lines if lines)
    return OrderOutcome(seat, given, code, reason, undone=undone)


def public_event(event: Event) -> dict[str, JSON]:
    return {**event.to_json(), "words": event_words(event)}
