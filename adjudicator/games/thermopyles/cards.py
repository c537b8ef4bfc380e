"""The Thermopyles card data and house numbers, loaded from ``cards.toml`` and checked on load."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any


class CardDataError(ValueError):
    """The card file is unusable; the message lists every problem found, not just the first."""


@dataclass(frozen=True)
class PersianCard:
    """One Persian unit: white = soldiers to beat it, red = reach this for the Graveyard."""

    id: str
    white: int
    red: int
    bonus: bool  # the Spartan symbol: one extra Spartan draw when this card is beaten

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "white": self.white, "red": self.red, "bonus": self.bonus}


@dataclass(frozen=True)
class CardData:
    """Everything numeric about the game; the rules take their numbers from here or from options."""

    spartans: tuple[int, ...]  # one value per Spartan card, in file order (shuffled at setup)
    persians: tuple[PersianCard, ...]
    by_id: Mapping[str, PersianCard]
    track_length: int
    start_space: int
    free_die_spaces: frozenset[int]
    space_names: Mapping[int, str]
    supports: int
    opening_hand: int
    graveyard_target: int
    hand_limit: int

    def persian(self, card_id: str) -> PersianCard:
        return self.by_id[card_id]


def _int(table: Mapping[str, Any], key: str, where: str, problems: list[str]) -> int:
    value = table.get(key)
    # bool is an int subclass in Python; "true" is never a sensible count.
    if not isinstance(value, int) or isinstance(value, bool):
        problems.append(f"{where}.{key} must be an integer, found {value!r}")
        return 0
    return value


def _spartans(raw: Mapping[str, Any], problems: list[str]) -> tuple[int, ...]:
    values: list[int] = []
    for index, entry in enumerate(raw.get("spartans", [])):
        where = f"spartans[{index}]"
        value = _int(entry, "value", where, problems)
        count = _int(entry, "count", where, problems)
        if value <= 0 or count <= 0:
            problems.append(f"{where}: value and count must be positive")
        values.extend([value] * max(count, 0))
    return tuple(values)


def _persians(raw: Mapping[str, Any], problems: list[str]) -> tuple[PersianCard, ...]:
    cards: list[PersianCard] = []
    for index, entry in enumerate(raw.get("persians", [])):
        where = f"persians[{index}]"
        card_id = entry.get("id")
        bonus = entry.get("bonus")
        if not isinstance(card_id, str) or not card_id:
            problems.append(f"{where}.id must be a non-empty string")
            card_id = f"?{index}"
        if not isinstance(bonus, bool):
            problems.append(f"{where}.bonus must be true or false")
            bonus = False
        white = _int(entry, "white", where, problems)
        red = _int(entry, "red", where, problems)
        cards.append(PersianCard(card_id, white, red, bonus))
    return tuple(cards)


def _check_totals(
    checks: Mapping[str, Any],
    spartans: tuple[int, ...],
    persians: tuple[PersianCard, ...],
    problems: list[str],
) -> None:
    expected = {
        "spartan_cards": len(spartans),
        "spartan_sum": sum(spartans),
        "persian_cards": len(persians),
        "bonus_cards": sum(card.bonus for card in persians),
    }
    for key, found in expected.items():
        declared = _int(checks, key, "checks", problems)
        if declared != found:
            problems.append(f"checks.{key} is {declared} but the cards give {found}")
    gap = _int(checks, "red_over_white", "checks", problems)
    for card in persians:
        if card.red != card.white + gap:
            problems.append(f"Persian {card.id}: red {card.red} is not white {card.white} + {gap}")
    ids = [card.id for card in persians]
    for card_id in sorted({card_id for card_id in ids if ids.count(card_id) > 1}):
        problems.append(f"Persian id {card_id!r} is used more than once")


def parse_card_data(raw: Mapping[str, Any]) -> CardData | list[str]:
    """The card data, or the list of every problem with it."""
    problems: list[str] = []
    spartans = _spartans(raw, problems)
    persians = _persians(raw, problems)
    _check_totals(raw.get("checks", {}), spartans, persians, problems)
    battle = raw.get("battle", {})
    numbers = {
        key: _int(battle, key, "battle", problems)
        for key in (
            "front_track_length",
            "start_space",
            "supports",
            "opening_hand",
            "graveyard_target",
            "hand_limit",
        )
    }
    length = numbers["front_track_length"]
    spaces = battle.get("free_die_spaces", [])
    if not isinstance(spaces, list) or not all(isinstance(space, int) for space in spaces):
        problems.append("battle.free_die_spaces must be a list of integers")
        spaces = []
    for space in [*spaces, numbers["start_space"]]:
        if not 1 <= space < length:
            problems.append(f"space {space} is not on the playable track 1..{length - 1}")
    if not 0 < numbers["graveyard_target"] <= len(persians):
        problems.append("battle.graveyard_target must be between 1 and the Persian card count")
    if numbers["hand_limit"] < numbers["opening_hand"]:
        problems.append("battle.hand_limit must be at least the opening hand")
    if numbers["opening_hand"] > len(spartans):
        problems.append("battle.opening_hand is larger than the Spartan deck")
    names: dict[int, str] = {}
    for key, name in dict(battle.get("space_names", {})).items():
        if not str(key).isdigit() or not isinstance(name, str):
            problems.append(f"battle.space_names: {key!r} = {name!r} is not <space> = <name>")
        else:
            names[int(key)] = name
    if problems:
        return problems
    return CardData(
        spartans=spartans,
        persians=persians,
        by_id={card.id: card for card in persians},
        track_length=length,
        start_space=numbers["start_space"],
        free_die_spaces=frozenset(spaces),
        space_names=names,
        supports=numbers["supports"],
        opening_hand=numbers["opening_hand"],
        graveyard_target=numbers["graveyard_target"],
        hand_limit=numbers["hand_limit"],
    )


@functools.cache
def card_data() -> CardData:
    """The packaged card data; raises CardDataError naming every problem if the file is bad."""
    text = (
        resources.files("adjudicator.games.thermopyles")
        .joinpath("cards.toml")
        .read_text(encoding="utf-8")
    )
    parsed = parse_card_data(tomllib.loads(text))
    if isinstance(parsed, list):
        raise CardDataError("thermopyles/cards.toml: " + "; ".join(parsed))
    return parsed
