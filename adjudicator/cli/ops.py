"""`pbem ops`: the health and backlog an operator watches."""

from __future__ import annotations

import json
import sys

import click

from adjudicator.cli.runtime import load_runtime


@click.group()
def ops() -> None:
    """Operations: the health and backlog an operator watches."""


@ops.command("status")
@click.option("--json", "as_json", is_flag=True, help="One JSON object, as /healthz gives it.")
def ops_status(as_json: bool) -> None:
    """Database and broker reachable? Mail and turns waiting, and for how long. Exit 1 if down."""
    from adjudicator.services.reading import operations

    found = operations.report(load_runtime())
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
