"""Standing instructions: a side's answers given in advance, so that the decisions they cover are
answered the moment they come up instead of waiting a mail round trip.

Three kinds, each one value per side, kept in ``Position.extra`` under ``standing.<side>.<kind>``
(so ``state.dump``/``load`` carry them unchanged):

- preempt:  never | charge (only with a wing holding Charge) | charge-ac | always | always-ac
- continue: never | adjacent (while a unit of the wing touches an enemy) | up-to-2 | up-to-3
- retreat:  edge (toward my own map edge) | away (away from the nearest enemy)

"ask" removes an instruction: the decision is mailed again. A side's instructions are private:
``view`` shows them to that side only.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import sequence
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.decisions import Answer, Continue, Preempt
from adjudicator.games.musket_and_pike.rules.field import contacts
from adjudicator.games.musket_and_pike.rules.state import STANDING_PREFIX, Position

KINDS = ("preempt", "continue", "retreat")
ASK = "ask"
PREFIX = STANDING_PREFIX
# Each kind's values, in the order they are offered, and how each is written back in a mail:
# ``read`` reads every one of these to the same value.
WRITTEN: dict[str, dict[str, str]] = {
    "preempt": {
        "never": "NEVER",
        "charge": "WHEN CHARGE",
        "charge-ac": "WHEN CHARGE WITH AC",
        "always": "ALWAYS",
        "always-ac": "ALWAYS WITH AC",
    },
    "continue": {
        "never": "NEVER",
        "adjacent": "WHILE ADJACENT",
        "up-to-2": "UP TO 2",
        "up-to-3": "UP TO 3",
    },
    "retreat": {"edge": "TOWARD MY EDGE", "away": "AWAY FROM ENEMY", "choose": "ASK ME"},
}
VALUES = {kind: tuple(written) for kind, written in WRITTEN.items()}
KIND_WORDS = {
    "preempt": "preempt",
    "pre-empt": "preempt",
    "preemption": "preempt",
    "pre-emption": "preempt",
    "continue": "continue",
    "continuation": "continue",
    "retreat": "retreat",
    "retreats": "retreat",
    "rout": "retreat",
}
_ASK_WORDS = {"ask", "off", "clear", "cancel", "reset", "remove"}
_NO_WORDS = {"never", "no", "not", "none", "stop"}
_AC_WORDS = {"ac", "commander", "general"}


def phrase(kind: str, value: str) -> str:
    """The canonical mail line for an instruction."""
    words = "ASK" if value == ASK else WRITTEN[kind][value]
    return f"STANDING {kind.upper()} {words}"


def read(kind_word: str, words: list[str]) -> tuple[str, str] | Refusal:
    """(kind, value) from the words after STANDING, or why they are not an instruction."""
    kind = KIND_WORDS.get(kind_word)
    if kind is None:
        return Refusal(
            _("STANDING takes PREEMPT, CONTINUE or RETREAT"),
            "malformed",
        )
    said = set(words)
    if kind == "retreat" and said & {"me", "choose", "mail"}:
        # Unlike the others, a retreat is never asked unless the player says so: without an
        # instruction the routers run away from the enemy with no round trip.
        return kind, "choose"
    if said & _ASK_WORDS:
        return kind, ASK
    value = {"preempt": _preempt, "continue": _continue, "retreat": _retreat}[kind](words, said)
    if value is None:
        options = " | ".join(WRITTEN[kind].values())
        return Refusal(
            _(
                "%(word)s takes %(kinds)s",
                word=f"STANDING {kind.upper()}",
                kinds=f"{options} | ASK",
            ),
            "malformed",
        )
    return kind, value


def _preempt(words: list[str], said: set[str]) -> str | None:
    helped = bool(said & _AC_WORDS)
    if said & _NO_WORDS:
        return "never"
    if "charge" in said:
        return "charge-ac" if helped else "charge"
    if said & {"always", "yes", "whenever", "every", "any"}:
        return "always-ac" if helped else "always"
    return None


def _continue(words: list[str], said: set[str]) -> str | None:
    numbers = [int(word) for word in words if word.isdigit()]
    if numbers:
        count = numbers[0]
        if count <= 1:
            return "never"
        return "up-to-2" if count == 2 else "up-to-3"
    if said & _NO_WORDS:
        return "never"
    if said & {"adjacent", "contact", "engaged", "touching", "enemy", "enemies"}:
        return "adjacent"
    if said & {"always", "max", "maximum", "yes"}:
        return "up-to-3"
    return None


def _retreat(words: list[str], said: set[str]) -> str | None:
    # "away from enemy" names the enemy too, so "away" is read first.
    if said & {"away", "from"}:
        return "away"
    if said & {"edge", "home", "my", "own", "rear", "back", "toward", "towards"}:
        return "edge"
    return None


def _key(side: str, kind: str) -> str:
    return f"{PREFIX}{side}.{kind}"


def of(position: Position, side: str) -> dict[str, str]:
    """The side's standing instructions, by kind."""
    out: dict[str, str] = {}
    for kind in KINDS:
        value = dict(position.extra).get(_key(side, kind))
        if value is not None:
            out[kind] = value
    return out


def with_instruction(position: Position, side: str, kind: str, value: str) -> Position:
    """The position with the instruction set (or removed, for "ask")."""
    key = _key(side, kind)
    kept = tuple((k, v) for k, v in position.extra if k != key)
    if value != ASK:
        kept = (*kept, (key, value))
    return replace(position, extra=tuple(sorted(kept)))


def without_side(position: Position, side: str) -> Position:
    """The position without the side's instructions (what another side's view may hold)."""
    start = f"{PREFIX}{side}."
    return replace(
        position, extra=tuple((k, v) for k, v in position.extra if not k.startswith(start))
    )


def answer_for(position: Position, side: str, rules: CommandRules) -> Answer | None:
    """The answer the side's standing instruction gives to the decision it owes now, or None when
    no instruction covers it."""
    held = of(position, side)
    if side not in sequence.pending(position, rules):
        return None
    if position.step == "preempt" and "preempt" in held:
        return _preempt_answer(position, side, held["preempt"], rules)
    if position.step == "continuation" and "continue" in held:
        return Continue(_goes_on(position, held["continue"]))
    return None


def _preempt_answer(position: Position, side: str, policy: str, rules: CommandRules) -> Answer:
    legal = [a for a in sequence.legal_answers(position, side, rules) if isinstance(a, Preempt)]
    if policy == "never":
        return Preempt(None)
    wanted_ac = policy.endswith("-ac")
    tries = [a for a in legal if a.wing is not None]
    if policy.startswith("charge"):
        tries = [a for a in tries if a.wing is not None and position.wing(a.wing).order == "charge"]
    for wing in dict.fromkeys(a.wing for a in tries):
        # With AC when wanted and open; else the same wing alone.
        helped = Preempt(wing, ac=True)
        if wanted_ac and helped in tries:
            return helped
        return Preempt(wing)
    return Preempt(None)


def _goes_on(position: Position, rule: str) -> bool:
    assert position.current is not None
    wing = position.wing(position.current)
    if rule == "never":
        return False
    if rule == "adjacent":
        return any(
            unit.hex is not None and contacts(position, unit.side, unit.hex)
            for unit in position.units
            if unit.wing == wing.id and unit.morale_state != "routed"
        )
    cap = 2 if rule == "up-to-2" else 3
    return wing.activations < cap
