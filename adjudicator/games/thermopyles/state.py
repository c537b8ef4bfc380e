"""The Thermopyles position as frozen values, and its JSON form with a schema version."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

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
        return {"win_when": self.win_when, "hand_limit": str(self.hand_limit)}


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


def dump(position: Position) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "options": position.settings.to_json(),
        "spartan_deck": list(position.spartan_deck),
        "hand": list(position.hand),
        "spartan_discard": list(position.spartan_discard),
        "persian_deck": list(position.persian_deck),
        "near": position.near,
        "far": position.far,
        "graveyard": list(position.graveyard),
        "persian_discard": list(position.persian_discard),
        "marker": position.marker,
        "supports": position.supports,
        "turn": position.turn,
        "status": position.status,
        "end_reason": position.end_reason,
    }


def _ints(data: dict[str, Any], key: str) -> tuple[int, ...]:
    values = data[key]
    if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
        raise ValueError(f"thermopyles state: {key} must be a list of integers")
    return tuple(values)


def _ids(data: dict[str, Any], key: str) -> tuple[str, ...]:
    values = data[key]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"thermopyles state: {key} must be a list of card ids")
    return tuple(values)


def load(data: Any) -> Position:
    """The position from ``dump``'s JSON; raises ValueError on a foreign or damaged record."""
    if not isinstance(data, dict):
        raise ValueError("thermopyles state must be a JSON object")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"thermopyles state schema {data.get('schema')!r}; expected {SCHEMA}")
    try:
        options = data["options"]
        status = data["status"]
        if status not in ("playing", "won", "lost"):
            raise ValueError(f"thermopyles state: unknown status {status!r}")
        position = Position(
            settings=Settings(str(options["win_when"]), int(options["hand_limit"])),
            spartan_deck=_ints(data, "spartan_deck"),
            hand=tuple(sorted(_ints(data, "hand"))),
            spartan_discard=_ints(data, "spartan_discard"),
            persian_deck=_ids(data, "persian_deck"),
            near=data["near"],
            far=data["far"],
            graveyard=_ids(data, "graveyard"),
            persian_discard=_ids(data, "persian_discard"),
            marker=int(data["marker"]),
            supports=int(data["supports"]),
            turn=int(data["turn"]),
            status=status,
            end_reason=data["end_reason"],
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"thermopyles state is missing or mistyped: {error}") from error
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
