"""The parts of one resolved step, each under a heading of its own kind: one answer may play an
order change, the unit actions that came with it, their close combat, a continuation given by a
standing instruction, the rout phase and the end of the turn, and each reads under its name.

An event's part is told by its own kind (or, for a unit-level record, its type); an event that
follows from another one (a loss, a morale check, a wing finishing) stays in the part it is in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core.contract import JSON
from adjudicator.core.said import N_, _

HEADINGS = {
    "setup": N_("SECRET WING ORDERS"),
    "initiative": N_("INITIATIVE"),
    "activation": N_("ACTIVATION"),
    "preempt": N_("PRE-EMPTION"),
    "order_change": N_("ORDER CHANGE"),
    "actions": N_("UNIT ACTIONS"),
    "close_combat": N_("CLOSE COMBAT"),
    "retreat": N_("RETREAT AFTER CLOSE COMBAT"),
    "continuation": N_("CONTINUATION"),
    "rout": N_("ROUT PHASE"),
    "turn_end": N_("END OF THE TURN"),
}
# The part an answered step's own heading is, for a step whose facts hold no event.
STEP_PARTS = {
    "setup_orders": "setup",
    "first_wing": "activation",
    "activate": "activation",
    "preempt": "preempt",
    "order_change": "order_change",
    "actions": "actions",
    "continuation": "continuation",
    "retreat_path": "retreat",
    "rout_paths": "rout",
}
_KINDS = {
    "orders-in": "setup",
    "orders-revealed": "setup",
    "initiative": "initiative",
    "activation": "activation",
    "pass": "activation",
    "pass-pass": "activation",
    "preempt": "preempt",
    "bypassed-lost": "activation",
    "order-change": "order_change",
    "continuation": "continuation",
    "retreat-path": "retreat",
    "retreat_path": "retreat",
    "rout-phase": "rout",
    "rout-paths": "rout",
    "rout_paths": "rout",
    "marker-removal": "turn_end",
    "leader-replacement": "turn_end",
    "withdrawal": "turn_end",
    "turn": "turn_end",
    "game-end": "turn_end",
}
_TYPES = {
    "declare": "close_combat",
    "close_combat": "close_combat",
    "leader_lost": "close_combat",
    "retreat": "retreat",
    "rout": "rout",
}
# Records that follow from the one before them, in its part.
_FOLLOWING = {"loss", "eliminated", "formation", "morale", "roll"}
# Events that only say a part begins: its heading says it.
HEADING_ONLY = {"rout-phase", "marker-removal"}


def part_of(event: Mapping[str, JSON]) -> str | None:
    """The part an event (stored form) opens or belongs to; None: the part it is in."""
    data = event.get("data") or {}
    kind = data.get("type")
    if kind is None:
        return _KINDS.get(str(event.get("kind")))
    if kind == "roll" and str(data.get("purpose", "")).startswith("close combat"):
        return "close_combat"
    if kind in _FOLLOWING:
        return None
    return _TYPES.get(str(kind), "actions")


def parts(
    events: Sequence[Mapping[str, JSON]], step: str
) -> list[tuple[str, list[Mapping[str, JSON]]]]:
    """The events in parts, in order: a new part wherever an event's kind differs from the
    part it is in; events before any part's own event go with the first part (else the step's)."""
    out: list[tuple[str, list[Mapping[str, JSON]]]] = []
    waiting: list[Mapping[str, JSON]] = []
    for event in events:
        part = part_of(event)
        if part is None or (out and out[-1][0] == part):
            (out[-1][1] if out else waiting).append(event)
            continue
        out.append((part, [*waiting, event]))
        waiting = []
    if waiting:
        out.append((STEP_PARTS.get(step, "activation"), waiting))
    return out


def heading(part: str) -> str:
    return _(HEADINGS.get(part, part))
