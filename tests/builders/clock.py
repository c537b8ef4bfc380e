"""Time in the tests: a game's deadline, and its turn played once the deadline has passed, as
the adjudicate task queued for that moment plays it."""

from __future__ import annotations

from datetime import datetime, timedelta

from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines

# How long after a deadline a late turn is played: the first moment it is late.
LATE = timedelta(seconds=1)


def deadline_of(runtime: Runtime, game_id: int) -> datetime:
    """The game's deadline now; it must have one."""
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None, f"game {game_id} has no deadline"
    return deadline


def played_late(runtime: Runtime, game_id: int) -> deadlines.Adjudicated:
    """The game's turn played a second after its deadline; it must be played."""
    done = deadlines.adjudicate(runtime, game_id, now=deadline_of(runtime, game_id) + LATE)
    assert isinstance(done, deadlines.Adjudicated), done
    return done
