"""What became of one order line, in words: the closed set of codes a refusal carries, the
verdict per line, and the reasons that need more than one sentence's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from adjudicator.core.said import N_, _
from adjudicator.games.dos_de_mayo.cards import Target
from adjudicator.games.dos_de_mayo.orders import Move

# The closed set of rejection codes a line receipt (or an outcome at adjudication) may carry.
CODES = (
    "unknown-order",
    "malformed",
    "unknown-area",
    "unknown-card",
    "not-adjacent",
    "no-units",
    "too-many-units",
    "group-limit",
    "pinned",
    "spain-no-split",
    "must-stay",
    "too-early",
    "not-own-gate",
    "duplicate-order",
    "conflicting-order",
    "wrong-side",
    "card-not-in-hand",
    "card-not-now",
    "card-prerequisite",
    "card-on-draw",
    "bad-card-target",
    "path-blocked",
    "not-in-play",
    "not-turn-one",
    "not-a-start-card",
    "game-over",
    "unknown-seat",
)


@dataclass(frozen=True)
class Problem:
    code: str
    reason: str
    suggestion: str | None = None


class Verdict(NamedTuple):
    """What became of one item: accepted (canonical text), rejected (problem) or ignored (note).
    A named tuple, not a frozen dataclass: one is made per order line, twice a turn."""

    status: str  # accepted | rejected | ignored
    canonical: str | None = None
    problem: Problem | None = None
    note: str | None = None


def reject(code: str, reason: str, suggestion: str | None = None) -> Verdict:
    return Verdict("rejected", problem=Problem(code, reason, suggestion))


def accept(text: str) -> Verdict:
    return Verdict("accepted", canonical=text)


def target_reason(keyword: str, target: str, wanted: Target) -> str:
    """Why a card's area is refused: what it must hold (or which areas it may be anyway)."""
    where = {"own": N_("your units"), "enemy": N_("enemy units"), "both": N_("both sides")}
    holds = _(where[wanted.holds])
    if wanted.also:
        return _(
            "%(card)s: area %(area)s must hold %(holds)s or be one of %(also)s",
            card=keyword,
            area=target,
            holds=holds,
            also=", ".join(sorted(wanted.also)),
        )
    return _("%(card)s: area %(area)s must hold %(holds)s", card=keyword, area=target, holds=holds)


def ordered_already(move: Move) -> str:
    return _("%(move)s is already ordered", move="-".join(move.path))
