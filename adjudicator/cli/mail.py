"""`pbem mail`: inbound mail stored, read and processed again, and outbound mail as it went;
sending and reading as a player would are in adjudicator.cli.mailbox."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from adjudicator import config as configuration
from adjudicator.cli import mailbox
from adjudicator.cli.runtime import load_runtime, stored
from adjudicator.core.refusal import Refusal


@click.group()
def mail() -> None:
    """Inbound and outbound mail."""


@mail.command("inject")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--to", "recipients", multiple=True, help="Envelope recipient (default: the headers)."
)
@click.option("--wait/--no-wait", default=True, help="Process it now and print the verdict.")
def mail_inject(file: BinaryIO, recipients: tuple[str, ...], wait: bool) -> None:
    """Store a raw message FILE (- for stdin) as if it had arrived, then process it."""
    from adjudicator.services.inbound import inbox, pipeline
    from adjudicator.services.outbound import delivery, retries

    runtime = load_runtime()
    raw = file.read()
    result = inbox.store(runtime, raw, source="cli", envelope_to=recipients)
    if isinstance(result, Refusal):
        raise click.ClickException(result.reason)
    click.echo(f"stored as inbound {result.id}" + (" (a duplicate)" if result.duplicate else ""))
    if wait:
        verdict = pipeline.process(runtime, result.id)
        click.echo(f"{verdict.status}: {verdict.reason}")
        for outbox_id in retries.pending_ids(runtime):
            delivery.deliver(runtime, outbox_id)


@mail.command("parse")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--to", "recipients", multiple=True, help="Envelope recipient (default: the headers)."
)
def mail_parse(file: BinaryIO, recipients: tuple[str, ...]) -> None:
    """Print, as JSON, what the pipeline makes of a raw message, without acting on it."""
    from adjudicator.mail.inspect import inspect

    config = configuration.load(read_only=True)
    found = inspect(
        file.read(), config.mail_domain, config.secret_key, list(recipients), config.previous_keys
    )
    click.echo(json.dumps(found, indent=2, ensure_ascii=False))


@mail.command("list")
@click.option("--status", help="received, done, ignored, rejected or failed")
@click.option("--limit", default=30)
def mail_list(status: str | None, limit: int) -> None:
    """Inbound messages, newest first, with what became of each."""
    from adjudicator.services.reading import queries

    runtime = load_runtime()
    with runtime.db.session() as session:
        for row in queries.inbound_rows(session, status, limit):
            click.echo(
                f"{row.id:>6} {row.received_at:%Y-%m-%d %H:%M:%S} {row.status:<9} "
                f"{row.sender or row.envelope_from or '?':<30} {row.reason}"
            )


@mail.command("outbox")
@click.option("--status", help="pending, sending, sent, failed or bounced")
@click.option("--limit", default=30)
def mail_outbox(status: str | None, limit: int) -> None:
    """Outbound mail, newest first; a bounce or delay report shows what the remote server said."""
    from sqlalchemy import select

    from adjudicator import statuses
    from adjudicator.models import OutboxMessage

    runtime = load_runtime()
    query = select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(limit)
    if status:
        wanted = statuses.parse(statuses.OutboxStatus, status)
        if wanted is None:  # no mail holds it (and the column would refuse it in a query)
            return
        query = query.where(OutboxMessage.status == wanted)
    with runtime.db.session() as session:
        for row in session.scalars(query):
            said = row.bounce or row.last_error
            click.echo(
                f"{row.id:>6} {row.created_at:%Y-%m-%d %H:%M:%S} {row.status:<8} "
                f"{row.to_address:<30} {row.subject[:50]}" + (f" | {said}" if said else "")
            )


@mail.command("show")
@click.argument("inbound_id", type=int)
@click.option("--raw", is_flag=True, help="Print the stored bytes exactly.")
def mail_show(inbound_id: int, raw: bool) -> None:
    """One inbound message: its record and its raw bytes."""
    from adjudicator.models import InboundMessage

    runtime = load_runtime()
    with runtime.db.session() as session:
        row = stored(session, InboundMessage, inbound_id, f"no inbound message {inbound_id}")
        if raw:
            sys.stdout.buffer.write(row.raw)
            return
        for name in (
            "id",
            "source",
            "status",
            "reason",
            "sender",
            "subject",
            "envelope_from",
            "envelope_to",
            "size",
            "attempts",
            "received_at",
            "processed_at",
            "game_id",
        ):
            click.echo(f"{name}: {getattr(row, name)}")
        click.echo("--- first 2000 bytes ---")
        click.echo(row.raw[:2000].decode("utf-8", "replace"))


@mail.command("retry")
@click.argument("inbound_id", type=int)
def mail_retry(inbound_id: int) -> None:
    """Process a failed message again (after a fix)."""
    from adjudicator.models import InboundMessage
    from adjudicator.services.inbound import pipeline
    from adjudicator.statuses import InboundStatus

    runtime = load_runtime()
    with runtime.db.session() as session:
        row = stored(session, InboundMessage, inbound_id, f"no inbound message {inbound_id}")
        row.status = InboundStatus.RECEIVED
    verdict = pipeline.process(runtime, inbound_id)
    click.echo(f"{verdict.status}: {verdict.reason}")


mail.add_command(mailbox.mail_send)
mail.add_command(mailbox.mail_read)
