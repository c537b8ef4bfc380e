"""The scratch pad of one adjudication: a mutable copy of the position plus this turn's effects.

``resolve`` is pure from outside (a frozen position in, a new one out); inside, the numbered steps
share this one working copy, which is much faster than rebuilding frozen values at every step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.core.chance import Chance
from adjudicator.core.contract import OrderOutcome
from adjudicator.games.dos_de_mayo.board import Board, board
from adjudicator.games.dos_de_mayo.cards import CardData, card_data
from adjudicator.games.dos_de_mayo.orders import OrderSet
from adjudicator.games.dos_de_mayo.sides import SIDES, Side
from adjudicator.games.dos_de_mayo.state import (
    CombatRecord,
    LastTurn,
    MoveRecord,
    Pair,
    PlayRecord,
    Position,
    RemovedRecord,
)


@dataclass
class Work:
    before: Position
    chance: Chance
    board: Board
    data: CardData
    turn: int
    initiative: Side
    units: dict[Side, list[int]]
    stacks: list[int]
    set_aside: dict[Side, int]
    losses: dict[Side, int]
    gone: dict[Side, int]
    hands: dict[Side, list[str]]
    decks: dict[Side, list[str]]
    played: list[str]
    discarded: list[str]
    in_play: list[str]
    start_choice: list[str]
    orders: dict[Side, OrderSet] = field(default_factory=dict)
    outcomes: list[OrderOutcome] = field(default_factory=list)
    # This turn's card effects, registered by the steps that read the cards.
    blocked: dict[Side, set[str]] = field(default_factory=dict)  # areas a side may not enter
    cancelled: dict[Side, set[str]] = field(default_factory=dict)  # origins whose order is void
    whole: dict[Side, set[str]] = field(default_factory=dict)  # origins left with nobody staying
    # Records for the report, the view of the next turn and the facts.
    moves: list[MoveRecord] = field(default_factory=list)
    combats: list[CombatRecord] = field(default_factory=list)
    removed: list[RemovedRecord] = field(default_factory=list)
    plays: list[PlayRecord] = field(default_factory=list)
    records: list[OrderOutcome] = field(default_factory=list)  # the public ones
    effect_order: list[str] = field(default_factory=list)
    drawn: dict[Side, list[str]] = field(default_factory=dict)
    draws: dict[Side, str] = field(default_factory=dict)  # what became of each side's DRAW
    turn_effects: list[str] = field(default_factory=list)
    over: bool = False
    winner: Side | None = None
    end_reason: str | None = None
    end_detail: str = ""

    @staticmethod
    def start(position: Position, chance: Chance) -> Work:
        return Work(
            before=position,
            chance=chance,
            board=board(),
            data=card_data(),
            turn=position.turn,
            initiative=position.initiative(),
            units={side: list(position.units[side]) for side in SIDES},
            stacks=list(position.stacks),
            set_aside={side: position.set_aside[side] for side in SIDES},
            losses={side: position.losses[side] for side in SIDES},
            gone={side: position.gone[side] for side in SIDES},
            hands={side: list(position.hands[side]) for side in SIDES},
            decks={side: list(position.decks[side]) for side in SIDES},
            played=list(position.played),
            discarded=list(position.discarded),
            in_play=list(position.in_play),
            start_choice=list(position.start_choice),
            blocked={side: set() for side in SIDES},
            cancelled={side: set() for side in SIDES},
            whole={side: set() for side in SIDES},
            drawn={side: [] for side in SIDES},
        )

    def at(self, side: Side, area: str) -> int:
        return self.units[side][self.board.index[area]]

    def add(self, side: Side, area: str, count: int) -> None:
        self.units[side][self.board.index[area]] += count

    def outcome(self, side: Side, order: str, code: str, detail: str, public: bool = True) -> None:
        """One order's result; public ones are also the revealed orders of the next report."""
        outcome = OrderOutcome(side, order, code, detail, public)
        self.outcomes.append(outcome)
        if public:
            self.records.append(outcome)

    def draw_card(self, side: Side) -> str | None:
        """The top card of a side's deck into its hand (None when the deck is empty)."""
        if not self.decks[side]:
            return None
        card = self.decks[side].pop(0)
        self.hands[side].append(card)
        self.drawn[side].append(card)
        return card

    def finish(self) -> Position:
        """The frozen position after this turn (and the next turn's Preparation)."""
        last = LastTurn(
            turn=self.turn,
            moves=tuple(self.moves),
            combats=tuple(self.combats),
            removed=tuple(self.removed),
            plays=tuple(self.plays),
            orders=tuple(self.records),
        )
        return Position(
            settings=self.before.settings,
            turn=self.turn if self.over else self.turn + 1,
            last_turn=self.turn,
            status="over" if self.over else "playing",
            winner=self.winner,
            end_reason=self.end_reason,
            units=Pair(tuple(self.units["france"]), tuple(self.units["spain"])),
            stacks=tuple(self.stacks),
            set_aside=Pair(self.set_aside["france"], self.set_aside["spain"]),
            losses=Pair(self.losses["france"], self.losses["spain"]),
            gone=Pair(self.gone["france"], self.gone["spain"]),
            hands=Pair(tuple(self.hands["france"]), tuple(self.hands["spain"])),
            decks=Pair(tuple(self.decks["france"]), tuple(self.decks["spain"])),
            played=tuple(self.played),
            discarded=tuple(self.discarded),
            in_play=tuple(self.in_play),
            start_choice=tuple(self.start_choice),
            turn_effects=tuple(self.turn_effects),
            drawn=Pair(tuple(self.drawn["france"]), tuple(self.drawn["spain"])),
            last=last,
        )
