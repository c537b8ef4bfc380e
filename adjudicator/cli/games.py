"""`pbem game`: games started, commanded as their game master, listed and shown; and
`pbem adjudicate`, a position and its orders resolved with nothing stored."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from adjudicator.cli.runtime import load_runtime, stored
from adjudicator.core.refusal import Refusal


@click.group()
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
    runtime, queued = console.working(load_runtime())
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

    runtime, queued = console.working(load_runtime())
    with runtime.db.session() as session:
        found = stored(session, Game, game_id, f"there is no game {game_id}")
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

    runtime = load_runtime()
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
    from adjudicator.services.reading import turn_pages
    from adjudicator.services.record import play

    runtime = load_runtime()
    with runtime.db.session() as session:
        found = stored(session, Game, game_id, f"there is no game {game_id}")
        click.echo(f"game {found.id}: {play.rules_for(found).title}, {found.status} {found.result}")
        click.echo(f"commitment: {found.commitment}")
        for seat in found.seats:
            address = play.seat_address(runtime, found, seat)
            click.echo(f"seat {seat.seat}: {seat.player.address}  reply to {address}")
        for page in turn_pages.public_turns(session, found)[-1:]:
            click.echo(f"--- turn {page.number} ({page.reason}) ---")
            click.echo(page.description)


@click.command()
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
