"""The 2 de Mayo event cards as data records, loaded from cards.toml and checked on load.

A card's effect is one primitive from ``EFFECTS`` with its numbers; the adjudication modules
implement each primitive once, so a card's text and numbers live only in the data file.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator.core import said
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, as_side
from adjudicator.games.dos_de_mayo.text import fold

WINDOWS = ("on-draw", "orders", "resolution", "lasting")
ARGS = ("none", "area", "path", "entry")
HOLDS = ("any", "own", "enemy", "both")
CHECKED = ("orders", "resolution")
# Effect primitives and the windows each makes sense in.
EFFECTS: Mapping[str, tuple[str, ...]] = {
    "aimed_strength": ("lasting",),  # +amount where the side's aim order names, each Resolution
    "group_limit_add": ("orders",),  # France may order `amount` more groups this turn
    "group_limit_set": ("on-draw",),  # France's group limit is `amount` this turn
    "discard_random": ("on-draw",),  # the other side discards `amount` random cards
    "two_step": ("orders",),  # one group moves along a 2-step path
    "place_set_aside": ("orders",),  # `amount` set-aside units onto the named area
    "strength": ("resolution",),  # +amount strength in the named area; `cancels` a lasting card
    "cancel_order": ("orders",),  # the enemy group in the named area keeps still
    "remove_enemy": ("resolution",),  # `amount` enemy units removed there before combat (losses)
    "shrink_stack": ("on-draw",),  # `amount` units leave the largest reinforcement stack
    "early_entry": ("orders",),  # one stack enters whatever the turn, outside the group limit
    "leave_whole": ("orders",),  # the named group leaves an enemy-held area with nobody staying
    "draw_now": ("orders",),  # draw `amount` cards at once, ignoring the draw limit
    "loss_limit": ("lasting",),  # the enemy's loss limit becomes `amount`
    "loss_shield": ("resolution",),  # own losses in the named area reduced by `amount`
    "block_entry": ("orders",),  # enemy moves into the named area fail
    "allow_split": ("orders",),  # the named group may go `amount` ways
}
ARGS_OF: Mapping[str, str] = {"two_step": "path", "early_entry": "entry"}


class CardDataError(ValueError):
    """The card file is unusable; the message lists every problem found."""


@dataclass(frozen=True)
class Target:
    """Which areas an area argument may name, and when that is checked."""

    holds: str  # any | own | enemy | both: units that must be there
    also: frozenset[str]  # areas allowed whatever they hold (gates expanded)
    checked: str  # orders: when the orders arrive and at Movement; resolution: at Resolution


@dataclass(frozen=True)
class Effect:
    kind: str
    amount: int = 0
    aim: str | None = None  # aimed_strength: the order keyword naming the area each turn
    cancels: str | None = None  # strength: a lasting card that gives nothing in that area


@dataclass(frozen=True)
class Card:
    id: str
    side: Side
    keyword: str
    es: str
    en: str
    window: str
    earliest: int
    latest: int
    requires_any: tuple[str, ...]
    args: str
    target: Target | None
    effect: Effect
    precedes: tuple[str, ...]
    help: str

    @property
    def name(self) -> str:
        """The card as the reader reads it: by its English name in English, by its Spanish
        original in every other language (the game's own names, as its places keep theirs)."""
        return said.named(self.es, en=self.en)


@dataclass(frozen=True)
class CardData:
    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    aliases: Mapping[str, str]  # folded alias -> card id
    france_choice: tuple[str, ...]
    france_default: str
    spain_start: tuple[str, ...]
    aims: Mapping[str, str]  # folded aim keyword (e.g. "artillery") -> lasting card id

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def deck(self, side: Side) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards if card.side == side)


def _text(entry: Mapping[str, Any], key: str, where: str, problems: list[str]) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        problems.append(f"{where}.{key} must be a non-empty string")
        return "?"
    return value


def _target(entry: Mapping[str, Any], where: str, problems: list[str]) -> Target | None:
    raw = entry.get("target")
    if entry.get("args") != "area":
        if raw is not None:
            problems.append(f"{where}: a target needs args = 'area'")
        return None
    if not isinstance(raw, dict):
        problems.append(f"{where}: an area argument needs a target table")
        return None
    holds, checked = raw.get("holds"), raw.get("checked")
    if holds not in HOLDS:
        problems.append(f"{where}.target.holds must be one of {HOLDS}")
    if checked not in CHECKED:
        problems.append(f"{where}.target.checked must be one of {CHECKED}")
    also: set[str] = set()
    the_board = board()
    for item in raw.get("also", []):
        if item == "gates":
            also.update(the_board.gates)
        elif item in the_board.index:
            also.add(item)
        else:
            problems.append(f"{where}.target.also: {item!r} is not an area or 'gates'")
    return Target(str(holds), frozenset(also), str(checked))


def _effect(entry: Mapping[str, Any], where: str, problems: list[str]) -> Effect:
    raw = entry.get("effect")
    if not isinstance(raw, dict) or raw.get("kind") not in EFFECTS:
        problems.append(f"{where}.effect.kind must be one of {sorted(EFFECTS)}")
        return Effect("strength")
    kind = str(raw["kind"])
    amount = raw.get("amount", 0)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        problems.append(f"{where}.effect.amount must be a count")
        amount = 0
    if entry.get("window") not in EFFECTS[kind]:
        problems.append(f"{where}: effect {kind} needs window {' or '.join(EFFECTS[kind])}")
    wanted_args = ARGS_OF.get(kind)
    if wanted_args is not None and entry.get("args") != wanted_args:
        problems.append(f"{where}: effect {kind} needs args = {wanted_args!r}")
    aim = raw.get("aim")
    if kind == "aimed_strength" and not isinstance(aim, str):
        problems.append(f"{where}: aimed_strength needs an aim keyword")
    cancels = raw.get("cancels")
    return Effect(
        kind, amount, str(aim) if aim else None, str(cancels) if cancels is not None else None
    )


def _card(entry: Mapping[str, Any], index: int, turns: int, problems: list[str]) -> Card:
    where = f"cards[{index}]"
    side = as_side(entry.get("side"))
    if side is None:
        problems.append(f"{where}.side must be france or spain")
        side = "france"
    window = entry.get("window")
    if window not in WINDOWS:
        problems.append(f"{where}.window must be one of {WINDOWS}")
    args = entry.get("args", "none")
    if args not in ARGS:
        problems.append(f"{where}.args must be one of {ARGS}")
    earliest, latest = entry.get("earliest", 1), entry.get("latest", turns)
    if not (isinstance(earliest, int) and isinstance(latest, int) and 1 <= earliest <= latest):
        problems.append(f"{where}: earliest/latest must be turns with earliest <= latest")
        earliest, latest = 1, turns
    return Card(
        id=_text(entry, "id", where, problems),
        side=side,
        keyword=_text(entry, "keyword", where, problems).upper(),
        es=_text(entry, "es", where, problems),
        en=_text(entry, "en", where, problems),
        window=str(window),
        earliest=earliest,
        latest=latest,
        requires_any=tuple(str(c) for c in entry.get("requires_any", [])),
        args=str(args),
        target=_target(entry, where, problems),
        effect=_effect(entry, where, problems),
        precedes=tuple(str(c) for c in entry.get("precedes", [])),
        help=_text(entry, "help", where, problems),
    )


def _aliases(raw: list[Any], cards: tuple[Card, ...], problems: list[str]) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for entry, card in zip(raw, cards, strict=True):
        words = [card.keyword, card.id, card.es, card.en, *entry.get("aliases", [])]
        for word in words:
            key = fold(str(word))
            if aliases.get(key, card.id) != card.id:
                problems.append(f"alias {word!r} names both {aliases[key]} and {card.id}")
            aliases[key] = card.id
    return aliases


def parse_card_data(raw: Mapping[str, Any]) -> CardData | list[str]:
    """The card data, or the list of every problem with it."""
    problems: list[str] = []
    turns = board().rules.turns
    entries = raw.get("cards", [])
    cards = tuple(_card(entry, index, turns, problems) for index, entry in enumerate(entries))
    by_id = {card.id: card for card in cards}
    if len(by_id) != len(cards):
        problems.append("card ids must be unique")
    checks = raw.get("checks", {})
    for side in SIDES:
        count = sum(1 for card in cards if card.side == side)
        if checks.get(f"{side}_cards") != count:
            problems.append(f"checks.{side}_cards is {checks.get(f'{side}_cards')}, found {count}")
    for card in cards:
        for other in (*card.requires_any, *card.precedes, card.effect.cancels):
            if other is not None and other not in by_id:
                problems.append(f"card {card.id} refers to unknown card {other}")
    start = raw.get("start", {})
    choice = tuple(str(c) for c in start.get("france_choice", []))
    default = str(start.get("france_default", ""))
    spain = tuple(str(c) for c in start.get("spain", []))
    if default not in choice:
        problems.append("start.france_default must be one of start.france_choice")
    for card_id, owner in [*((c, "france") for c in choice), *((c, "spain") for c in spain)]:
        if card_id not in by_id or by_id[card_id].side != owner:
            problems.append(f"start card {card_id} is not a {owner} card")
    aliases = _aliases(entries, cards, problems)
    aims = {
        fold(card.effect.aim): card.id
        for card in cards
        if card.effect.kind == "aimed_strength" and card.effect.aim
    }
    if problems:
        return problems
    return CardData(cards, by_id, aliases, choice, default, spain, aims)


@functools.cache
def card_data() -> CardData:
    """The packaged cards (cached); raises CardDataError naming every problem."""
    package = resources.files("adjudicator.games.dos_de_mayo")
    parsed = parse_card_data(tomllib.loads(package.joinpath("cards.toml").read_text("utf-8")))
    if isinstance(parsed, list):
        raise CardDataError("2 de Mayo cards.toml: " + "; ".join(parsed))
    return parsed
