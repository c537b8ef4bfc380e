"""Replaying a game's recorded chance from its revealed seed: the players' proof of fair dice."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from adjudicator.core.chance import ChanceEvent, commitment, verify
from adjudicator.models import Game, Turn
from adjudicator.services import play
from adjudicator.services.runtime import Runtime


@dataclass(frozen=True)
class Verification:
    game_id: int
    revealed: bool
    seed_matches_commitment: bool
    events_checked: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.revealed and self.seed_matches_commitment and not self.problems


def verify_game(runtime: Runtime, game_id: int, force: bool = False) -> Verification | str:
    """Check every recorded draw against the seed.

    ``force`` lets an operator check a running game; players can once the seed is revealed."""
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            return f"there is no game {game_id}"
        revealed = play.seed_revealed(game)
        if not (revealed or force):
            return f"game {game_id} is still running; its seed is revealed when it ends"
        problems: list[str] = []
        seed_ok = commitment(game.seed) == game.commitment
        if not seed_ok:
            problems.append("the seed does not hash to the commitment sent at the start")
        checked = 0
        for turn in session.scalars(
            select(Turn).where(Turn.game_id == game_id).order_by(Turn.number)
        ):
            events = [ChanceEvent.from_json(data) for data in turn.events]
            for event in events:
                if event.turn != turn.number:
                    problems.append(f"turn {turn.number}: an event is labelled turn {event.turn}")
            for mismatch in verify(game.seed, game.stream, events):
                event = mismatch.event
                problems.append(
                    f"turn {turn.number}: {event.label} #{event.counter} recorded "
                    f"{list(event.result)[:8]}, the seed gives {list(mismatch.expected)[:8]}"
                )
            checked += len(events)
        return Verification(game_id, revealed, seed_ok, checked, problems)
