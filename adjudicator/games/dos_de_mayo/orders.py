"""One side's order set as typed values: the items a mail's lines are read into, the checked set
that ``resolve`` takes, and both in canonical JSON and canonical text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.games.dos_de_mayo.cards import card_data


@dataclass(frozen=True)
class Move:
    """A move along ``path`` (origin first; an off-map stack may be the origin)."""

    path: tuple[str, ...]
    units: int | None = None  # None: Spain's whole group (those allowed to leave)

    @property
    def origin(self) -> str:
        return self.path[0]

    def text(self) -> str:
        count = "" if self.units is None else f" x{self.units}"
        return "-".join(self.path) + count


@dataclass(frozen=True)
class Play:
    """PLAY <card> with its arguments: an area, or a move (2-step path or a stack's entry)."""

    card: str
    target: str | None = None
    move: Move | None = None

    def args(self) -> str:
        if self.target is not None:
            return self.target
        return "" if self.move is None else self.move.text()

    def text(self) -> str:
        args = self.args()
        keyword = card_data().card(self.card).keyword
        return f"PLAY {keyword} {args}" if args else f"PLAY {keyword}"


@dataclass(frozen=True)
class Aim:
    """ARTILLERY <area>: where a lasting card's bonus goes this turn."""

    card: str
    area: str

    def text(self) -> str:
        aim = card_data().card(self.card).effect.aim or ""
        return f"{aim} {self.area}"


@dataclass(frozen=True)
class Take:
    card: str

    def text(self) -> str:
        return f"TAKE {card_data().card(self.card).keyword}"


@dataclass(frozen=True)
class Draw:
    draw: bool

    def text(self) -> str:
        return "DRAW" if self.draw else "NODRAW"


@dataclass(frozen=True)
class Hold:
    area: str

    def text(self) -> str:
        return f"HOLD {self.area}"


@dataclass(frozen=True)
class Add:
    """ADD as the first order line: merge these lines into the set already on file."""

    def text(self) -> str:
        return "ADD"


Item = Move | Play | Aim | Take | Draw | Hold | Add


@dataclass(frozen=True)
class OrderSet:
    """A checked order set. Canonical order: TAKE, plays, aims, moves, draw."""

    add: bool = False
    take: str | None = None
    plays: tuple[Play, ...] = ()
    aims: tuple[Aim, ...] = ()
    moves: tuple[Move, ...] = ()
    draw: bool = True

    def items(self) -> list[Item]:
        items: list[Item] = [Take(self.take)] if self.take else []
        return [*items, *self.plays, *self.aims, *self.moves, Draw(self.draw)]

    def lines(self) -> list[str]:
        return [item.text() for item in self.items()]

    def to_json(self) -> dict[str, Any]:
        return {
            "add": self.add,
            "take": self.take,
            "plays": [_play_json(play) for play in self.plays],
            "aims": {aim.card: aim.area for aim in self.aims},
            "moves": [_move_json(move) for move in self.moves],
            "draw": self.draw,
        }


def _move_json(move: Move) -> dict[str, Any]:
    return {"path": list(move.path), "units": move.units}


def _play_json(play: Play) -> dict[str, Any]:
    return {
        "card": play.card,
        "target": play.target,
        "move": None if play.move is None else _move_json(play.move),
    }


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _move(raw: Any) -> Move | str:
    if not isinstance(raw, Mapping):
        return "a move must be an object with path and units"
    path = raw.get("path")
    units = raw.get("units")
    if not isinstance(path, list) or not 2 <= len(path) <= 3:
        return "a move's path must list two or three areas"
    for area in path:
        if not isinstance(area, str):
            return "a move's path must list areas by their ids"
    if units is not None and (_count(units) is None or units < 1):
        return "a move's units must be a positive count or null"
    return Move(tuple(path), units)


def order_set_from_json(data: Any) -> OrderSet | str:
    """The order set, or a sentence saying what is wrong with the JSON (never raises)."""
    if not isinstance(data, Mapping):
        return "the order set must be a JSON object"
    known = card_data().by_id
    if not isinstance(data.get("plays", []), list) or not isinstance(data.get("moves", []), list):
        return "plays and moves must be lists"
    take = data.get("take")
    if take is not None and take not in known:
        return f"unknown start card {take!r}"
    plays: list[Play] = []
    for raw in data.get("plays", []):
        if not isinstance(raw, Mapping) or raw.get("card") not in known:
            return f"a play must name a known card: {raw!r}"
        move = None if raw.get("move") is None else _move(raw["move"])
        if isinstance(move, str):
            return move
        target = raw.get("target")
        plays.append(Play(str(raw["card"]), None if target is None else str(target), move))
    aims_raw = data.get("aims", {})
    if not isinstance(aims_raw, Mapping):
        return "aims must map a card id to an area"
    if any(card not in known for card in aims_raw):
        return "aims must name known cards"
    aims = tuple(Aim(str(card), str(area)) for card, area in aims_raw.items())
    moves: list[Move] = []
    for raw in data.get("moves", []):
        move = _move(raw)
        if isinstance(move, str):
            return move
        moves.append(move)
    draw = data.get("draw", True)
    if not isinstance(draw, bool) or not isinstance(data.get("add", False), bool):
        return "draw and add must be true or false"
    return OrderSet(
        add=bool(data.get("add", False)),
        take=None if take is None else str(take),
        plays=tuple(plays),
        aims=aims,
        moves=tuple(moves),
        draw=draw,
    )
