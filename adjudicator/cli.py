"""The `pbem` command: serve, mail (sending and reading: adjudicator.cli_mailbox), game, verify
(adjudicator.cli_verify), tick, db, ops."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, BinaryIO

import click

from adjudicator import cli_mailbox, cli_verify
from adjudicator import config as configuration
from adjudicator.core.refusal import Refusal

if TYPE_CHECKING:
    from adjudicator.services.record.runtime import Runtime

# Each command imports what it uses, when it runs: the database, the migrations, Celery and the
# games' rules cost a second to load, which `pbem mail parse` and `pbem adjudicate` never touch
# (tests/test_cli_startup.py holds them to it).


def _runtime() -> Runtime:
    from adjudicator import bootstrap  # looked up when called: tests replace bootstrap.runtime

    return bootstrap.runtime()


@click.group()
def main() -> None:
    """pbem: a play-by-email adjudicator service."""


@main.command()
@click.option("--sample/--no-sample", default=True, help="Start a sample game if there are none.")
def serve(sample: bool) -> None:
    """Web, SMTP listener, worker and scheduler in one process (the embedded default)."""
    from adjudicator import server

    server.serve(_runtime(), sample=sample)


@main.command()
def smtp() -> None:
    """Only the SMTP listener (a Procfile process at scale)."""
    from adjudicator import server

    server.serve_smtp(_runtime())


@main.command()
def tick() -> None:
    """Run one tick now: queue pending work, reveal ended challenges, close idle games."""
    from adjudicator.services.turns import ticks

    report = ticks.tick(_runtime())
    click.echo(json.dumps(report.counts()))


@main.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every migration (serve does this too)."""
    runtime = _runtime()
    click.echo(f"schema up to date at {runtime.db.engine.url.render_as_string(hide_password=True)}")


@main.group()
def ops() -> None:
    """Operations: the health and backlog an operator watches."""


@ops.command("status")
@click.option("--json", "as_json", is_flag=True, help="One JSON object, as /healthz gives it.")
def ops_status(as_json: bool) -> None:
    """Database and broker reachable? Mail and turns waiting, and for how long. Exit 1 if down."""
    from adjudicator.services.reading import operations

    found = operations.report(_runtime())
    summary = found.to_json()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        for line in _status_lines(found.broker is not None, summary):
            click.echo(line)
    if not found.healthy:
        sys.exit(1)


def _status_lines(has_broker: bool, summary: dict[str, object]) -> list[str]:
    def age(seconds: object) -> str:
        return "-" if seconds is None else f"{seconds} s"

    lines = [f"status    {summary['status']}", f"database  {summary['database']}"]
    lines.append(
        f"redis     {summary['redis']}" if has_broker else "broker    embedded (not asked)"
    )
    if summary["inbound"] is not None:
        lines += [
            f"inbound   {_counts(summary['inbound'])}",
            f"          oldest waiting: {age(summary['oldest_inbound_pending_age_s'])}",
            f"outbox    {_counts(summary['outbox'])}",
            f"          oldest waiting: {age(summary['oldest_outbox_pending_age_s'])}",
            f"due turns {summary['due_games']}, most overdue by {age(summary['oldest_due_age_s'])}",
        ]
    if summary.get("queue_depth") is not None:
        lines.append(
            f"queue     {summary['queue_depth']} waiting, {summary['queue_unacked']} taken"
        )
    return lines


def _counts(by_status: object) -> str:
    assert isinstance(by_status, dict)
    return " ".join(f"{status}={count}" for status, count in by_status.items())


@main.group()
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
    from adjudicator.services.outbound import delivery

    runtime = _runtime()
    raw = file.read()
    result = inbox.store(runtime, raw, source="cli", envelope_to=recipients)
    if isinstance(result, Refusal):
        raise click.ClickException(result.reason)
    click.echo(f"stored as inbound {result.id}" + (" (a duplicate)" if result.duplicate else ""))
    if wait:
        verdict = pipeline.process(runtime, result.id)
        click.echo(f"{verdict.status}: {verdict.reason}")
        for outbox_id in delivery.pending_ids(runtime):
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

    runtime = _runtime()
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

    runtime = _runtime()
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

    runtime = _runtime()
    with runtime.db.session() as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            raise click.ClickException(f"no inbound message {inbound_id}")
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

    runtime = _runtime()
    with runtime.db.session() as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            raise click.ClickException(f"no inbound message {inbound_id}")
        row.status = InboundStatus.RECEIVED
    verdict = pipeline.process(runtime, inbound_id)
    click.echo(f"{verdict.status}: {verdict.reason}")


@main.group()
def game() -> None:
    """Games."""


@game.command("new")
@click.argument("game_key")
@click.option("--seat", "seats", multiple=True, required=True, help="seat=address, one per seat.")
@click.option(
    "--schedule",
    "schedule_text",
    default="",
    help="'48h', '3d', or weekly slots like 'Mon, Thu 20:00 Europe/Madrid' "
    "[default: 48h turns; a game of one decision at a time, its decision_hours].",
)
@click.option(
    "--timezone",
    default="",
    help="The game's time zone [default: the zone the schedule names, else UTC].",
)
@click.option("--option", "options", multiple=True, help="key=value game option.")
@click.option(
    "--grace", default="0", show_default=True, help="Minutes of grace after a deadline, 0 to 10080."
)
@click.option(
    "--early/--no-early",
    default=True,
    show_default=True,
    help="Adjudicate as soon as every seat has orders on file.",
)
@click.option(
    "--remind", default="12", show_default=True, help="Hours before a deadline to remind, 0: never."
)
@click.option(
    "--delay",
    default="0",
    show_default=True,
    help="Minutes an early turn waits after the last orders.",
)
@click.option(
    "--dkim",
    type=click.Choice(["optional", "required"]),
    default="optional",
    show_default=True,
    help="required: act only on seat mail whose DKIM signature verifies.",
)
@click.option("--gm", "gm_address", default=None, help="The game master's address.")
def game_new(
    game_key: str,
    seats: tuple[str, ...],
    schedule_text: str,
    timezone: str,
    options: tuple[str, ...],
    grace: str,
    early: bool,
    remind: str,
    delay: str,
    dkim: str,
    gm_address: str | None,
) -> None:
    """Start a game with deadlines and mail every player their welcome and reply address.

    The settings are read by the same rules as the lines under a NEW mail."""
    from adjudicator import console
    from adjudicator.services.turns import lifecycle

    def pairs(items: tuple[str, ...], what: str) -> dict[str, str]:
        if any("=" not in item for item in items):
            raise click.ClickException(f"write each {what} as key=value")
        return dict(item.split("=", 1) for item in items)

    words = {"TIMEZONE": timezone, "GRACE": grace, "EARLY": "yes" if early else "no"}
    words.update({"REMIND": remind, "DELAY": delay, "DKIM": dkim})
    if schedule_text:
        words["SCHEDULE"] = schedule_text
    settings = lifecycle.read_settings(
        game_key.lower(), pairs(seats, "--seat"), pairs(options, "--option"), words, gm_address
    )
    if isinstance(settings, Refusal):
        raise click.ClickException(settings.reason)
    runtime, queued = console.working(_runtime())
    with runtime.db.session() as session:
        made = lifecycle.start_game(session, runtime, settings)
        if isinstance(made, Refusal):
            raise click.ClickException(made.reason)
        due = f"turn 1 due {made.deadline:%Y-%m-%d %H:%M} UTC" if made.deadline else "no deadline"
    console.do(runtime, queued)  # the welcomes (or invitations) go out now
    click.echo(f"game {made.id} started; {due}")


@game.command("command")
@click.argument("game_id", type=int)
@click.argument("lines", nargs=-1, required=True)
def game_command(game_id: int, lines: tuple[str, ...]) -> None:
    """Game-master commands from the console, e.g. pbem game command 3 "EXTEND 24h" PAUSE."""
    import time

    from adjudicator import console
    from adjudicator.models import Game, utcnow
    from adjudicator.services.game_master import gm

    runtime, queued = console.working(_runtime())
    with runtime.db.session() as session:
        found = session.get(Game, game_id)
        if found is None:
            raise click.ClickException(f"there is no game {game_id}")
        key = f"console:{game_id}:{time.time_ns()}"
        results = gm.run(session, runtime, found, list(lines), key, utcnow())
    console.do(runtime, queued)  # the notices go out now, and a turn PROCESS NOW forces is played
    for result in results:
        click.echo(f"{'done' if result.done else 'NOT DONE'}: {result.line}: {result.message}")
    if not all(result.done for result in results):
        sys.exit(1)


@game.command("list")
def game_list() -> None:
    from adjudicator.services.reading import listing

    runtime = _runtime()
    with runtime.db.session() as session:
        for row in listing.game_rows(session):
            where = f" shared:{row.challenge}" if row.challenge else ""
            click.echo(
                f"{row.id:>5} {row.title:<12} turn {row.turns:<4} "
                f"{row.status:<9}{where} {row.result}"
            )


@game.command("show")
@click.argument("game_id", type=int)
def game_show(game_id: int) -> None:
    from adjudicator.models import Game
    from adjudicator.services.reading import queries
    from adjudicator.services.record import play

    runtime = _runtime()
    with runtime.db.session() as session:
        found = session.get(Game, game_id)
        if found is None:
            raise click.ClickException(f"there is no game {game_id}")
        click.echo(f"game {found.id}: {play.rules_for(found).title}, {found.status} {found.result}")
        click.echo(f"commitment: {found.commitment}")
        for seat in found.seats:
            address = play.seat_address(runtime, found, seat)
            click.echo(f"seat {seat.seat}: {seat.player.address}  reply to {address}")
        for page in queries.public_turns(session, found)[-1:]:
            click.echo(f"--- turn {page.number} ({page.reason}) ---")
            click.echo(page.description)


@main.command()
@click.argument("game_key")
@click.argument("case", type=click.File("rb"))
def adjudicate(game_key: str, case: BinaryIO) -> None:
    """Resolve a position and orders given as JSON (CASE, - for stdin); nothing is stored."""
    from adjudicator.games import registry

    rules = registry.get(game_key)
    if rules is None:
        raise click.ClickException(f"there is no game called {game_key!r}")
    from adjudicator import jsondata

    data = jsondata.loads(case.read())
    if isinstance(data, Refusal):
        raise click.ClickException(f"{case.name} is {data.reason}")
    result = rules.adjudicate_case(data)
    if result is None:
        raise click.ClickException(f"{rules.title} offers no stateless adjudication")
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    if result.get("errors"):
        sys.exit(1)


main.add_command(cli_verify.verify)
mail.add_command(cli_mailbox.mail_send)
mail.add_command(cli_mailbox.mail_read)

if __name__ == "__main__":
    main()
