"""What a side (or the public archive) may see of a position, and the scramble that proves it.

Hidden: the other side's secret set-up orders until both are in and revealed (only *that* a side
has handed its orders in is public), and the other side's standing instructions. Everything else
on the battlefield is open, as on a table.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.contract import JSON
from adjudicator.games.musket_and_pike.rules import sequence, standing
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.scenario import scenario
from adjudicator.games.musket_and_pike.rules.state import ORDERS, Position, dump

GAME_KEY = "musketpike"


def visible(position: Position, seat: str | None) -> Position:
    """The position with everything ``seat`` may not see taken out."""
    secret = tuple((side, pairs) for side, pairs in position.secret_orders if side == seat)
    shown = replace(position, secret_orders=secret)
    for side in position.sides:
        if side != seat:
            shown = standing.without_side(shown, side)
    return shown


def view(position: Position, seat: str | None, rules: CommandRules) -> dict[str, JSON]:
    battle = scenario(position.scenario)
    owed = sequence.pending(position, rules)
    mine = dict(position.secret_orders).get(seat) if seat is not None else None
    return {
        "game": GAME_KEY,
        "seat": seat,
        "scenario": {
            "id": battle.id,
            "title": battle.title,
            "width": battle.width,
            "height": battle.height,
            "sides": {info.id: info.name for info in battle.sides},
        },
        "names": dict(sorted(battle.names.items())),
        "position": dump(visible(position, seat)),
        "handed_in": [side for side, _ in position.secret_orders],
        "my_setup": None if mine is None else [[wing, order] for wing, order in mine],
        "standing": standing.of(position, seat) if seat is not None else {},
        "owed": {
            side: {"step": position.step, "prompt": decision.prompt}
            for side, decision in sorted(owed.items())
        },
    }


def scramble_hidden(position: Position, seat: str | None, salt: int) -> Position:
    """The same position with the hidden parts changed, varied by ``salt``: other sides' secret
    orders and standing instructions take other values (which sides handed in stays, as it is
    public)."""
    secret = []
    for side, pairs in position.secret_orders:
        if side != seat:
            pairs = tuple(
                (wing, ORDERS[(ORDERS.index(order) + salt + n + 1) % len(ORDERS)])
                for n, (wing, order) in enumerate(pairs)
            )
        secret.append((side, pairs))
    scrambled = replace(position, secret_orders=tuple(secret))
    for side in position.sides:
        if side == seat:
            continue
        for number, kind in enumerate(standing.KINDS):
            values = standing.VALUES[kind]
            value = values[(salt + number + len(side)) % len(values)]
            scrambled = standing.with_instruction(scrambled, side, kind, value)
    return scrambled
