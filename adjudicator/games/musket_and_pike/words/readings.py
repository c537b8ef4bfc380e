"""What one line of a Musket & Pike mail says, as ``grammar`` reads it and ``receipts`` judges it:
a decision's answer, set-up wing orders, a unit's action, NO ACTIONS, or a standing instruction;
and a unit's action written back as its canonical mail line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.games.musket_and_pike.words.lexicon import Hex

# Checks one activation's unit actions without keeping anything: None, or why they fail.
ActionCheck = Callable[[Position, str, list[JSON]], Refusal | None]

# The closed set of line codes (the receipts add theirs: see receipts.CODES).
GRAMMAR_CODES = (
    "unknown-word",
    "unknown-unit",
    "unknown-wing",
    "unknown-order",
    "malformed",
    "bad-hex",
)


@dataclass(frozen=True)
class AnswerLine:
    """An answer to one of the sequence's decisions, in ``decisions.text`` form."""

    step: str
    text: str


@dataclass(frozen=True)
class WingOrders:
    """Secret set-up orders for one or more wings."""

    pairs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class UnitLine:
    """One unit's (or leader's) action, as the actions module's JSON; ``order`` None: it holds."""

    actor: str
    order: JSON | None

    @property
    def canonical(self) -> str:
        return action_text(self.order) if self.order is not None else f"{self.actor} HOLD"


@dataclass(frozen=True)
class NoActions:
    pass


@dataclass(frozen=True)
class StandingLine:
    kind: str
    value: str


# What a line says when it is read (a line that cannot be read is a ``core.lines.Complaint``).
Reading = AnswerLine | WingOrders | UnitLine | NoActions | StandingLine


def hex_text(where: Hex) -> str:
    return f"{where[0]}.{where[1]}"


def path_json(path: list[Hex]) -> list[list[int]]:
    return [[c, r] for c, r in path]


def action_text(order: JSON) -> str:
    """A unit's (or leader's) action JSON as its canonical mail line."""
    path = " ".join(hex_text((int(h[0]), int(h[1]))) for h in order.get("path", []))
    if "leader" in order:
        return f"{order['leader']} MOVE {path}".strip()
    if order.get("action") in ("rout", "retreat") and not path:
        return f"{order['unit']} HOLD"  # a router with nowhere to run: the empty path
    words = [str(order["unit"]), str(order["action"]).upper()]
    if path:
        words.append(path)
    if order.get("target"):
        words.append(str(order["target"]))
    if order.get("facing") is not None:
        words += ["FACE", DIRECTION_NAMES[int(order["facing"])]]
    return " ".join(words)
