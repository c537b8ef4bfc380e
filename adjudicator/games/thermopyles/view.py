"""What the player and the public archive may see of a position, and the legal order forms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.core.chance import permutation
from adjudicator.core.said import _
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.rules import end_facts, excess, free_die
from adjudicator.games.thermopyles.state import SEAT, Position


def _support_range(position: Position) -> str:
    return f" [SUPPORT 0-{position.supports}]" if position.supports else ""


def legal_forms(position: Position, seat: str | None) -> list[str]:
    """The order forms legal now; only the player's own view names the cards in hand."""
    if position.over:
        return []
    forms: list[str] = []
    if excess(position):
        if seat == SEAT:
            cards = "|".join(str(v) for v in sorted(set(position.hand)))
            forms.append(
                _("DISCARD %(cards)s (first; otherwise your lowest card goes)", cards=cards)
            )
        else:
            forms.append(_("DISCARD <card> (first; otherwise your lowest card goes)"))
    if position.hand:
        if seat == SEAT:
            values = sorted(set(position.hand))
            forms += [f"FIGHT {value}{_support_range(position)}" for value in values]
        else:
            forms.append(_("FIGHT <card in hand>%(support)s", support=_support_range(position)))
    forms += ["RETREAT", "RETREAT NODRAW"]
    return forms


def view(position: Position, seat: str | None) -> dict[str, Any]:
    """The seat sees its hand; everyone sees the battle line, the counts and the legal forms.
    Deck orders are never shown, and the public archive sees only how many cards are in hand."""
    data = card_data()
    near, far = position.near_card(), position.far_card()
    own = seat == SEAT
    shown: dict[str, Any] = {
        "game": "thermopyles",
        "seat": SEAT if own else None,
        "turn": position.turn,
        "status": position.status,
        "end": end_facts(position),
        "near": None if near is None else near.to_json(),
        "far": None if far is None else far.to_json(),
        "marker": position.marker,
        "track": {
            "length": data.track_length,
            "free_die_spaces": sorted(data.free_die_spaces),
            "names": {str(space): name for space, name in sorted(data.space_names.items())},
        },
        "free_die": free_die(position),
        "graveyard": {"count": len(position.graveyard), "target": data.graveyard_target},
        "beaten": {"count": position.beaten, "of": len(data.persians)},
        "decks": {"spartan": len(position.spartan_deck), "persian": len(position.persian_deck)},
        "supports": {"left": position.supports, "of": data.supports},
        "hand_size": len(position.hand),
        "hand_limit": position.settings.hand_limit,
        "discard_owed": excess(position) > 0,
        "options": position.settings.to_json(),
        "legal": legal_forms(position, seat),
    }
    if own:
        shown["hand"] = list(position.hand)
    return shown


def scramble_hidden(position: Position, seat: str | None, salt: int) -> Position:
    """The same position with the hidden parts re-dealt: both deck orders always, and for anyone
    but the player also which Spartan cards are in hand rather than in the deck."""
    key = salt.to_bytes(16, "big", signed=True)
    persians = position.persian_deck
    persians = tuple(persians[i] for i in permutation(key, "persian", len(persians)))
    if seat == SEAT:
        deck = position.spartan_deck
        deck = tuple(deck[i] for i in permutation(key, "spartan", len(deck)))
        return replace(position, persian_deck=persians, spartan_deck=deck)
    pool = position.hand + position.spartan_deck
    pool = tuple(pool[i] for i in permutation(key, "spartan", len(pool)))
    size = len(position.hand)
    return replace(
        position,
        persian_deck=persians,
        hand=tuple(sorted(pool[:size])),
        spartan_deck=pool[size:],
    )
