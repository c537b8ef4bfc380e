"""One side's order set as typed values: the items a mail's lines are read into, the checked set
that ``resolve`` takes, and both in canonical JSON and canonical text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.codec import Codec, Custom, Form, ShapeError
from adjudicator.core.refusal import Refusal
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
        return CODEC.dump(self)  # type: ignore[no-any-return]


def _aims(data: Any) -> tuple[Aim, ...]:
    if not isinstance(data, Mapping) or not all(isinstance(a, str) for a in data.values()):
        raise ShapeError("expected an object mapping a card id to an area")
    return tuple(Aim(str(card), area) for card, area in data.items())


# The JSON form: aims map a card to its area; a key left out takes its default (no plays, DRAW).
CODEC = Codec(
    forms={
        OrderSet: Form(
            fields={"aims": Custom(lambda aims: {a.card: a.area for a in aims}, _aims)},
            defaults=True,
        ),
        Play: Form(defaults=True),
        Move: Form(defaults=True),
    }
)


def order_set_from_json(data: Any) -> OrderSet | Refusal:
    """The order set, or a refusal saying what is wrong with the JSON (never raises)."""
    if not isinstance(data, Mapping):
        return Refusal("the order set must be a JSON object", "shape")
    read = CODEC.read(OrderSet, dict(data))
    if isinstance(read, Refusal):
        return read
    known = card_data().by_id
    if read.take is not None and read.take not in known:
        return Refusal(f"unknown start card {read.take!r}", "shape")
    for play in read.plays:
        if play.card not in known:
            return Refusal(f"a play must name a known card: {play.card!r}", "shape")
    if any(aim.card not in known for aim in read.aims):
        return Refusal("aims must name known cards", "shape")
    for move in (*(p.move for p in read.plays if p.move), *read.moves):
        if not 2 <= len(move.path) <= 3:
            return Refusal("a move's path must list two or three areas", "shape")
        if move.units is not None and move.units < 1:
            return Refusal("a move's units must be a positive count or null", "shape")
    return read
