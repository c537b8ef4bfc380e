"""`pbem serve`, `pbem smtp`, `pbem tick` and `pbem db`: the service's processes, one tick of
its clock, and its schema."""

from __future__ import annotations

import json

import click

from adjudicator.cli.runtime import load_runtime


@click.command()
@click.option("--sample/--no-sample", default=True, help="Start a sample game if there are none.")
def serve(sample: bool) -> None:
    """Web, SMTP listener, worker and scheduler in one process (the embedded default)."""
    from adjudicator import server

    server.serve(load_runtime(), sample=sample)


@click.command()
def smtp() -> None:
    """Only the SMTP listener (a Procfile process at scale)."""
    from adjudicator import server

    server.serve_smtp(load_runtime())


@click.command()
def tick() -> None:
    """Run one tick now: queue pending work, reveal ended challenges, close idle games."""
    from adjudicator.services.turns import ticks

    report = ticks.tick(load_runtime())
    click.echo(json.dumps(report.counts()))


@click.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every migration (serve does this too)."""
    runtime = load_runtime()
    click.echo(f"schema up to date at {runtime.db.engine.url.render_as_string(hide_password=True)}")
