"""Why a turn was resolved, in words. A turn's reason is stored as a code (``Turn.reason``, set
by ``play`` at the start, by the seat's mail when an order resolves on receipt, and by
``deadlines``); players read these words instead, in the turn's mail and on the archive."""

from __future__ import annotations

START, ORDERS, DEADLINE, ALL_SUBMITTED, FORCED = (
    "start",
    "orders",
    "deadline",
    "all-submitted",
    "forced",
)

TURN_REASONS = {
    START: "the game began",
    ORDERS: "the orders arrived",
    DEADLINE: "the deadline passed",
    ALL_SUBMITTED: "everyone had sent orders",
    FORCED: "forced by the game master",
}


def turn_reason(code: str, yours: bool = False) -> str:
    """A turn's reason in words; ``yours`` where it is read by the player whose orders played
    it. A code this table does not know reads as no reason, never as itself."""
    if code == ORDERS and yours:
        return "your orders arrived"
    return TURN_REASONS.get(code, "resolved")
