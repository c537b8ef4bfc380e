"""A varied sample of legal order sets for a side, for random play-outs and the conformance test.

Every combination would explode (France alone has thousands), so this builds a dozen candidate
sets from a deterministic picker (hashing the position: the same position gives the same list)
mixing holds, moves, splits, reinforcements and card plays, then keeps what ``checks`` accepts.
The no-orders default comes first.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.checks import check_items
from adjudicator.games.dos_de_mayo.orders import Aim, Draw, Item, Move, OrderSet, Play, Take
from adjudicator.games.dos_de_mayo.sides import FRANCE, Side, other
from adjudicator.games.dos_de_mayo.state import Position

VARIANTS = 12


class _Picker:
    """Deterministic choices from a key: sha256(key | counter)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0

    def below(self, bound: int) -> int:
        self.counter += 1
        digest = hashlib.sha256(self.key + self.counter.to_bytes(4, "big")).digest()
        return int.from_bytes(digest[:8], "big") % max(bound, 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def pick(self, items: list[str]) -> str:
        return items[self.below(len(items))]


def default_set(position: Position, side: Side) -> OrderSet:
    """No orders: every group holds, DRAW, no card; France's turn-1 start card the default."""
    if side == FRANCE and position.start_choice:
        return OrderSet(take=card_data().france_default)
    return OrderSet()


def legal_sets(position: Position, side: Side) -> list[dict[str, Any]]:
    if position.over:
        return []
    key = repr((position.turn, side, position.units, position.stacks, position.hands)).encode()
    picker = _Picker(key)
    found = [default_set(position, side).to_json()]
    seen = {json.dumps(found[0], sort_keys=True)}
    for variant in range(VARIANTS):
        items = _candidate(position, side, picker, variant)
        _, accepted = check_items(position, side, items)
        data = accepted.to_json()
        text = json.dumps(data, sort_keys=True)
        if text not in seen:
            seen.add(text)
            found.append(data)
    return found


def _candidate(position: Position, side: Side, picker: _Picker, variant: int) -> list[Item]:
    the_board = board()
    items: list[Item] = []
    hand = list(position.hands[side])
    if side == FRANCE and position.start_choice:
        take = picker.pick(list(position.start_choice))
        items.append(Take(take))
        hand.append(take)
    played: list[str] = []
    for card_id in hand:
        if picker.chance(1, 2):
            play = _play(position, side, card_data().card(card_id), picker)
            if play is not None:
                items.append(play)
                played.append(card_id)
    for card_id in [*position.in_play, *played]:
        card = card_data().card(card_id)
        if card.side == side and card.effect.aim:
            own = [a for a in the_board.areas if position.at(side, a)]
            if own and picker.chance(3, 4):
                items.append(Aim(card_id, picker.pick(own)))
    eagerness = 1 + variant % 4  # from a few moves to many, so holds and busy turns both occur
    for origin in _origins(position, side):
        if picker.chance(eagerness, 4):
            items += _moves(position, side, origin, picker)
    if picker.chance(1, 4):
        items.append(Draw(False))
    return items


def _origins(position: Position, side: Side) -> list[str]:
    the_board = board()
    origins = [area for area in the_board.areas if position.at(side, area)]
    if side == FRANCE:
        origins += [stack for stack in the_board.stacks if position.stack(stack)]
    return origins


def _moves(position: Position, side: Side, origin: str, picker: _Picker) -> list[Item]:
    the_board = board()
    if origin in the_board.stack_gate:
        count = 1 + picker.below(position.stack(origin))
        return [Move((origin, the_board.stack_gate[origin]), count)]
    here = position.at(side, origin)
    first = picker.pick(list(the_board.neighbours[origin]))
    if side != FRANCE or here < 2 or picker.chance(1, 2):
        return [Move((origin, first), here if side == FRANCE else None)]
    split = 1 + picker.below(here - 1)
    second = picker.pick(list(the_board.neighbours[origin]))
    return [Move((origin, first), split), Move((origin, second), here - split)]


def _play(position: Position, side: Side, card: Card, picker: _Picker) -> Play | None:
    the_board = board()
    if card.args == "none":
        return Play(card.id)
    if card.args == "area":
        busy = [a for a in the_board.areas if position.at(side, a) or position.at(other(side), a)]
        candidates = sorted(set(busy) | (card.target.also if card.target else frozenset()))
        return Play(card.id, target=picker.pick(candidates)) if candidates else None
    if card.args == "entry":
        stack = picker.pick(list(the_board.stacks))
        return Play(card.id, move=Move((stack, the_board.stack_gate[stack]), None))
    origins = [a for a in the_board.areas if position.at(side, a)]
    if not origins:
        return None
    origin = picker.pick(origins)
    middle = picker.pick(list(the_board.neighbours[origin]))
    ends = [a for a in the_board.neighbours[middle] if a != origin]
    units = position.at(side, origin) if side == FRANCE else None
    return Play(card.id, move=Move((origin, middle, picker.pick(ends)), units))
