"""The `pbem` command: a group of command groups, each in a module of its own: the service's
processes, clock and schema (serving), ops, mail (and mailbox: sending and reading as a player),
game and adjudicate (games), verify.

Every module imports what a command uses only when it runs (cli.runtime says why)."""

from __future__ import annotations

import click

from adjudicator.cli import games, mail, ops, serving, verify

COMMANDS = [
    serving.serve,
    serving.smtp,
    serving.tick,
    serving.db,
    ops.ops,
    mail.mail,
    games.game,
    games.adjudicate,
    verify.verify,
]


@click.group(commands=COMMANDS)
def main() -> None:
    """pbem: a play-by-email adjudicator service."""
