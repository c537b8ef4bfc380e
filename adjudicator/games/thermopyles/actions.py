"""One turn's order set as a typed value, with its canonical JSON and its canonical order text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from adjudicator.core.codec import Codec, Form
from adjudicator.core.refusal import Refusal

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


# The JSON form: the kind under "action"; a key its kind has no use for is left out after reading.
CODEC = Codec(forms={Action: Form(keys={"kind": "action"}, defaults=True)})


def action_from_json(data: Any) -> Action | Refusal:
    """The action, or a refusal saying what is wrong with the JSON (never raises)."""
    if not isinstance(data, dict):
        return Refusal("the order set must be a JSON object", "shape")
    read = CODEC.read(Action, data)
    if isinstance(read, Refusal):
        return read
    if read.kind == "retreat":
        return Action("retreat", draw=read.draw, discard=read.discard)
    if read.value is None or read.support < 0:
        return Refusal("a fight needs a card value and a support count of 0 or more", "shape")
    return Action("fight", value=read.value, support=read.support, discard=read.discard)
