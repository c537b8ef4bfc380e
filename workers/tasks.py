"""Celery tasks: each one a few lines handing a record id to a service."""

from __future__ import annotations

from adjudicator.core.refusal import Refusal
from adjudicator.services.inbound import due_turn, pipeline
from adjudicator.services.outbound import delivery
from adjudicator.services.turns import ticks
from workers.app import celery, runtime


@celery.task(name="pbem.process_inbound")
def process_inbound(inbound_id: int) -> str:
    return pipeline.process(runtime(), inbound_id).status


@celery.task(name="pbem.send_outbox")
def send_outbox(outbox_id: int) -> str:
    return delivery.deliver(runtime(), outbox_id)


@celery.task(name="pbem.send_outboxes")
def send_outboxes(outbox_ids: list[int]) -> list[str]:
    """The mails one transaction wrote (a turn's reports), over one connection to the relay."""
    return delivery.deliver_many(runtime(), outbox_ids)


@celery.task(name="pbem.adjudicate")
def adjudicate(game_id: int) -> str:
    result = due_turn.run(runtime(), game_id)
    return result.reason if isinstance(result, Refusal) else f"turn {result.turn} ({result.why})"


@celery.task(name="pbem.force")
def force(game_id: int) -> str:
    """PROCESS NOW, as queued before it was recorded on the game (Game.forced_at), which
    ``adjudicate`` now reads: kept for tasks still in a queue from then."""
    result = due_turn.run(runtime(), game_id, force=True)
    return result.reason if isinstance(result, Refusal) else f"turn {result.turn} (forced)"


@celery.task(name="pbem.tick")
def tick() -> dict[str, int]:
    return ticks.tick(runtime()).counts()
