"""The position as JSON: the stored form (``dump``/``load``, strict, with a schema version) and the
case form (the same keys, most of them optional) used by golden cases and the stateless API.

The stored form is the fields of ``Position`` written by the shared codec, with the board's areas
and stacks by name. Reading the case form never raises on bad input: ``read_position`` returns the
position or every problem found. The format is documented in docs/2demayo-json.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adjudicator.core.codec import Codec, Custom, Form, ShapeError
from adjudicator.core.contract import OrderOutcome
from adjudicator.games.dos_de_mayo.board import HALF_STAYS, board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, as_side
from adjudicator.games.dos_de_mayo.state import (
    SETUPS,
    LastTurn,
    MoveRecord,
    Pair,
    PlayRecord,
    Position,
    Settings,
)

SCHEMA = 1
COUNTS = Pair[int]  # one hint object, so the codec finds its reader at once
CARD_LISTS = ("played", "discarded", "in_play", "start_choice", "turn_effects")


def _count(data: Any) -> int:
    # Every number of a position counts something: units, turns.
    if isinstance(data, int) and not isinstance(data, bool) and data >= 0:
        return data
    raise ShapeError("expected a count (0 or more)")


def _areas_json(units: Pair[tuple[int, ...]]) -> dict[str, Any]:
    return {
        area: {"france": units.france[i], "spain": units.spain[i]}
        for i, area in enumerate(board().areas)
    }


def _areas(data: Any) -> Pair[tuple[int, ...]]:
    the_board = board()
    read = CODEC.reader(COUNTS)
    if not isinstance(data, dict):
        raise ShapeError("expected an object")
    if set(data) != set(the_board.areas):
        raise ShapeError("must list every area, and only areas")
    counts = []
    for area in the_board.areas:
        try:
            counts.append(read(data[area]))
        except ShapeError as error:
            raise error.at(area) from None
    return Pair(tuple(c.france for c in counts), tuple(c.spain for c in counts))


def _stacks_json(stacks: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(board().stacks, stacks, strict=True))


def _stacks(data: Any) -> tuple[int, ...]:
    the_board = board()
    if not isinstance(data, dict):
        raise ShapeError("expected an object")
    for stack in data:
        if stack not in the_board.stack_gate:
            raise ShapeError(f"unknown stack {stack!r}")
    counts = []
    for stack in the_board.stacks:
        try:
            counts.append(_count(data.get(stack, 0)))
        except ShapeError as error:
            raise error.at(stack) from None
    return tuple(counts)


def _side(data: Any) -> Side:
    side = as_side(data)
    if side is None:
        raise ShapeError("expected 'france' or 'spain'")
    return side


CODEC = Codec(
    forms={
        Position: Form(
            keys={"settings": "options", "units": "areas", "stacks": "off_map"},
            fields={
                "units": Custom(_areas_json, _areas),
                "stacks": Custom(_stacks_json, _stacks),
            },
        ),
        LastTurn: Form(defaults=True),
        MoveRecord: Form(
            order=("side", "from", "to", "units", "path", "result", "why"),
            derived={"from": lambda move: move.path[0], "to": lambda move: move.path[-1]},
            defaults=True,
        ),
        PlayRecord: Form(keys={"card": "id"}),
        OrderOutcome: Form(
            keys={"seat": "side"},
            # 2 de Mayo plays every line it accepts: no order is understood and left undone.
            omit=("public", "undone"),
            fields={"seat": Custom(str, _side)},
        ),
    },
    custom={int: Custom(int, _count)},
)


def last_json(last: LastTurn | None) -> dict[str, Any] | None:
    return None if last is None else CODEC.dump(last)


def to_json(position: Position) -> dict[str, Any]:
    """The complete position as JSON (the stored form, also a valid case position)."""
    return CODEC.dump_stored(position, SCHEMA)


def dump(position: Position) -> dict[str, Any]:
    return to_json(position)


def load(data: Any) -> Position:
    """The position from ``dump``'s JSON; raises ValueError naming the wrong part, or listing
    every rule the position breaks."""
    position = CODEC.load_stored(Position, data, SCHEMA, "2 de Mayo state")
    problems = _unknown_cards(position)
    if not problems:
        _check(position, data, problems)
    if problems:
        raise ValueError("2 de Mayo state: " + "; ".join(problems))
    return position


def _unknown_cards(position: Position) -> list[str]:
    known = card_data().by_id
    places = {key: getattr(position, key) for key in CARD_LISTS}
    for side in SIDES:
        for key in ("hands", "decks", "drawn"):
            places[f"{key}.{side}"] = getattr(position, key)[side]
    return [
        f"{where}: unknown card {card_id!r}"
        for where, cards in places.items()
        for card_id in cards
        if card_id not in known
    ]


class _Reader:
    """Reads one case position, collecting every problem instead of stopping at the first."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        self.problems.append(f"{where} must be a count (0 or more), not {value!r}")
        return 0

    def pair_counts(self, key: str) -> Pair[int] | None:
        raw = self.data.get(key, None)
        if raw is None:
            return None
        if not isinstance(raw, dict):
            self.problems.append(f"{key} must be an object with france and spain")
            return Pair(0, 0)
        return Pair(
            self.count(raw.get("france", 0), f"{key}.france"),
            self.count(raw.get("spain", 0), f"{key}.spain"),
        )

    def cards(self, value: Any, where: str) -> tuple[str, ...]:
        known = card_data().by_id
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            self.problems.append(f"{where} must be a list of card ids")
            return ()
        for card_id in value:
            if card_id not in known:
                self.problems.append(f"{where}: unknown card {card_id!r}")
        return tuple(c for c in value if c in known)

    def side_cards(self, key: str) -> dict[Side, tuple[str, ...]]:
        """The lists given per side (a side left out is absent from the result)."""
        raw = self.data.get(key, {})
        if not isinstance(raw, dict):
            self.problems.append(f"{key} must be an object with france and spain lists")
            return {}
        given: dict[Side, tuple[str, ...]] = {}
        for side in SIDES:
            if side in raw:
                given[side] = self.cards(raw[side], f"{key}.{side}")
        return given

    def settings(self) -> Settings:
        raw = self.data.get("options", {})
        raw = raw if isinstance(raw, dict) else {}
        setup = raw.get("setup", "seed")
        half = raw.get("half_stays", board().rules.half_stays)
        return Settings(str(setup), str(half))

    def units(self) -> Pair[tuple[int, ...]]:
        the_board = board()
        raw = self.data.get("areas", {})
        raw = raw if isinstance(raw, dict) else {}
        france = [0] * len(the_board.areas)
        spain = [0] * len(the_board.areas)
        for area, entry in raw.items():
            index = the_board.index.get(str(area))
            if isinstance(entry, list) and len(entry) == 2:
                entry = {"france": entry[0], "spain": entry[1]}  # case shorthand [france, spain]
            if index is None or not isinstance(entry, dict):
                self.problems.append(f"areas: {area!r} is not an area with france/spain counts")
                continue
            france[index] = self.count(entry.get("france", 0), f"areas.{area}.france")
            spain[index] = self.count(entry.get("spain", 0), f"areas.{area}.spain")
        return Pair(tuple(france), tuple(spain))

    def stacks(self) -> tuple[int, ...]:
        the_board = board()
        raw = self.data.get("off_map", {})
        raw = raw if isinstance(raw, dict) else {}
        for stack in raw:
            if stack not in the_board.stack_gate:
                self.problems.append(f"off_map: unknown stack {stack!r}")
        return tuple(
            self.count(raw.get(stack, 0), f"off_map.{stack}") for stack in the_board.stacks
        )


def read_position(data: Any) -> Position | list[str]:
    """A case position from JSON, or every problem with it; missing keys take the defaults
    documented in docs/2demayo-json.md."""
    if not isinstance(data, dict):
        return ["the position must be a JSON object"]
    reader = _Reader(data)
    settings = reader.settings()
    turn = reader.count(data.get("turn", 1), "turn")
    status = data.get("status", "playing")
    last_turn = reader.count(data.get("last_turn", turn - 1 if turn else 0), "last_turn")
    winner_raw = data.get("winner", None)
    winner = as_side(winner_raw)
    end_reason = data.get("end_reason", None)
    units = reader.units()
    stacks = reader.stacks()
    zero = Pair(0, 0)
    set_aside = reader.pair_counts("set_aside") or zero
    losses = reader.pair_counts("losses") or zero
    gone = reader.pair_counts("gone")
    given_hands = reader.side_cards("hands")
    hands = Pair(given_hands.get("france", ()), given_hands.get("spain", ()))
    decks = reader.side_cards("decks")
    lists = {key: reader.cards(data.get(key, []), key) for key in CARD_LISTS}
    given_drawn = reader.side_cards("drawn")
    drawn = Pair(given_drawn.get("france", ()), given_drawn.get("spain", ()))
    last = _last(data.get("last", None), reader.problems)
    if status not in ("playing", "over"):
        reader.problems.append("status must be playing or over")
    if winner_raw is not None and winner is None:
        reader.problems.append("winner must be france, spain or null")
    if end_reason is not None and not isinstance(end_reason, str):
        reader.problems.append("end_reason must be a string or null")
    position = Position(
        settings=settings,
        turn=turn,
        last_turn=last_turn,
        status="over" if status == "over" else "playing",
        winner=winner,
        end_reason=end_reason if isinstance(end_reason, str) else None,
        units=units,
        stacks=stacks,
        set_aside=set_aside,
        losses=losses,
        gone=zero,
        hands=hands,
        decks=Pair((), ()),
        played=lists["played"],
        discarded=lists["discarded"],
        in_play=lists["in_play"],
        start_choice=lists["start_choice"],
        turn_effects=lists["turn_effects"],
        drawn=drawn,
        last=last,
    )
    position = _fill(position, gone, decks, reader.problems)
    _check(position, data, reader.problems)
    return reader.problems or position


def _fill(
    position: Position,
    gone: Pair[int] | None,
    decks: dict[Side, tuple[str, ...]],
    problems: list[str],
) -> Position:
    """Defaults that depend on the rest: units not placed anywhere are gone; cards not placed
    anywhere are in their side's deck (a deck not given), in card-file order."""
    the_board = board()
    if gone is None:
        counts = []
        for side in SIDES:
            rest = the_board.totals[side] - position.accounted(side)
            counts.append(max(rest, 0))
        gone = Pair(counts[0], counts[1])
    placed = set(position.hands.france + position.hands.spain + position.played)
    placed |= set(position.discarded + position.in_play + position.start_choice)
    data = card_data()
    full = {
        side: decks[side] if side in decks else tuple(c for c in data.deck(side) if c not in placed)
        for side in SIDES
    }
    return replace(position, gone=gone, decks=Pair(full["france"], full["spain"]))


def _check(position: Position, data: Mapping[str, Any], problems: list[str]) -> None:
    the_board = board()
    rules = the_board.rules
    if position.settings.setup not in SETUPS:
        problems.append(f"options.setup must be one of {SETUPS}")
    if position.settings.half_stays not in HALF_STAYS:
        problems.append(f"options.half_stays must be one of {HALF_STAYS}")
    if not 1 <= position.turn <= rules.turns:
        problems.append(f"turn must be 1..{rules.turns}")
    expected_last = position.turn if position.over else position.turn - 1
    if position.last_turn != expected_last:
        problems.append(f"last_turn must be {expected_last} when turn is {position.turn}")
    if position.over != (position.winner is not None):
        problems.append("a finished game has a winner, and only a finished game")
    for side in SIDES:
        if position.accounted(side) != the_board.totals[side]:
            problems.append(
                f"{side} units add up to {position.accounted(side)}, not {the_board.totals[side]}"
                " (map + off_map + set_aside + losses + gone)"
            )
    _check_cards(position, problems)
    declared = data.get("initiative")
    if declared is not None and declared != position.initiative():
        problems.append(f"initiative is {position.initiative()} by the losses, not {declared}")
    limit = data.get("loss_limit")
    if limit is not None and limit != position.loss_limit():
        problems.append(f"loss_limit is {position.loss_limit()} by the cards in play, not {limit}")


def _check_cards(position: Position, problems: list[str]) -> None:
    """Every card is in exactly one place, and hands and decks hold their own side's cards."""
    data = card_data()
    places = (
        position.hands.france
        + position.hands.spain
        + position.decks.france
        + position.decks.spain
        + position.played
        + position.discarded
        + position.in_play
        + position.start_choice
    )
    counts = Counter(places)
    for card in data.cards:
        if counts[card.id] != 1:
            problems.append(f"card {card.id} is in {counts[card.id]} places, not 1")
    for side in SIDES:
        for card_id in position.hands[side] + position.decks[side] + position.drawn[side]:
            if data.card(card_id).side != side:
                problems.append(f"{card_id} is not a {side} card")
    for card_id in position.start_choice:
        if card_id not in data.france_choice:
            problems.append(f"start_choice: {card_id} is not a start option")
    for card_id in position.in_play:
        if data.card(card_id).window != "lasting":
            problems.append(f"in_play: {card_id} is not a lasting card")
    for card_id in position.played:
        if data.card(card_id).window == "lasting":
            problems.append(f"played: {card_id} is a lasting card; once played it is in_play")
    for card_id in position.turn_effects:
        if data.card(card_id).window != "on-draw" or card_id not in position.played:
            problems.append(f"turn_effects: {card_id} is not a drawn on-draw card")


def _last(raw: Any, problems: list[str]) -> LastTurn | None:
    if raw is None:
        return None
    try:
        return CODEC.load(LastTurn, raw)
    except ShapeError as error:
        problems.append(f"last is damaged: {error.message}")
        return None
