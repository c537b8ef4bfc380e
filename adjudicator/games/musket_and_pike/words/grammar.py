"""Reading one line of a player's mail: words to a decision answer, a wing order, a unit action, a
standing instruction, a complaint with a "did you mean", or "not an order" (greetings, chatter).

This layer knows the order words and the position's ids (``lexicon``: for case-insensitive
matching and suggestions), not the rules: ``receipts`` judges each reading (``readings``) against
the decision owed. Unit and leader lines are read by ``unit_lines``.

Hexes are written ``column.row`` as the map labels them (``3.7``); ``3,7``, ``(3,7)`` and
``[3, 7]`` are read the same.

A line is an order attempt only when it is shaped like one: a decision word followed by what that
decision takes (a wing, an order, or nothing), or a wing, unit or leader id followed by its order.
"Stop it", "Pass the salt" and "First of all, hi" are chat, ignored rather than refused.
"""

from __future__ import annotations

from adjudicator.core import suggest
from adjudicator.core.contract import JSON
from adjudicator.core.lines import Complaint
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import decisions, standing
from adjudicator.games.musket_and_pike.rules.decisions import (
    Activate,
    ChangeOrder,
    Continue,
    FirstWing,
    Preempt,
)
from adjudicator.games.musket_and_pike.rules.state import ORDERS
from adjudicator.games.musket_and_pike.words.lexicon import (
    BARE_WORDS,
    DECISION_WORDS,
    DEFAULT_KINDS,
    FUZZY_CUTOFF,
    FUZZY_WORDS,
    NO_WHAT,
    ORDER_PAIRS,
    ORDER_WORDS,
    STANDING_KINDS,
    VERBS,
    Names,
    Token,
    squash,
    tokenize,
)
from adjudicator.games.musket_and_pike.words.readings import (
    AnswerLine,
    NoActions,
    Reading,
    StandingLine,
    WingOrders,
    action_text,
)
from adjudicator.games.musket_and_pike.words.standing_words import MEANING
from adjudicator.games.musket_and_pike.words.unit_lines import read_unit

# A misspelt order (CHARGE, MAKE READY, ...) must be this close to be suggested.
ORDER_CUTOFF = 0.5

# --- one line -----------------------------------------------------------------------------------


def read_line(raw: str, names: Names) -> Reading | Complaint | None:
    """What one line says, or why it cannot be read; None when it is not an order at all. The
    line is neither quoted nor holds an overlong number: ``core.lines`` sets those aside first."""
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
        return read_unit(actor, actor in names.leaders, rest, names)
    return _unknown(head, rest, names)


def _id_like(token: Token | None, names: Names, pool: tuple[str, ...]) -> bool:
    """An id, or a word shaped like one (ids carry a hyphen or a digit: R-A, P-HI-2) or close to
    one: a typo worth a "did you mean", where a plain word of a sentence is not."""
    word = token.word if token is not None else None
    if word is None:
        return False
    if names.find(word, pool) is not None or "-" in word or any(ch.isdigit() for ch in word):
        return True
    typed = squash(word)
    return any(suggest.likeness(typed, squash(ident)) >= FUZZY_CUTOFF for ident in pool)


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
        return bool(words) and suggest.near(words[0], kinds, cutoff=FUZZY_CUTOFF)
    if word == "default":
        return all(w in DEFAULT_KINDS for w in words)
    if word in ("no", "none"):
        return (not words and word == "none") or (bool(words) and words[0] in NO_WHAT)
    return True


def standing_kinds() -> tuple[str, ...]:
    """The kinds of standing instruction, as their word is written (PREEMPT, CONTINUE, ...)."""
    return tuple(kind for kind, _value in MEANING)


def _unknown(head: str, rest: list[Token], names: Names) -> Reading | Complaint | None:
    guess = suggest.order_word(
        head,
        FUZZY_WORDS,
        cutoff=FUZZY_CUTOFF,
        takes=lambda word: len(rest) <= 4 and _takes(DECISION_WORDS[word], rest, names),
    )
    if guess is not None:
        return Complaint(
            "unknown-word", _("%(word)s is not an order word", word=repr(head)), guess.upper()
        )
    verb = rest[0].word if rest else None
    # CHARGE and RALLY are orders and actions both: unit ids carry a number, wing ids need not.
    unit_like = verb in VERBS and any(ch.isdigit() for ch in head)
    if rest and (rest[0].eq or _order_at(rest, 0) is not None) and not unit_like:
        return Complaint(
            "unknown-wing",
            _("there is no wing %(word)s", word=repr(head)),
            names.near(head, names.wings),
        )
    looks_like_unit = verb in VERBS or (rest and rest[0].hex is not None)
    if looks_like_unit or (len(rest) <= 3 and any(ch.isdigit() for ch in head) and "-" in head):
        pool = names.units + names.leaders + names.wings
        near = names.near(head, pool)
        return Complaint(
            "unknown-unit", _("there is no unit, leader or wing %(word)s", word=repr(head)), near
        )
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
    near = suggest.closest(word or "", ORDERS, cutoff=ORDER_CUTOFF)
    choices = ", ".join(o.upper() for o in ORDERS)
    if word is None:
        return Complaint(
            "unknown-order", _("an order is missing: one of %(orders)s", orders=choices)
        )
    return Complaint(
        "unknown-order",
        _("%(word)s is not an order: one of %(orders)s", word=repr(word), orders=choices),
        near,
    )


def _wing_at(tokens: list[Token], index: int, names: Names) -> str | Complaint:
    if index >= len(tokens) or tokens[index].word is None:
        return Complaint(
            "malformed", _("a wing is missing"), names.wings[0] if names.wings else None
        )
    word = str(tokens[index].word)
    wing = names.find(word, names.wings)
    if wing is None:
        return Complaint(
            "unknown-wing",
            _("there is no wing %(word)s", word=repr(word)),
            names.near(word, names.wings),
        )
    return wing


def _wing_orders(tokens: list[Token], names: Names) -> Reading | Complaint:
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
                reason = _("a wing's decision starts with the word, not the wing")
                return Complaint("malformed", reason, f"{verb} {wing}")
            return _order_complaint(tokens, index)
        order, index = found
        pairs.append((wing, order))
    return WingOrders(tuple(pairs))


def _decision(word: str, rest: list[Token], names: Names) -> Reading | Complaint:
    words = [t.word for t in rest if t.word is not None]
    if word == "standing":
        if not words:
            return Complaint("malformed", _("STANDING takes PREEMPT, CONTINUE or RETREAT"))
        read = standing.read(words[0], words[1:])
        if isinstance(read, Refusal):
            return Complaint("malformed", read.reason)
        return StandingLine(*read)
    if word == "orders":
        if not rest:
            return Complaint(
                "malformed", _("write: %(form)s", form="ORDERS WING=ORDER WING=ORDER ...")
            )
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
        return Complaint("malformed", _("write NO PREEMPT, NO ACTIONS or NO CHANGE"), "NO PREEMPT")
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


# --- the canonical order set --------------------------------------------------------------------


def orders_text(orders: JSON) -> str | None:
    """An order set as a player would mail it; ``read_mail`` reads it back to the same set."""
    if not isinstance(orders, dict):
        return None
    lines: list[str] = []
    answer = orders.get("answer")
    if isinstance(answer, str):
        lines.append(decisions.in_words(answer))
    elif isinstance(answer, list):
        lines += [action_text(order) for order in answer] or ["NO ACTIONS"]
    actions = orders.get("actions")
    if isinstance(actions, list):
        lines += [action_text(order) for order in actions] or ["NO ACTIONS"]
    for kind, value in dict(orders.get("standing") or {}).items():
        lines.append(standing.phrase(str(kind), str(value)))
    return "\n".join(lines) if lines else None
