"""One 2 de Mayo turn, adjudicated in numbered steps (the godip way): each step a small function
in this package, called in order from ``resolve``. Pure: a position, both order sets and a
``Chance`` in; the new position (after the next turn's Preparation), outcomes and facts out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.contract import OrderOutcome
from adjudicator.core.said import SOURCE, spoken
from adjudicator.games.dos_de_mayo.adjudicate import combat, ending, movement, preparation, start
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.codec import last_json
from adjudicator.games.dos_de_mayo.state import Position


@dataclass(frozen=True)
class Turn:
    position: Position
    outcomes: tuple[OrderOutcome, ...]
    facts: dict[str, Any]


def resolve(position: Position, orders: Mapping[str, Any], chance: Chance) -> Turn:
    """Movement and Resolution of this turn, then Preparation of the next. ``orders`` maps a side
    to its order set JSON (a missing side gets the no-orders default). Raises ValueError only for
    a finished game or JSON that is not an order set; illegal orders are refused as outcomes."""
    if position.over:
        raise ValueError("2 de Mayo: the game is over")
    # The records kept in the position are written in English whoever's mail is being written;
    # each outcome's detail is a sentence the service writes anew for every reader.
    with spoken(SOURCE):
        return _resolve(position, orders, chance)


def _resolve(position: Position, orders: Mapping[str, Any], chance: Chance) -> Turn:
    work = Work.start(position, chance)
    # 1. Legality again, against this position: refused items become "rejected" outcomes.
    start.read_orders(work, orders)
    # 2. Turn 1: France's start card into its hand, the other into its deck, shuffled.
    start.take_start_card(work)
    # 3. Played cards leave the hands and are revealed, in effect order.
    plays = start.reveal_plays(work)
    # 4. Start of Movement: orders-window cards (placements, Curfew, Barricades, Molina...).
    start.orders_cards(work, plays)
    # 5. Which moves may start, with how many units: pin, half-stays, paths, cards.
    moves = movement.starting_moves(work)
    # 6. Head-on swaps: the larger force along an edge goes; initiative breaks a tie.
    movement.swaps(work, moves)
    # 7. Everything still moving moves at once.
    movement.execute(work, moves)
    # 8. Resolution: cards, then every area holding both sides.
    combat.resolution(work, plays)
    # 9. The end: France's loss limit at once, the victory check after the last turn.
    ending.check_end(work)
    # 10. Preparation of the next turn: draws within the limit, on-draw cards.
    preparation.prepare(work)
    new = work.finish()
    return Turn(new, tuple(work.outcomes), _facts(work, new))


def _facts(work: Work, new: Position) -> dict[str, Any]:
    """Public facts of the turn for the report, the picture and the archive: no hidden cards."""
    last = last_json(new.last) or {}
    return {
        "turn": work.turn,
        "initiative": work.initiative,
        "effect_order": list(work.effect_order),
        "moves": last.get("moves", []),
        "combats": last.get("combats", []),
        "removed": last.get("removed", []),
        "plays": last.get("plays", []),
        "draws": dict(work.draws),
        "losses": {"france": new.losses.france, "spain": new.losses.spain},
        "loss_limit": new.loss_limit(),
        "end": None
        if not new.over
        else {"winner": new.winner, "reason": new.end_reason, "sentence": work.end_detail},
    }
