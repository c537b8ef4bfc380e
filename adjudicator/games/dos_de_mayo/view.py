"""What a side, or the public archive, may see of a position; and the hidden parts re-dealt for
the no-leak check. A side sees its own hand only; everyone sees hand sizes and played cards."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from adjudicator.core import said
from adjudicator.core.chance import permutation
from adjudicator.core.contract import JSON, Strength
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.codec import last_json
from adjudicator.games.dos_de_mayo.sides import FRANCE, SIDES, SPAIN, Side, as_side
from adjudicator.games.dos_de_mayo.state import Position
from adjudicator.games.dos_de_mayo.wording import spanish_on_map

GAME_KEY = "2demayo"


def _card(card_id: str, **extra: str) -> dict[str, str]:
    card = card_data().card(card_id)
    return {"id": card.id, "name": card.en, "side": card.side, **extra}


def end_sentence(position: Position) -> str | None:
    """Why the game ended, in words (None while it runs)."""
    if not position.over:
        return None
    limit, lost = position.loss_limit(), position.losses.france
    if position.end_reason == "loss-limit":
        return _(
            "France lost %(lost)s units, reaching its loss limit of %(limit)s: Spain wins",
            lost=lost,
            limit=limit,
        )
    if position.end_reason == "france-wins":
        return _(
            "Madrid is taken after turn %(turn)s: France wins with %(lost)s losses",
            turn=position.turn,
            lost=lost,
        )
    the_board = board()
    failures = []
    spanish = position.on_map(SPAIN)
    if spanish:
        failures.append(spanish_on_map(spanish))
    empty = [gate for gate in the_board.gates if not position.at(FRANCE, gate)]
    if empty:
        failures.append(_("no French unit on %(gates)s", gates=", ".join(empty)))
    return _(
        "Spain holds out after turn %(turn)s: %(failures)s",
        turn=position.turn,
        failures=said.joined(failures) if failures else _("no win"),
    )


def view(position: Position, seat: str | None) -> dict[str, Any]:
    the_board = board()
    own = as_side(seat)
    last = last_json(position.last) or {}
    shown: dict[str, Any] = {
        "game": GAME_KEY,
        "seat": own,
        "turn": position.turn,
        "last_turn": position.last_turn,
        "status": position.status,
        "winner": position.winner,
        "end_reason": position.end_reason,
        "end_sentence": end_sentence(position),
        "turns": the_board.rules.turns,
        "options": position.settings.to_json(),
        "areas": {
            area: {"france": position.units.france[i], "spain": position.units.spain[i]}
            for i, area in enumerate(the_board.areas)
        },
        "off_map": dict(zip(the_board.stacks, position.stacks, strict=True)),
        "set_aside": {side: position.set_aside[side] for side in SIDES},
        "losses": {side: position.losses[side] for side in SIDES},
        "gone": {side: position.gone[side] for side in SIDES},
        "loss_limit": position.loss_limit(),
        "initiative": position.initiative(),
        "cards_in_play": [_card(c) for c in position.in_play],
        "cards_played": [_card(c) for c in position.played],
        "cards_discarded": [_card(c) for c in position.discarded],
        "cards_played_last_turn": [_card(p["id"], args=p["args"]) for p in last.get("plays", [])],
        "turn_effects": [_card(c) for c in position.turn_effects],
        "start_choice": [_card(c) for c in position.start_choice],
        "hand_sizes": {side: len(position.hands[side]) for side in SIDES},
        "deck_sizes": {side: len(position.decks[side]) for side in SIDES},
        "last_moves": last.get("moves", []),
        "last_orders": last.get("orders", []),
        "combats": last.get("combats", []),
        "removed": last.get("removed", []),
    }
    if own is not None:
        shown["hand"] = [{"id": c, "name": card_data().card(c).en} for c in position.hands[own]]
        shown["drawn"] = [{"id": c, "name": card_data().card(c).en} for c in position.drawn[own]]
    return shown


def _mixed(key: bytes, label: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(cards[i] for i in permutation(key, label, len(cards)))


def _redeal(position: Position, side: Side, key: bytes) -> Position:
    """The side's hand and deck pooled and dealt again, the hand keeping its size."""
    hand = position.hands[side]
    pool = _mixed(key, f"{side}-pool", hand + position.decks[side])
    new_hand = pool[: len(hand)]
    kept = tuple(c for c in position.drawn[side] if c not in hand)
    from_hand = len(position.drawn[side]) - len(kept)
    return replace(
        position,
        hands=position.hands.put(side, new_hand),
        decks=position.decks.put(side, pool[len(hand) :]),
        drawn=position.drawn.put(side, kept + new_hand[:from_hand]),
    )


def scramble_hidden(position: Position, seat: str | None, salt: int) -> Position:
    """Deck orders always; the other side's hand (both hands for the public) re-dealt."""
    key = hashlib.sha256(f"scramble|{salt}".encode()).digest()
    own = as_side(seat)
    for side in SIDES:
        if side == own:
            decks = position.decks.put(side, _mixed(key, f"{side}-deck", position.decks[side]))
            position = replace(position, decks=decks)
        else:
            position = _redeal(position, side, key)
    return position


def strength(views: Sequence[JSON]) -> Strength | None:
    """Each side's units on the map (summed over the areas) and losses after each public view;
    None unless every view has both (a view stored by an older version may lack them)."""
    shown = [
        view
        for view in views
        if isinstance(view, dict)
        and isinstance(view.get("areas"), dict)
        and isinstance(view.get("losses"), dict)
    ]
    if not shown or len(shown) != len(views):
        return None
    sides = list(shown[0]["losses"])
    on_map = {side: tuple(_on_map(view, side) for view in shown) for side in sides}
    losses = {side: tuple(int(view["losses"].get(side, 0)) for view in shown) for side in sides}
    limit = shown[-1].get("loss_limit")
    return Strength(on_map, losses, limit if isinstance(limit, int) else None)


def _on_map(view: dict[str, Any], side: str) -> int:
    return sum(int(units.get(side, 0)) for units in view["areas"].values())
