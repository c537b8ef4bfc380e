"""A due turn as a worker runs it, in two steps that each stay in their own neighbourhood: the
mail stored for the game before the deadline but still waiting is read first (its own task may
be stuck behind a broker outage or a busy queue, and orders that reached us in time belong in
this turn), then the turn is adjudicated (``turns.deadlines``), which only adjudicates: the
mail it writes waits in the outbox for its own send tasks."""

from __future__ import annotations

from datetime import datetime

from adjudicator.core.refusal import Refusal
from adjudicator.models import utcnow
from adjudicator.services.inbound import pipeline
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines


def run(
    runtime: Runtime, game_id: int, force: bool = False, now: datetime | None = None
) -> deadlines.Adjudicated | Refusal:
    """Resolve the game's turn if it is due (or ``force``), after reading its waiting mail."""
    now = now or utcnow()
    refused = deadlines.plainly_not_due(runtime, game_id, now, force)
    if refused is not None:
        return refused  # one read of the game's row: no mail to catch up for a turn not due
    pipeline.catch_up(runtime, game_id, now)
    return deadlines.resolve(runtime, game_id, now, force)
