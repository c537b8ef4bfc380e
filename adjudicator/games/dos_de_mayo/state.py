"""The 2 de Mayo position as frozen values. Its JSON form (dump/load, case files) is in codec.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from adjudicator.core.contract import OrderOutcome
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import FRANCE, SPAIN, Side

T = TypeVar("T")
Status = Literal["playing", "over"]
SETUPS = ("seed", "alt")


@dataclass(frozen=True)
class Pair(Generic[T]):
    """One value per side."""

    france: T
    spain: T

    def __getitem__(self, side: Side) -> T:
        return self.france if side == FRANCE else self.spain

    def put(self, side: Side, value: T) -> Pair[T]:
        return Pair(value, self.spain) if side == FRANCE else Pair(self.france, value)


@dataclass(frozen=True)
class Settings:
    """The game options, fixed at the start and kept in the state so every turn uses them."""

    setup: str = "seed"  # seed | alt: where France's pairs start
    half_stays: str = "floor"  # floor | ceil: Spanish units that stay when leaving French company

    def to_json(self) -> dict[str, str]:
        return {"setup": self.setup, "half_stays": self.half_stays}


@dataclass(frozen=True)
class MoveRecord:
    """One revealed move of the last turn and what became of it."""

    side: Side
    path: tuple[str, ...]  # origin first; 3 entries for a 2-step card move
    units: int
    result: str  # moved | stopped | failed
    why: str = ""


@dataclass(frozen=True)
class CombatRecord:
    area: str
    strength: Pair[int]
    lost: Pair[int]


@dataclass(frozen=True)
class RemovedRecord:
    """Units taken off by a card (Shootings from an area, Desertion from a stack)."""

    area: str
    side: Side
    units: int
    why: str


@dataclass(frozen=True)
class PlayRecord:
    """A card that became public last turn: played with orders, or an on-draw card drawn."""

    card: str
    side: Side
    args: str  # the arguments as written canonically, "" when none, "drawn" for on-draw cards


@dataclass(frozen=True)
class LastTurn:
    """The public facts of the last resolved turn, kept so the archive view can show them."""

    turn: int
    moves: tuple[MoveRecord, ...] = ()
    combats: tuple[CombatRecord, ...] = ()
    removed: tuple[RemovedRecord, ...] = ()
    plays: tuple[PlayRecord, ...] = ()
    orders: tuple[OrderOutcome, ...] = ()  # the revealed orders and their results


@dataclass(frozen=True)
class Position:
    """Everything about a game. Areas and stacks are tuples in board order; decks are top-first."""

    settings: Settings
    turn: int  # the turn whose orders are due (1..10); after the end, the last turn
    last_turn: int  # the last resolved turn, 0 before any
    status: Status
    winner: Side | None
    end_reason: str | None
    units: Pair[tuple[int, ...]]  # per area, board order
    stacks: tuple[int, ...]  # French reinforcements per off-map stack, board order
    set_aside: Pair[int]
    losses: Pair[int]
    gone: Pair[int]  # left the game without being a loss (Desertion)
    hands: Pair[tuple[str, ...]]
    decks: Pair[tuple[str, ...]]
    played: tuple[str, ...]  # cards played (on-draw cards: drawn), public, in order
    discarded: tuple[str, ...]  # cards thrown away unplayed (Collaboration), public
    in_play: tuple[str, ...]  # lasting cards in play
    start_choice: tuple[str, ...]  # France's start options while its turn-1 choice is open
    turn_effects: tuple[str, ...]  # on-draw cards whose effect binds this turn's orders
    drawn: Pair[tuple[str, ...]]  # cards drawn in the last Preparation, shown to their owner
    last: LastTurn | None = None

    @property
    def over(self) -> bool:
        return self.status == "over"

    def at(self, side: Side, area: str) -> int:
        # The hottest call of the checks: Pair's item lookup inlined.
        units = self.units.france if side == FRANCE else self.units.spain
        return units[board().index[area]]

    def stack(self, stack: str) -> int:
        return self.stacks[board().stacks.index(stack)]

    def initiative(self) -> Side:
        """The side with fewer losses so far; the data's side on a tie."""
        if self.losses.france < self.losses.spain:
            return FRANCE
        if self.losses.spain < self.losses.france:
            return SPAIN
        return board().rules.initiative_on_tie

    def loss_limit(self) -> int:
        """France's loss limit: the board's, or a lasting card's once in play (Jacinto Ruiz)."""
        limit = board().rules.france_loss_limit
        data = card_data()
        for card_id in self.in_play:
            effect = data.card(card_id).effect
            if effect.kind == "loss_limit":
                limit = min(limit, effect.amount)
        return limit

    def on_map(self, side: Side) -> int:
        return sum(self.units[side])

    def accounted(self, side: Side) -> int:
        """Every unit of a side wherever it is: the total is fixed for the whole game."""
        total = self.on_map(side) + self.set_aside[side] + self.losses[side] + self.gone[side]
        return total + (sum(self.stacks) if side == FRANCE else 0)

    def has_played(self, card_id: str) -> bool:
        """Whether a card was played in an earlier turn (a lasting one stays in play)."""
        return card_id in self.played or card_id in self.in_play
