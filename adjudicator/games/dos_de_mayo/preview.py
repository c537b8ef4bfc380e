"""A side's checked orders drawn on the map before anything is resolved, for the order checker.

``preview_facts`` turns a parsed order set into facts of the shape a resolution gives the
picture (``moves``, ``plays``) plus the areas that hold; ``draw`` draws them with the turn maps'
own renderer. Every move is drawn as ordered, none as it would end: nothing is resolved, and only
the ordering side's units and cards (its own orders, its own view) are used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from adjudicator.core.contract import JSON, PREVIEW
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.orders import Move, OrderSet, order_set_from_json
from adjudicator.games.dos_de_mayo.sides import FRANCE, Side, as_side
from adjudicator.games.dos_de_mayo.state import Position


def _here(position: Position, side: Side, node: str) -> int:
    """The side's units in an area or an off-map stack (French only), as its own view shows."""
    the_board = board()
    if node in the_board.stacks:
        return position.stack(node) if side == FRANCE else 0
    return position.at(side, node)


def _moves(position: Position, side: Side, moves: tuple[Move, ...]) -> list[dict[str, Any]]:
    """Each move with the units it takes: its count, or (without one) what the other lines from
    the same area leave, which for Spain is the whole group."""
    counted = Counter[str]()
    for move in moves:
        if move.units is not None:
            counted[move.origin] += move.units
    drawn = []
    for move in moves:
        units = move.units
        if units is None:
            units = max(_here(position, side, move.origin) - counted[move.origin], 1)
        drawn.append({"side": side, "path": list(move.path), "units": units, "result": "moved"})
    return drawn


def _holds(position: Position, side: Side, moves: list[dict[str, Any]]) -> list[str]:
    """The areas where some of the side's units stay: groups without orders hold."""
    leaving = Counter[str]()
    for move in moves:
        leaving[move["path"][0]] += int(move["units"])
    return [
        area
        for area in board().areas
        if _here(position, side, area) > leaving[area] and _here(position, side, area)
    ]


def preview_facts(position: Position, seat: str, orders: JSON) -> dict[str, Any] | None:
    """The order set as facts to draw, or None when it is not a 2 de Mayo order set."""
    side = as_side(seat)
    read = order_set_from_json(orders)
    if side is None or not isinstance(read, OrderSet):
        return None
    card_moves = tuple(play.move for play in read.plays if play.move is not None)
    moves = _moves(position, side, (*read.moves, *card_moves))
    data = card_data()
    # Each card at the area it acts on: its target, the end of its move, or an aim's area.
    plays: list[dict[str, Any]] = []
    for play in read.plays:
        at = play.target or (play.move.path[-1] if play.move else None)
        plays.append({"id": play.card, "name": data.card(play.card).en, "args": play.args()})
        plays[-1]["at"] = at
    for aim in read.aims:
        plays.append({"id": aim.card, "name": data.card(aim.card).en, "args": aim.area})
        plays[-1]["at"] = aim.area
    return {
        PREVIEW: True,
        "side": side,
        "moves": moves,
        "plays": plays,
        "holds": _holds(position, side, moves),
    }


def draw(view: Mapping[str, Any], facts: Mapping[str, Any], scale: int = 1) -> bytes:
    """The map of ``view`` with the planned orders on it, as a PNG ``scale`` times the size."""
    # The renderer and the imaging library load only when a picture is drawn.
    from adjudicator.games.dos_de_mayo import preview_marks, render

    planned = {
        **view,
        "last_moves": list(facts.get("moves") or []),
        # The panel lists last turn's cards: the planned plays are marked on the map instead.
        "cards_played_last_turn": [],
        "combats": [],
        "removed": [],
    }
    image = render.picture(planned, scale)
    preview_marks.mark(image, facts, scale)
    return render.encode(image)
