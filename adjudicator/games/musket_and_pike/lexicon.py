"""The words of Musket & Pike's orders, the position's ids, and a mail line cut into tokens.

What ``grammar`` reads a line with: order words, action verbs and decision words with their
synonyms, the ids of the position's wings, units and leaders (matched case- and
hyphen-insensitively, with a "did you mean" for a slip), and tokens (words, hexes, ``=``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.core import suggest
from adjudicator.games.musket_and_pike.state import Position

Hex = tuple[int, int]

TOKEN = re.compile(
    # A hex: 3.7, 3,7, (3,7), [3, 7]; the hex beyond the top or left edge that a rout leaves the
    # map by has a negative number: 4.-1.
    r"[(\[]?\s*(-?\d+)\s*[.,]\s*(-?\d+)\s*[)\]]?"
    r"|(=)"
    r"|([a-z0-9][a-z0-9_\-]*)"
)
ORDER_WORDS = {
    "charge": "charge",
    "attack": "charge",
    "make_ready": "make_ready",
    "make-ready": "make_ready",
    "makeready": "make_ready",
    "ready": "make_ready",
    "mr": "make_ready",
    "receive_charge": "receive_charge",
    "receive-charge": "receive_charge",
    "receivecharge": "receive_charge",
    "receive": "receive_charge",
    "rc": "receive_charge",
    "rally": "rally",
}
ORDER_PAIRS = {("make", "ready"): "make_ready", ("receive", "charge"): "receive_charge"}
VERBS = {
    "move": "move",
    "moves": "move",
    "mv": "move",
    "go": "move",
    "march": "move",
    "fire": "fire",
    "fires": "fire",
    "shoot": "fire",
    "salvo": "salvo",
    "volley": "salvo",
    "pistol": "pistol",
    "pistols": "pistol",
    "rally": "rally",
    "reform": "reform",
    "charge": "charge",
    "charges": "charge",
    "attack": "charge",
    "assault": "charge",
    "melee": "charge",
    "face": "face",
    "turn": "face",
    "hold": "hold",
    "stay": "hold",
    # The rout phase's chosen paths (STANDING RETREAT ASK ME); MOVE is read the same there.
    "rout": "rout",
    "routs": "rout",
    "run": "rout",
    "flee": "rout",
    # A retreat's path after close combat (the same instruction); MOVE and ROUT read the same.
    "retreat": "retreat",
    "retreats": "retreat",
    "withdraw": "retreat",
}
DECISION_WORDS = {
    "first": "first",
    "activate": "activate",
    "act": "activate",
    "pass": "pass",
    "preempt": "preempt",
    "pre-empt": "preempt",
    "interrupt": "preempt",
    "keep": "keep",
    "change": "change",
    "continue": "continue",
    "stop": "stop",
    "orders": "orders",
    "order": "orders",
    "standing": "standing",
    "no": "no",
    "dont": "no",
    "none": "none",
    "default": "default",
}
NO_WHAT = {"preempt": "preempt", "pre-empt": "preempt", "actions": "actions", "action": "actions"}
NO_WHAT.update({"change": "change", "orders": "actions", "continuation": "stop", "more": "stop"})
# Words a misspelt first word is compared with ("acitvate" -> ACTIVATE); the verbs come after an id.
FUZZY_WORDS = (
    "first",
    "activate",
    "pass",
    "preempt",
    "keep",
    "change",
    "continue",
    "stop",
    "orders",
    "standing",
    "default",
)
FUZZY_CUTOFF = 0.75
ID_CUTOFF = 0.5
# What may follow a decision that takes nothing (PASS, STOP, KEEP ORDER, CONTINUE) in an order;
# any other word makes the line a sentence.
BARE_WORDS = {"order", "orders", "please", "now", "this", "turn", "activation", "wing", "here"}
# What STANDING and DEFAULT name.
STANDING_KINDS = {"preempt", "pre-empt", "continue", "continuation", "retreat", "retreats"}
DEFAULT_KINDS = {"retreat", "retreats", "rout", "routs", "paths", "path"}

# --- ids --------------------------------------------------------------------------------------


def squash(word: str) -> str:
    """An id or word as ids are compared: lower case, without hyphens and underscores."""
    return word.lower().replace("-", "").replace("_", "")


@dataclass(frozen=True)
class Names:
    """The position's ids, matched case- and hyphen-insensitively."""

    wings: tuple[str, ...]
    units: tuple[str, ...]
    leaders: tuple[str, ...]

    @staticmethod
    def of(position: Position) -> Names:
        return Names(
            tuple(w.id for w in position.wings),
            tuple(u.id for u in position.units),
            tuple(x.id for x in position.leaders),
        )

    def find(self, word: str, pool: tuple[str, ...]) -> str | None:
        squashed = squash(word)
        return next((ident for ident in pool if squash(ident) == squashed), None)

    def near(self, word: str, pool: tuple[str, ...]) -> str | None:
        """The id most like ``word``; on equal likeness the one with more letters in the same
        places (R-HL-1: R-HI-1 rather than R-LI-1)."""
        typed = squash(word)

        def likeness(ident: str) -> tuple[float, int]:
            other = squash(ident)
            ratio = suggest.likeness(typed, other)
            return ratio, sum(1 for a, b in zip(typed, other, strict=False) if a == b)

        scored = [(likeness(ident), ident) for ident in pool]
        best = max(scored, default=None, key=lambda item: item[0])
        return best[1] if best is not None and best[0][0] >= ID_CUTOFF else None


# --- tokens -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    word: str | None = None
    hex: Hex | None = None
    eq: bool = False


def tokenize(line: str) -> list[Token]:
    # Apostrophes go first so "don't" reads as "dont"; other punctuation just separates words.
    text = line.lower().replace("'", "").replace("\u2019", "")
    tokens: list[Token] = []
    for column, row, eq, word in TOKEN.findall(text):
        if column:
            tokens.append(Token(hex=(int(column), int(row))))
        elif eq:
            tokens.append(Token(eq=True))
        else:
            tokens.append(Token(word=word))
    return tokens
