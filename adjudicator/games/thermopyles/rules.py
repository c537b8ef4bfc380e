"""The Thermopyles rules: setup, what is legal now, and one action resolved in numbered steps.

Everything here is pure: a position and a ``Chance`` in, a new position and report facts out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.said import N_, _
from adjudicator.games.thermopyles import battle
from adjudicator.games.thermopyles.actions import Action
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.draws import PERSIAN_DECK, SPARTAN_DECK
from adjudicator.games.thermopyles.state import Position, Settings


@dataclass(frozen=True)
class Problem:
    """Why an action is not legal now: a code from the closed set, a sentence (in the reader's
    language, written anew for each), maybe a fix."""

    code: str
    reason: str
    suggestion: str | None = None


@dataclass(frozen=True)
class Turn:
    """One resolved action: the new position, its outcome code and sentence, and report facts."""

    position: Position
    code: str
    detail: str
    facts: dict[str, Any]


def new_game(settings: Settings, chance: Chance) -> Position:
    """Shuffle both decks, deal the near and far Persians and the opening hand."""
    data = card_data()
    spartans = chance.shuffle(SPARTAN_DECK, data.spartans)
    persians = chance.shuffle(PERSIAN_DECK, [card.id for card in data.persians])
    return Position(
        settings=settings,
        spartan_deck=tuple(spartans[data.opening_hand :]),
        hand=tuple(sorted(spartans[: data.opening_hand])),
        spartan_discard=(),
        persian_deck=tuple(persians[2:]),
        near=persians[0],
        far=persians[1],
        graveyard=(),
        persian_discard=(),
        marker=data.start_space,
        supports=data.supports,
        turn=0,
    )


def excess(position: Position) -> int:
    """How many cards the hand holds over the limit (a DISCARD is owed when this is positive)."""
    return max(0, len(position.hand) - position.settings.hand_limit)


def free_die(position: Position) -> bool:
    return position.marker in card_data().free_die_spaces


def without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The hand less one copy of ``card`` (which must be in it)."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def auto_discards(hand: tuple[int, ...], played: int | None, count: int) -> tuple[int, ...]:
    """The cards the hand limit throws away when no DISCARD was given: the lowest ones, but never
    the card the player is about to fight with (that would make a legal order fail)."""
    spare = hand if played is None or played not in hand else without(hand, played)
    return spare[:count]


def legal_actions(position: Position) -> list[Action]:
    """Every legal action now, including each explicit DISCARD when the hand is over the limit."""
    if position.over:
        return []
    discards: list[int | None] = [None]
    if excess(position):
        discards += sorted(set(position.hand))
    actions: list[Action] = []
    for discard in discards:
        hand = position.hand if discard is None else without(position.hand, discard)
        actions.append(Action("retreat", discard=discard))
        actions.append(Action("retreat", draw=False, discard=discard))
        for value in sorted(set(hand)):
            for support in range(position.supports + 1):
                actions.append(Action("fight", value=value, support=support, discard=discard))
    return actions


def game_over() -> Problem:
    """Why no action is taken from a game that is over."""
    return Problem("game-over", _("the game is over; no more orders are taken"))


def check_discard(position: Position, card: int) -> Problem | None:
    """Why DISCARD ``card`` is not legal now, or None when it is."""
    if position.over:
        return game_over()
    if not excess(position):
        held, limit = len(position.hand), position.settings.hand_limit
        return Problem(
            "no-discard-needed",
            _(
                "your hand holds %(held)s cards, within the limit of %(limit)s",
                held=held,
                limit=limit,
            ),
        )
    if card not in position.hand:
        return Problem("card-not-in-hand", _("you hold no %(card)s to discard", card=card))
    return None


def check(position: Position, action: Action) -> Problem | None:
    """Why ``action`` (with its DISCARD, if any) is not legal now, or None when it is."""
    if position.over:
        return game_over()
    hand = position.hand
    if action.discard is not None:
        problem = check_discard(position, action.discard)
        if problem is not None:
            return problem
        hand = without(hand, action.discard)
    if action.kind == "retreat":
        return None
    if not hand:
        return Problem("empty-hand", _("your hand is empty: the only legal action is RETREAT"))
    if action.value not in hand:
        if action.discard is not None:
            reason = _("you hold no %(card)s once the DISCARD is taken", card=action.value)
        else:
            reason = _("you hold no %(card)s", card=action.value)
        return Problem("card-not-in-hand", reason)
    if not 0 <= action.support <= position.supports:
        reason = _(
            "you asked for %(asked)s support cards and have %(left)s left",
            asked=action.support,
            left=position.supports,
        )
        return Problem("support-exceeds-left", reason)
    return None


def resolve(position: Position, action: Action, chance: Chance) -> Turn:
    """One action, in the order the rules give it. Raises ValueError on an illegal action:
    orders reach here only through ``parse_orders`` or ``legal_orders``."""
    # 1. Validate.
    problem = check(position, action)
    if problem is not None:
        raise ValueError(f"illegal Thermopyles action {action.to_json()}: {problem.reason}")
    turn = position.turn + 1
    facts: dict[str, Any] = {"turn": turn, "action": action.to_json(), "understood": action.text()}
    # 2. The hand limit: the named card, else the lowest ones (never the card to be played).
    discards: list[dict[str, Any]] = []
    hand = position.hand
    if action.discard is not None:
        hand = without(hand, action.discard)
        discards.append({"value": action.discard, "why": "declared"})
    over = len(hand) - position.settings.hand_limit
    if over > 0:
        for card in auto_discards(hand, action.value, over):
            hand = without(hand, card)
            discards.append({"value": card, "why": "hand-limit"})
    facts["discards"] = discards
    position = replace(
        position,
        hand=hand,
        spartan_discard=position.spartan_discard + tuple(d["value"] for d in discards),
    )
    # 3. The action itself.
    if action.kind == "retreat":
        position, code, detail = battle.retreat(position, action.draw, facts)
    else:
        position, code, detail = battle.fight(position, action, chance, facts)
    # 4. The end, checked after the whole action: wins before losses.
    position = replace(position, turn=turn)
    position = finish(position)
    facts["end"] = end_facts(position)
    facts["after"] = {
        "marker": position.marker,
        "graveyard": len(position.graveyard),
        "beaten": position.beaten,
        "spartan_deck": len(position.spartan_deck),
        "persian_deck": len(position.persian_deck),
        "supports": position.supports,
        "hand_size": len(position.hand),
    }
    return Turn(position, code, detail, facts)


def finish(position: Position) -> Position:
    """The position with its end decided, if the game has ended."""
    data = card_data()
    reason: str | None = None
    status = "playing"
    persians_left = position.persian_deck or position.near or position.far
    if len(position.graveyard) >= data.graveyard_target:
        status, reason = "won", "graveyard"
    elif position.settings.win_when == "deck-empty" and not position.persian_deck:
        status, reason = "won", "deck-empty"
    elif position.settings.win_when == "all-beaten" and not persians_left:
        status, reason = "won", "all-beaten"
    elif position.marker >= data.track_length:
        status, reason = "lost", "front"
    elif not position.hand and not position.spartan_deck:
        status, reason = "lost", "no-spartans"
    if reason is None:
        return position
    return replace(position, status="won" if status == "won" else "lost", end_reason=reason)


END_SENTENCES = {
    "graveyard": N_("%(target)s Persian units lie in the Graveyard"),
    "deck-empty": N_("the Persian deck is empty"),
    "all-beaten": N_("all %(persians)s Persian units are beaten"),
    "front": N_("the front fell back to space %(length)s"),
    "no-spartans": N_("no Spartan card is left to play while Persians remain"),
}


def end_sentence(position: Position) -> str:
    return reason_sentence(position.end_reason)


def reason_sentence(reason: str | None) -> str:
    """How a game ended (``Position.end_reason``, kept in the facts and the view) in words, in
    the reader's language; empty for a game in play."""
    data = card_data()
    template = END_SENTENCES.get(reason or "")
    if template is None:
        return ""
    return _(
        template,
        target=data.graveyard_target,
        persians=len(data.persians),
        length=data.track_length,
    )


def end_facts(position: Position) -> dict[str, Any] | None:
    if not position.over:
        return None
    return {
        "result": position.status,
        "reason": position.end_reason,
        "sentence": end_sentence(position),
    }
