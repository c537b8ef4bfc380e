"""Replaying a game's recorded chance from its revealed seed: the players' proof of fair dice."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from adjudicator.core.chance import ChanceEvent, commitment, recompute
from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, Turn
from adjudicator.services import dice, play
from adjudicator.services.runtime import Runtime


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

    @property
    def ok(self) -> bool:
        return self.revealed and self.seed_matches_commitment and not self.problems


def _short(values: tuple[int, ...]) -> list[int]:
    return list(values)[:8]


def verify_game(runtime: Runtime, game_id: int, force: bool = False) -> Verification | Refusal:
    """Check every recorded draw against the seed.

    ``force`` lets an operator check a running game; players can once the seed is revealed."""
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            return Refusal(f"there is no game {game_id}")
        revealed = play.seed_revealed(game)
        if not (revealed or force):
            return Refusal(f"game {game_id} is still running; its seed is revealed when it ends")
        problems: list[str] = []
        seed_ok = commitment(game.seed) == game.commitment
        if not seed_ok:
            problems.append("the seed does not hash to the commitment sent at the start")
        checks: list[EventCheck] = []
        rules = play.rules_for(game)
        for turn in session.scalars(
            select(Turn).where(Turn.game_id == game_id).order_by(Turn.number, Turn.id)
        ):
            for data in turn.events:
                event = ChanceEvent.from_json(data)
                if event.turn != turn.number:
                    problems.append(f"turn {turn.number}: an event is labelled turn {event.turn}")
                try:
                    replayed = recompute(dice.key(game), game.stream, event)
                except ValueError as error:  # a kind this build cannot replay is a failure too
                    problems.append(f"turn {turn.number}: {event.label}: {error}")
                    replayed = ()
                check = EventCheck(
                    turn=turn.number,
                    label=event.label,
                    purpose=rules.chance_words(event.label),
                    counter=event.counter,
                    kind=event.kind,
                    bound=event.bound,
                    recorded=event.result,
                    replayed=replayed,
                    rolled_back=turn.rolled_back_at is not None,
                )
                if replayed and not check.ok:
                    problems.append(
                        f"turn {turn.number}: {event.label} #{event.counter} recorded "
                        f"{_short(event.result)}, the seed gives {_short(replayed)}"
                    )
                checks.append(check)
        return Verification(game_id, revealed, seed_ok, len(checks), problems, checks)
