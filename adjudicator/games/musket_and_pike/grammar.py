"""Reading one line of a player's mail: words to a decision answer, a wing order, a unit action, a
standing instruction, a complaint with a "did you mean", or "not an order" (greetings, chatter).

This layer knows the order words and the position's ids (for case-insensitive matching and
suggestions), not the rules: ``receipts`` judges each reading against the decision owed.

Hexes are written ``column.row`` as the map labels them (``3.7``); ``3,7``, ``(3,7)`` and
``[3, 7]`` are read the same.

A line is an order attempt only when it is shaped like one: a decision word followed by what that
decision takes (a wing, an order, or nothing), or a wing, unit or leader id followed by its order.
"Stop it", "Pass the salt" and "First of all, hi" are chat, ignored rather than refused.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.core import numbers
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike import decisions, standing
from adjudicator.games.musket_and_pike.decisions import (
    Activate,
    ChangeOrder,
    Continue,
    FirstWing,
    Preempt,
)
from adjudicator.games.musket_and_pike.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.state import ORDERS, Position

JSON = Any
Hex = tuple[int, int]
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


# --- readings ----------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Complaint:
    code: str
    reason: str
    suggestion: str | None = None


Reading = AnswerLine | WingOrders | UnitLine | NoActions | StandingLine | Complaint


# --- names --------------------------------------------------------------------------------------


def _squash(word: str) -> str:
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
        squashed = _squash(word)
        return next((ident for ident in pool if _squash(ident) == squashed), None)

    def near(self, word: str, pool: tuple[str, ...]) -> str | None:
        """The id most like ``word``; on equal likeness the one with more letters in the same
        places (R-HL-1: R-HI-1 rather than R-LI-1)."""
        typed = _squash(word)

        def likeness(ident: str) -> tuple[float, int]:
            other = _squash(ident)
            ratio = difflib.SequenceMatcher(None, typed, other).ratio()
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


def hex_text(where: Hex) -> str:
    return f"{where[0]}.{where[1]}"


def _path_json(path: list[Hex]) -> list[list[int]]:
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


# --- one line -----------------------------------------------------------------------------------


def read_line(raw: str, names: Names) -> Reading | None:
    """What one line says; None when it is not an order at all."""
    if raw.strip().startswith(">"):
        return None
    long_number = numbers.too_long(raw)
    if long_number is not None:
        return Complaint("malformed", long_number)
    tokens = tokenize(raw)
    if not tokens or tokens[0].word is None:
        return None
    head = tokens[0].word
    rest = tokens[1:]
    if head in DECISION_WORDS:
        if not _takes(DECISION_WORDS[head], rest, names):
            return None  # "Stop it", "No worries", "Orders are in the mail"
        return _decision(DECISION_WORDS[head], rest, names)
    wing = names.find(head, names.wings)
    if wing is not None:
        return _wing_orders(tokens, names)
    actor = names.find(head, names.units) or names.find(head, names.leaders)
    if actor is not None:
        return _unit(actor, actor in names.leaders, rest, names)
    return _unknown(head, rest, names)


def _id_like(token: Token | None, names: Names, pool: tuple[str, ...]) -> bool:
    """An id, or a word shaped like one (ids carry a hyphen or a digit: R-A, P-HI-2) or close to
    one: a typo worth a "did you mean", where a plain word of a sentence is not."""
    word = token.word if token is not None else None
    if word is None:
        return False
    if names.find(word, pool) is not None or "-" in word or any(ch.isdigit() for ch in word):
        return True
    typed = _squash(word)
    return any(
        difflib.SequenceMatcher(None, typed, _squash(ident)).ratio() >= FUZZY_CUTOFF
        for ident in pool
    )


def _takes(word: str, rest: list[Token], names: Names) -> bool:
    """Whether ``rest`` is what the decision ``word`` takes, so the line is an attempt at it."""
    words = [t.word for t in rest if t.word is not None]
    if word in ("pass", "continue", "stop", "keep"):
        return all(w in BARE_WORDS for w in words) and all(t.word is not None for t in rest)
    if word in ("first", "activate", "preempt"):
        skip = 1 if words[:1] == ["wing"] else 0
        return _id_like(rest[skip] if len(rest) > skip else None, names, names.wings)
    if word == "change":
        return any(_order_at(rest, i) is not None for i in range(min(len(rest), 3)))
    if word == "orders":
        return _id_like(rest[0] if rest else None, names, names.wings)
    if word == "standing":
        kinds = list(STANDING_KINDS | set(standing_kinds()))
        return bool(words) and bool(difflib.get_close_matches(words[0], kinds, 1, FUZZY_CUTOFF))
    if word == "default":
        return all(w in DEFAULT_KINDS for w in words)
    if word in ("no", "none"):
        return (not words and word == "none") or (bool(words) and words[0] in NO_WHAT)
    return True


def standing_kinds() -> tuple[str, ...]:
    """The kinds of standing instruction, as their word is written (PREEMPT, CONTINUE, ...)."""
    return tuple(kind for kind, _ in standing.MEANING)


def _unknown(head: str, rest: list[Token], names: Names) -> Reading | None:
    guess = difflib.get_close_matches(head, FUZZY_WORDS, n=1, cutoff=FUZZY_CUTOFF)
    if guess and len(rest) <= 4 and _takes(DECISION_WORDS[guess[0]], rest, names):
        return Complaint("unknown-word", f"{head!r} is not an order word", guess[0].upper())
    verb = rest[0].word if rest else None
    # CHARGE and RALLY are orders and actions both: unit ids carry a number, wing ids need not.
    unit_like = verb in VERBS and any(ch.isdigit() for ch in head)
    if rest and (rest[0].eq or _order_at(rest, 0) is not None) and not unit_like:
        return Complaint(
            "unknown-wing", f"there is no wing {head!r}", names.near(head, names.wings)
        )
    looks_like_unit = verb in VERBS or (rest and rest[0].hex is not None)
    if looks_like_unit or (len(rest) <= 3 and any(ch.isdigit() for ch in head) and "-" in head):
        pool = names.units + names.leaders + names.wings
        near = names.near(head, pool)
        return Complaint("unknown-unit", f"there is no unit, leader or wing {head!r}", near)
    return None


def _order_at(tokens: list[Token], index: int) -> tuple[str, int] | None:
    """The order named at ``index`` (one or two words) and the index after it."""
    if index >= len(tokens):
        return None
    word = tokens[index].word
    following = tokens[index + 1].word if index + 1 < len(tokens) else None
    if word is not None and following is not None and (word, following) in ORDER_PAIRS:
        return ORDER_PAIRS[(word, following)], index + 2
    if word in ORDER_WORDS:
        return ORDER_WORDS[word], index + 1
    return None


def _order_complaint(tokens: list[Token], index: int) -> Complaint:
    word = tokens[index].word if index < len(tokens) else None
    near = difflib.get_close_matches(word or "", list(ORDERS), n=1, cutoff=0.5)
    choices = ", ".join(o.upper() for o in ORDERS)
    if word is None:
        return Complaint("unknown-order", f"an order is missing: one of {choices}")
    return Complaint(
        "unknown-order", f"{word!r} is not an order: one of {choices}", near[0] if near else None
    )


def _wing_at(tokens: list[Token], index: int, names: Names) -> str | Complaint:
    if index >= len(tokens) or tokens[index].word is None:
        return Complaint("malformed", "a wing is missing", names.wings[0] if names.wings else None)
    word = str(tokens[index].word)
    wing = names.find(word, names.wings)
    if wing is None:
        return Complaint(
            "unknown-wing", f"there is no wing {word!r}", names.near(word, names.wings)
        )
    return wing


def _wing_orders(tokens: list[Token], names: Names) -> Reading:
    """``R-A=charge R-B=make ready`` or ``R-A charge``: one or more wing/order pairs."""
    pairs: list[tuple[str, str]] = []
    index = 0
    while index < len(tokens):
        wing = _wing_at(tokens, index, names)
        if isinstance(wing, Complaint):
            return wing
        index += 1
        while index < len(tokens) and (tokens[index].eq or tokens[index].word in ("to", "is")):
            index += 1
        found = _order_at(tokens, index)
        if found is None:
            if index < len(tokens) and tokens[index].word in DECISION_WORDS:
                verb = str(tokens[index].word).upper()
                reason = "a wing's decision starts with the word, not the wing"
                return Complaint("malformed", reason, f"{verb} {wing}")
            return _order_complaint(tokens, index)
        order, index = found
        pairs.append((wing, order))
    return WingOrders(tuple(pairs))


def _decision(word: str, rest: list[Token], names: Names) -> Reading:
    words = [t.word for t in rest if t.word is not None]
    if word == "standing":
        if not words:
            return Complaint("malformed", "STANDING takes PREEMPT, CONTINUE or RETREAT")
        read = standing.read(words[0], words[1:])
        if isinstance(read, Refusal):
            return Complaint("malformed", read.reason)
        return StandingLine(*read)
    if word == "orders":
        if not rest:
            return Complaint("malformed", "write: ORDERS WING=ORDER WING=ORDER ...")
        return _wing_orders(rest, names)
    if word == "pass":
        return AnswerLine("activate", decisions.text(Activate(None)))
    if word == "default":
        if words[:1] in (["retreat"], ["retreats"]):
            return AnswerLine("retreat_path", decisions.DEFAULT_RETREAT)
        return AnswerLine("rout_paths", decisions.DEFAULT_ROUTS)
    if word in ("continue", "stop"):
        return AnswerLine("continuation", decisions.text(Continue(word == "continue")))
    if word == "none" and not words:
        return NoActions()
    if word in ("no", "none"):
        what = NO_WHAT.get(words[0]) if words else None
        if what == "preempt":
            return AnswerLine("preempt", decisions.text(Preempt(None)))
        if what == "actions":
            return NoActions()
        if what == "change":
            return AnswerLine("order_change", decisions.text(ChangeOrder(None)))
        if what == "stop":
            return AnswerLine("continuation", decisions.text(Continue(False)))
        return Complaint("malformed", "write NO PREEMPT, NO ACTIONS or NO CHANGE", "NO PREEMPT")
    if word == "keep":
        return AnswerLine("order_change", decisions.text(ChangeOrder(None)))
    if word == "change":
        index = 0
        while index < len(rest) and rest[index].word in ("order", "orders", "to", "into"):
            index += 1
        found = _order_at(rest, index)
        if found is None:
            return _order_complaint(rest, index)
        return AnswerLine("order_change", decisions.text(ChangeOrder(found[0])))
    index = 1 if words[:1] == ["wing"] else 0
    wing = _wing_at(rest, index, names)
    if isinstance(wing, Complaint):
        return wing
    if word == "first":
        return AnswerLine("first_wing", decisions.text(FirstWing(wing)))
    if word == "activate":
        return AnswerLine("activate", decisions.text(Activate(wing)))
    helped = any(w in ("ac", "commander", "general") for w in words)
    return AnswerLine("preempt", decisions.text(Preempt(wing, ac=helped)))


def _facing(word: str | None) -> int | None:
    if word is None:
        return None
    upper = word.upper()
    if upper in DIRECTION_NAMES:
        return DIRECTION_NAMES.index(upper)
    if word.isdigit() and int(word) < len(DIRECTION_NAMES):
        return int(word)
    return None


def _unit(actor: str, is_leader: bool, rest: list[Token], names: Names) -> Reading:
    """``<unit> VERB [hexes] [target] [FACE dir]``; a line of hexes alone is a move."""
    index = 0
    verb = "move"
    if rest and rest[0].word is not None:
        known = VERBS.get(rest[0].word)
        if known is None:
            near = difflib.get_close_matches(rest[0].word, list(VERBS), n=1, cutoff=0.6)
            suggestion = f"{actor} {VERBS[near[0]].upper()}" if near else None
            reason = f"{rest[0].word!r} is not an action: MOVE, FIRE, SALVO, PISTOL, RALLY, "
            return Complaint("unknown-word", reason + "REFORM, CHARGE or HOLD", suggestion)
        verb, index = known, 1
    elif not rest:
        return Complaint("malformed", f"what does {actor} do? e.g. {actor} MOVE 3.7", None)
    path: list[Hex] = []
    target: str | None = None
    facing: int | None = None
    while index < len(rest):
        token = rest[index]
        index += 1
        if token.hex is not None:
            path.append(token.hex)
            continue
        word = str(token.word)
        if word in ("face", "facing", "turn"):
            facing = _facing(rest[index].word if index < len(rest) else None)
            if facing is None:
                return Complaint(
                    "malformed", "FACE takes N, NE, SE, S, SW or NW", f"{actor} FACE N"
                )
            index += 1
            continue
        if word in ("to", "at", "on", "via", "then", "and", "target"):
            continue
        enemy = names.find(word, names.units)
        if enemy is not None and target is None:
            target = enemy
            continue
        if word.isdigit() or re.fullmatch(r"[a-z]\d+", word):
            reason = f"{word!r} is not a hex: write column.row as the map shows it, e.g. 3.7"
            return Complaint("bad-hex", reason)
        guess = names.near(word, names.units)
        return Complaint("unknown-unit", f"there is no unit {word!r}", guess)
    return _action(actor, is_leader, verb, path, target, facing)


def _action(
    actor: str, is_leader: bool, verb: str, path: list[Hex], target: str | None, facing: int | None
) -> Reading:
    if is_leader:
        if verb != "move" or target is not None or facing is not None:
            return Complaint("malformed", "a leader can only move: LEADER MOVE 3.7 3.8")
        if not path:
            return Complaint("malformed", f"{actor} MOVE needs the hexes it enters")
        return UnitLine(actor, {"leader": actor, "path": _path_json(path)})
    if verb == "hold":
        return UnitLine(actor, None)
    if verb in ("rout", "retreat"):
        if target is not None or facing is not None or not path:
            word = verb.upper()
            why = f"{word} takes the hexes the unit goes through: {actor} {word} 3.7 3.8"
            return Complaint("malformed", why)
        return UnitLine(actor, {"unit": actor, "action": verb, "path": _path_json(path)})
    if verb == "face":
        verb = "move"
        if facing is None:
            return Complaint("malformed", "FACE takes N, NE, SE, S, SW or NW", f"{actor} FACE N")
    order: dict[str, JSON] = {"unit": actor, "action": verb}
    if verb == "move":
        if not path and facing is None:
            return Complaint("malformed", "MOVE needs the hexes entered, in order, or a FACE")
        if target is not None:
            return Complaint("malformed", "MOVE takes no target", f"{actor} CHARGE {target}")
    elif verb in ("fire", "salvo", "charge"):
        if target is None:
            return Complaint("malformed", f"{verb.upper()} needs an enemy unit to aim at")
        if verb != "charge" and path:
            return Complaint("malformed", f"{verb.upper()} takes no hexes: the unit stands")
    elif verb == "pistol":
        if not path and target is None:
            return Complaint("malformed", "PISTOL takes hexes to move, a target, or both")
    elif path or target is not None:
        return Complaint("malformed", f"{verb.upper()} takes nothing after it")
    if path:
        order["path"] = _path_json(path)
    if target is not None:
        order["target"] = target
    if facing is not None:
        order["facing"] = facing
    return UnitLine(actor, order)


# --- the canonical order set --------------------------------------------------------------------


def orders_text(orders: JSON) -> str | None:
    """An order set as a player would mail it; ``read_mail`` reads it back to the same set."""
    if not isinstance(orders, dict):
        return None
    lines: list[str] = []
    answer = orders.get("answer")
    if isinstance(answer, str):
        lines.append(answer)
    elif isinstance(answer, list):
        lines += [action_text(order) for order in answer] or ["NO ACTIONS"]
    actions = orders.get("actions")
    if isinstance(actions, list):
        lines += [action_text(order) for order in actions] or ["NO ACTIONS"]
    for kind, value in dict(orders.get("standing") or {}).items():
        lines.append(standing.phrase(str(kind), str(value)))
    return "\n".join(lines) if lines else None
