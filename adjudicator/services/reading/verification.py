"""Replaying a game's recorded chance from its revealed seed: the players' proof of fair dice.

The draws are replayed with the game's key (``core.chance.chance_key``): the seed itself under
scheme "v1", the seed mixed with every player's contribution under "v2". ``record`` gives the same
facts as the public fairness record (docs/fairness-json.md) that anyone can replay without us.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from adjudicator.core.chance import ChanceEvent, Contribution
from adjudicator.core.fairness_record import SPEC, DrawCheck, read_record
from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime


@dataclass(frozen=True)
class EventCheck:
    """One recorded draw beside what the seed gives for it."""

    turn: int
    label: str  # the code it was drawn under, which the replay hashes
    purpose: str  # what it was for, in the game's words
    counter: int
    kind: str  # "die" or "shuffle"
    bound: int
    recorded: tuple[int, ...]
    replayed: tuple[int, ...]  # empty when the draw cannot be replayed (an unknown kind)
    rolled_back: bool = False  # recorded in a turn the game master later rolled back

    @property
    def ok(self) -> bool:
        return self.recorded == self.replayed


@dataclass(frozen=True)
class Verification:
    game_id: int
    revealed: bool
    seed_matches_commitment: bool
    events_checked: int
    problems: list[str] = field(default_factory=list)
    checks: list[EventCheck] = field(default_factory=list)
    scheme: str = "v1"  # how the key comes from the seed (core.chance.SCHEMES)
    contributions: list[Contribution] = field(default_factory=list)  # in seat order, as hashed

    @property
    def ok(self) -> bool:
        return self.revealed and self.seed_matches_commitment and not self.problems


def _short(values: tuple[int, ...]) -> list[int]:
    return list(values)[:8]


def verify_game(runtime: Runtime, game_id: int, force: bool = False) -> Verification | Refusal:
    """Check every recorded draw against the seed: the game's fairness record (``record``)
    replayed as anyone outside replays it (``core.fairness_record``), so that the server's check
    and the reader's cannot disagree.

    ``force`` lets an operator check a running game; players can once the seed is revealed."""
    data = record(runtime, game_id, operator=force)
    if data is None:
        return Refusal(f"there is no game {game_id}")
    if not (data["seed_revealed"] or force):
        return Refusal(f"game {game_id} is still running; its seed is revealed when it ends")
    checked = read_record(data)
    if isinstance(checked, Refusal):  # a draw of a kind this build cannot replay, say
        return checked
    return Verification(
        game_id,
        data["seed_revealed"],
        checked.seed_matches_commitment,
        len(checked.checks),
        checked.problems,
        [_event_check(check) for check in checked.checks],
        checked.scheme,
        checked.contributions,
    )


def _event_check(check: DrawCheck) -> EventCheck:
    event = check.draw.event
    return EventCheck(
        turn=check.draw.turn_number,
        label=event.label,
        purpose=check.draw.purpose,
        counter=event.counter,
        kind=event.kind,
        bound=event.bound,
        recorded=event.result,
        replayed=check.replayed,
        rolled_back=check.draw.rolled_back,
    )


UNREVEALED = (
    "The seed is secret while the game runs and is revealed when it ends; this record then holds"
    " it, and every draw can be replayed from it. Until then it lists only the dice the turn pages"
    " show, and no shuffle: a deck's order would tell the cards still to come."
)
REVEALED = "The seed is revealed: every draw below can be replayed from this record alone."


def _draws(rules: Any, turn: Turn, dice_only: bool) -> tuple[list[Any], int]:
    """A turn's recorded draws as the record lists them, and how many it holds back."""
    draws: list[Any] = []
    withheld = 0
    for data in turn.events:
        if dice_only and data.get("kind") != "die":
            withheld += 1
            continue
        event = ChanceEvent.from_json(data)
        draws.append({**event.to_json(), "purpose": rules.chance_words(event.label)})
    return draws, withheld


def record(runtime: Runtime, game_id: int, operator: bool = False) -> dict[str, Any] | None:
    """The game's public fairness record (docs/fairness-json.md); None if there is no game.

    ``operator``: the record of a running game as its seed will reveal it, for the operator's
    own check (``verify_game(force=True)``); never served."""
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            return None
        revealed = play.seed_revealed(game) or operator
        # A running shared deal shows no turn at all (its positions would show the cards to come).
        visible = play.public_turns_visible(game)
        rules = play.rules_for(game)
        turns: list[dict[str, Any]] = []
        withheld = 0
        stored = select(Turn).where(Turn.game_id == game_id).order_by(Turn.number, Turn.id)
        for turn in session.scalars(stored) if revealed or visible else ():
            draws, held = _draws(rules, turn, dice_only=not revealed)
            withheld += held
            rolled_back = turn.rolled_back_at is not None
            turns.append({"number": turn.number, "rolled_back": rolled_back, "draws": draws})
        return {
            "spec": SPEC,
            "game_id": game.id,
            "game": game.game_key,
            "title": rules.title,
            "status": str(game.status),
            "stream": game.stream,
            "scheme": game.chance_scheme,
            "commitment": game.commitment,
            "seed_revealed": play.seed_revealed(game),
            "seed": game.seed.hex() if revealed else None,
            "note": REVEALED if revealed else UNREVEALED,
            # Needed only with the seed, and a Message-ID names a player's mail host: public
            # once the seed is (each player has them in the start mail meanwhile).
            "contributions": list(game.contributions) if revealed else [],
            "turns": turns,
            "draws": sum(len(turn["draws"]) for turn in turns),  # listed, in every turn
            "withheld": withheld,
            "page": f"/games/{game.id}/fairness",
        }
