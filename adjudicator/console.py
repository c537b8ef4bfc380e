"""The work a console command queues (``pbem game new``, ``pbem game command``), done by the
command itself once its transaction has committed."""

from __future__ import annotations

from dataclasses import replace

import click

from adjudicator.services.inbound import due_turn, pipeline
from adjudicator.services.outbound import delivery
from adjudicator.services.record.runtime import Runtime, Task

Queued = list[tuple[str, list[int]]]


def working(runtime: Runtime) -> tuple[Runtime, Queued]:
    """A console command's runtime, and the work its transaction queues (the mails it wrote, a
    turn PROCESS NOW forces), which the command does itself once it has committed (``do``), as
    a worker task sends its own mails: the service beside it may keep its queue in its own
    memory (``pbem serve``: memory://), where no other process reaches, and find that work only
    at its tick's sweep of what was left behind, minutes later."""
    queued: Queued = []
    return replace(
        runtime,
        enqueue=lambda task, record_id: queued.append((task, [record_id])),
        enqueue_many=lambda task, record_ids: queued.append((task, record_ids)),
    ), queued


def do(runtime: Runtime, queued: Queued) -> None:
    """Run the work a console command queued, and what that work queues in turn; what fails is
    left pending in the database for the service's tick."""
    while queued:
        task, record_ids = queued.pop(0)
        try:
            if task in (Task.SEND_OUTBOX, Task.SEND_OUTBOXES):
                delivery.deliver_many(runtime, record_ids)
            elif task == Task.ADJUDICATE:
                due_turn.run(runtime, record_ids[0])
            elif task == Task.PROCESS_INBOUND:
                pipeline.process(runtime, record_ids[0])
        except Exception as error:  # committed already: the tick finds it pending
            click.echo(f"{task} {record_ids} left to the service: {error}", err=True)
