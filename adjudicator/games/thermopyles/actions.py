"""One turn's order set as a typed value, with its canonical JSON and its canonical order text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["fight", "retreat"]


@dataclass(frozen=True)
class Action:
    """A turn: optionally a DISCARD (hand over the limit), then exactly one FIGHT or RETREAT."""

    kind: Kind
    value: int | None = None  # the Spartan card played (fight only)
    support: int = 0  # support cards spent, one d6 each (fight only)
    draw: bool = True  # retreat only: False for RETREAT NODRAW
    discard: int | None = None  # the card named by DISCARD; None lets the rules pick the lowest

    def to_json(self) -> dict[str, Any]:
        if self.kind == "fight":
            return {
                "discard": self.discard,
                "action": "fight",
                "value": self.value,
                "support": self.support,
            }
        return {"discard": self.discard, "action": "retreat", "draw": self.draw}

    def action_text(self) -> str:
        """The action alone, as the player would write it canonically."""
        if self.kind == "fight":
            support = f" SUPPORT {self.support}" if self.support else ""
            return f"FIGHT {self.value}{support}"
        return "RETREAT" if self.draw else "RETREAT NODRAW"

    def text(self) -> str:
        """The whole order set in canonical text, one order per line."""
        if self.discard is None:
            return self.action_text()
        return f"DISCARD {self.discard}\n{self.action_text()}"


def _count(value: Any) -> int | None:
    # JSON gives ints; bool is an int subclass and never a card value.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def action_from_json(data: Any) -> Action | str:
    """The action, or a sentence saying what is wrong with the JSON (never raises)."""
    if not isinstance(data, dict):
        return "the order set must be a JSON object"
    discard = data.get("discard")
    if discard is not None and _count(discard) is None:
        return "discard must be a card value or null"
    kind = data.get("action")
    if kind == "retreat":
        draw = data.get("draw", True)
        if not isinstance(draw, bool):
            return "draw must be true or false"
        return Action("retreat", draw=draw, discard=discard)
    if kind == "fight":
        value = _count(data.get("value"))
        support = _count(data.get("support", 0))
        if value is None or support is None or support < 0:
            return "a fight needs a card value and a support count of 0 or more"
        return Action("fight", value=value, support=support, discard=discard)
    return f"unknown action {kind!r}; expected 'fight' or 'retreat'"
