"""Adjudicate one turn from a position in JSON, without a game: the pure function behind
``pbem adjudicate 2demayo CASE.json`` and ``POST /api/adjudicate/2demayo``, and the engine of the
golden-case loader. Input and output are documented in docs/2demayo-json.md."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.games.dos_de_mayo import adjudicate, codec, legal, receipts
from adjudicator.games.dos_de_mayo.sides import SIDES
from adjudicator.games.dos_de_mayo.state import Position

# Used when the request gives no seed: the result is then the same for everyone who asks.
DEFAULT_SEED = b"2demayo-stateless"
STREAM = "2demayo-stateless"
# Whole bytes, nothing else: a number or spaced digits would be read as some other seed.
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def _seed(raw: Any) -> bytes | str:
    if raw is None:
        return DEFAULT_SEED
    if not isinstance(raw, str) or not HEX.fullmatch(raw):
        return f"seed must be hex, not {raw!r}"
    return bytes.fromhex(raw)


def _orders_errors(orders_text: Any) -> list[str]:
    """What is wrong with the orders: not text by side, or a side the game does not have (a
    misspelt side would otherwise send no orders without a word)."""
    if not isinstance(orders_text, Mapping) or not all(
        isinstance(orders_text.get(side, ""), str) for side in SIDES
    ):
        return ["orders must map france and spain to order text"]
    return [
        f"orders name no side {name!r}; the sides are {' and '.join(SIDES)}"
        for name in orders_text
        if name not in SIDES
    ]


def _line(report: Any) -> dict[str, Any]:
    data = asdict(report)
    data["status"] = report.status.value
    return data


def adjudicate_case(data: Mapping[str, Any]) -> dict[str, Any]:
    """{position, orders: {france: text, spain: text}, seed?} -> {ok, position (after),
    outcomes, receipts, orders (canonical), events, facts}; or {ok: false, errors} when the
    request cannot be adjudicated (bad position, bad seed, finished game). Never raises on input."""
    if not isinstance(data, Mapping):
        return {"ok": False, "errors": ["the request must be a JSON object"]}
    position = codec.read_position(data.get("position"))
    seed = _seed(data.get("seed"))
    orders_text = data.get("orders", {})
    errors = position if isinstance(position, list) else []
    if isinstance(seed, str):
        errors.append(seed)
    errors += _orders_errors(orders_text)
    if isinstance(position, Position) and position.over:
        errors.append("the game in this position is over")
    if errors or not isinstance(position, Position) or isinstance(seed, str):
        return {"ok": False, "errors": errors}
    return _run(position, orders_text, seed)


def _run(position: Position, orders_text: Mapping[str, Any], seed: bytes) -> dict[str, Any]:
    chosen: dict[str, Any] = {}
    lines: dict[str, list[dict[str, Any]]] = {}
    missing: dict[str, list[str]] = {}
    for side in SIDES:
        text = orders_text.get(side)
        if text is None:  # no orders from this side: the NMR default
            chosen[side] = legal.default_set(position, side).to_json()
            lines[side], missing[side] = [], ["no orders: every group holds, DRAW"]
            continue
        report = receipts.parse_orders(position, side, text)
        chosen[side] = report.orders or legal.default_set(position, side).to_json()
        lines[side] = [_line(line) for line in report.lines]
        missing[side] = list(report.missing)
    chance = Chance(seed, STREAM, position.turn)
    turn = adjudicate.resolve(position, chosen, chance)
    return {
        "ok": True,
        "position": codec.to_json(turn.position),
        # 2 de Mayo leaves no accepted line undone: the API's outcomes carry no such list.
        "outcomes": [
            {key: value for key, value in asdict(outcome).items() if key != "undone"}
            for outcome in turn.outcomes
        ],
        "receipts": lines,
        "missing": missing,
        "orders": chosen,
        "events": [event.to_json() for event in chance.events],
        "facts": turn.facts,
    }
