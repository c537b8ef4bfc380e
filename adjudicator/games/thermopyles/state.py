"""The Thermopyles position as frozen values, and its JSON form with a schema version."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Literal

from adjudicator.core.codec import Codec, Custom, Form, ShapeError
from adjudicator.games.thermopyles.cards import CardData, PersianCard, card_data

SCHEMA = 1
SEAT = "spartans"  # the one seat of this solitaire

Status = Literal["playing", "won", "lost"]
WIN_WHEN = ("deck-empty", "all-beaten")


@dataclass(frozen=True)
class Settings:
    """The game options, fixed at the start and kept in the state so every turn uses them."""

    win_when: str  # "deck-empty": the Persian deck is empty; "all-beaten": every Persian beaten
    hand_limit: int

    def to_json(self) -> dict[str, str]:
        return CODEC.dump(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Position:
    """Everything about a game in progress. Decks are top-first; the hand is kept sorted."""

    settings: Settings
    spartan_deck: tuple[int, ...]
    hand: tuple[int, ...]
    spartan_discard: tuple[int, ...]
    persian_deck: tuple[str, ...]  # Persian card ids
    near: str | None
    far: str | None
    graveyard: tuple[str, ...]
    persian_discard: tuple[str, ...]  # beaten but not reaching red
    marker: int
    supports: int
    turn: int  # actions resolved so far
    status: Status = "playing"
    end_reason: str | None = None  # a code: graveyard, deck-empty, all-beaten, front, no-spartans

    @property
    def over(self) -> bool:
        return self.status != "playing"

    @property
    def beaten(self) -> int:
        return len(self.graveyard) + len(self.persian_discard)

    def near_card(self, data: CardData | None = None) -> PersianCard | None:
        return None if self.near is None else (data or card_data()).persian(self.near)

    def far_card(self, data: CardData | None = None) -> PersianCard | None:
        return None if self.far is None else (data or card_data()).persian(self.far)


def _hand_limit(data: Any) -> int:
    # Written as text (the options' own form); a stored whole number reads too.
    if isinstance(data, str) and data.isdigit():
        return int(data)
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    raise ShapeError("expected a whole number as text")


CODEC = Codec(
    forms={
        Position: Form(keys={"settings": "options"}),
        Settings: Form(fields={"hand_limit": Custom(str, _hand_limit)}),
    }
)


def dump(position: Position) -> dict[str, Any]:
    return CODEC.dump_stored(position, SCHEMA)


def load(data: Any) -> Position:
    """The position from ``dump``'s JSON; raises ValueError on a foreign or damaged record."""
    position = CODEC.load_stored(Position, data, SCHEMA, "thermopyles state")
    position = replace(position, hand=tuple(sorted(position.hand)))
    _check_cards(position)
    return position


def _check_cards(position: Position) -> None:
    """Every card of the data set is in exactly one place: a damaged record fails loudly."""
    data = card_data()
    spartans = Counter(position.spartan_deck + position.hand + position.spartan_discard)
    if spartans != Counter(data.spartans):
        raise ValueError("thermopyles state: the Spartan cards do not match the card data")
    face_up = tuple(card for card in (position.near, position.far) if card is not None)
    persians = sorted(
        position.persian_deck + face_up + position.graveyard + position.persian_discard
    )
    if persians != sorted(card.id for card in data.persians):
        raise ValueError("thermopyles state: the Persian cards do not match the card data")
    if position.settings.win_when not in WIN_WHEN:
        raise ValueError(f"thermopyles state: unknown win_when {position.settings.win_when!r}")
