"""The position as JSON: the stored form (``dump``/``load``, strict, with a schema version) and the
case form (the same keys, most of them optional) used by golden cases and the stateless API.

Reading never raises on bad input: ``read_position`` returns the position or every problem found.
The format is documented in docs/2demayo-json.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from adjudicator.core import numbers
from adjudicator.core.contract import OrderOutcome
from adjudicator.games.dos_de_mayo.board import HALF_STAYS, board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import SIDES, Side, as_side
from adjudicator.games.dos_de_mayo.state import (
    SETUPS,
    CombatRecord,
    LastTurn,
    MoveRecord,
    Pair,
    PlayRecord,
    Position,
    RemovedRecord,
    Settings,
)

SCHEMA = 1
CARD_LISTS = ("played", "discarded", "in_play", "start_choice", "turn_effects")


def _pair_json(pair: Pair[Any]) -> dict[str, Any]:
    return {"france": pair.france, "spain": pair.spain}


def last_json(last: LastTurn | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {
        "turn": last.turn,
        "moves": [
            {
                "side": move.side,
                "from": move.path[0],
                "to": move.path[-1],
                "units": move.units,
                "path": list(move.path),
                "result": move.result,
                "why": move.why,
            }
            for move in last.moves
        ],
        "combats": [
            {"area": c.area, "strength": _pair_json(c.strength), "lost": _pair_json(c.lost)}
            for c in last.combats
        ],
        "removed": [
            {"area": r.area, "side": r.side, "units": r.units, "why": r.why} for r in last.removed
        ],
        "plays": [{"id": p.card, "side": p.side, "args": p.args} for p in last.plays],
        "orders": [
            {"side": o.seat, "order": o.order, "code": o.code, "detail": o.detail}
            for o in last.orders
        ],
    }


def to_json(position: Position) -> dict[str, Any]:
    """The complete position as JSON (the stored form, also a valid case position)."""
    the_board = board()
    return {
        "schema": SCHEMA,
        "options": position.settings.to_json(),
        "turn": position.turn,
        "last_turn": position.last_turn,
        "status": position.status,
        "winner": position.winner,
        "end_reason": position.end_reason,
        "areas": {
            area: {"france": position.units.france[i], "spain": position.units.spain[i]}
            for i, area in enumerate(the_board.areas)
        },
        "off_map": dict(zip(the_board.stacks, position.stacks, strict=True)),
        "set_aside": _pair_json(position.set_aside),
        "losses": _pair_json(position.losses),
        "gone": _pair_json(position.gone),
        "hands": {side: list(position.hands[side]) for side in SIDES},
        "decks": {side: list(position.decks[side]) for side in SIDES},
        "played": list(position.played),
        "discarded": list(position.discarded),
        "in_play": list(position.in_play),
        "start_choice": list(position.start_choice),
        "turn_effects": list(position.turn_effects),
        "drawn": {side: list(position.drawn[side]) for side in SIDES},
        "last": last_json(position.last),
    }


class _Reader:
    """Reads one JSON position, collecting every problem instead of stopping at the first."""

    def __init__(self, data: Mapping[str, Any], strict: bool) -> None:
        self.data = data
        self.strict = strict
        self.problems: list[str] = []

    def get(self, key: str, default: Any) -> Any:
        if key in self.data:
            return self.data[key]
        if self.strict:
            self.problems.append(f"{key} is missing")
        return default

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        self.problems.append(f"{where} must be a count (0 or more), not {value!r}")
        return 0

    def pair_counts(self, key: str) -> Pair[int] | None:
        raw = self.get(key, None)
        if raw is None:
            return None if not self.strict else Pair(0, 0)
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
        raw = self.get(key, {})
        if not isinstance(raw, dict):
            self.problems.append(f"{key} must be an object with france and spain lists")
            return {}
        given: dict[Side, tuple[str, ...]] = {}
        for side in SIDES:
            if side in raw:
                given[side] = self.cards(raw[side], f"{key}.{side}")
            elif self.strict:
                self.problems.append(f"{key}.{side} is missing")
        return given

    def settings(self) -> Settings:
        raw = self.get("options", {})
        raw = raw if isinstance(raw, dict) else {}
        setup = raw.get("setup", "seed")
        half = raw.get("half_stays", board().rules.half_stays)
        if setup not in SETUPS:
            self.problems.append(f"options.setup must be one of {SETUPS}")
        if half not in HALF_STAYS:
            self.problems.append(f"options.half_stays must be one of {HALF_STAYS}")
        return Settings(str(setup), str(half))

    def units(self) -> Pair[tuple[int, ...]]:
        the_board = board()
        raw = self.get("areas", {})
        raw = raw if isinstance(raw, dict) else {}
        france = [0] * len(the_board.areas)
        spain = [0] * len(the_board.areas)
        for area, entry in raw.items():
            index = the_board.index.get(str(area))
            if isinstance(entry, list) and len(entry) == 2 and not self.strict:
                entry = {"france": entry[0], "spain": entry[1]}  # case shorthand [france, spain]
            if index is None or not isinstance(entry, dict):
                self.problems.append(f"areas: {area!r} is not an area with france/spain counts")
                continue
            france[index] = self.count(entry.get("france", 0), f"areas.{area}.france")
            spain[index] = self.count(entry.get("spain", 0), f"areas.{area}.spain")
        if self.strict and len(raw) != len(the_board.areas):
            self.problems.append("areas must list every area")
        return Pair(tuple(france), tuple(spain))

    def stacks(self) -> tuple[int, ...]:
        the_board = board()
        raw = self.get("off_map", {})
        raw = raw if isinstance(raw, dict) else {}
        for stack in raw:
            if stack not in the_board.stack_gate:
                self.problems.append(f"off_map: unknown stack {stack!r}")
        return tuple(
            self.count(raw.get(stack, 0), f"off_map.{stack}") for stack in the_board.stacks
        )


def read_position(data: Any, strict: bool = False) -> Position | list[str]:
    """A position from JSON, or every problem with it. ``strict`` is the stored form (every key
    present); otherwise missing keys take the defaults documented in docs/2demayo-json.md."""
    if not isinstance(data, dict):
        return ["the position must be a JSON object"]
    reader = _Reader(data, strict)
    if strict and data.get("schema") != SCHEMA:
        return [f"schema {data.get('schema')!r}; expected {SCHEMA}"]
    settings = reader.settings()
    turn = reader.count(reader.get("turn", 1), "turn")
    status = reader.get("status", "playing")
    last_turn = reader.count(reader.get("last_turn", turn - 1 if turn else 0), "last_turn")
    winner_raw = reader.get("winner", None)
    winner = as_side(winner_raw)
    end_reason = reader.get("end_reason", None)
    units = reader.units()
    stacks = reader.stacks()
    zero = Pair(0, 0)
    set_aside = reader.pair_counts("set_aside") or zero
    losses = reader.pair_counts("losses") or zero
    gone = reader.pair_counts("gone")
    given_hands = reader.side_cards("hands")
    hands = Pair(given_hands.get("france", ()), given_hands.get("spain", ()))
    decks = reader.side_cards("decks")
    lists = {key: reader.cards(reader.get(key, []), key) for key in CARD_LISTS}
    given_drawn = reader.side_cards("drawn")
    drawn = Pair(given_drawn.get("france", ()), given_drawn.get("spain", ()))
    last = _last(reader.get("last", None), reader.problems)
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


def _pair(raw: Any) -> Pair[int]:
    return Pair(numbers.json_int(raw["france"]), numbers.json_int(raw["spain"]))


def _side(raw: Any) -> Side:
    side = as_side(raw)
    if side is None:
        raise ValueError(f"{raw!r} is not a side")
    return side


def _last(raw: Any, problems: list[str]) -> LastTurn | None:
    if raw is None:
        return None
    try:
        return LastTurn(
            turn=numbers.json_int(raw["turn"]),
            moves=tuple(
                MoveRecord(
                    _side(m["side"]),
                    tuple(str(a) for a in m["path"]),
                    numbers.json_int(m["units"]),
                    str(m["result"]),
                    str(m.get("why", "")),
                )
                for m in raw.get("moves", [])
            ),
            combats=tuple(
                CombatRecord(str(c["area"]), _pair(c["strength"]), _pair(c["lost"]))
                for c in raw.get("combats", [])
            ),
            removed=tuple(
                RemovedRecord(
                    str(r["area"]), _side(r["side"]), numbers.json_int(r["units"]), str(r["why"])
                )
                for r in raw.get("removed", [])
            ),
            plays=tuple(
                PlayRecord(str(p["id"]), _side(p["side"]), str(p["args"]))
                for p in raw.get("plays", [])
            ),
            orders=tuple(
                OrderOutcome(_side(o["side"]), str(o["order"]), str(o["code"]), str(o["detail"]))
                for o in raw.get("orders", [])
            ),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        problems.append(f"last is damaged: {error!r}")
        return None


def dump(position: Position) -> dict[str, Any]:
    return to_json(position)


def load(data: Any) -> Position:
    """The position from ``dump``'s JSON; raises ValueError listing every problem."""
    read = read_position(data, strict=True)
    if isinstance(read, list):
        raise ValueError("2 de Mayo state: " + "; ".join(read))
    return read
