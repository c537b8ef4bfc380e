"""The `pbem` command: a group of command groups, each in a module of its own: the service's
processes, clock and schema (serving), ops, mail (and mailbox: sending and reading as a player),
game and adjudicate (games), verify.

Every module imports what a command uses only when it runs (cli.runtime says why)."""

from __future__ import annotations

import click

from adjudicator.cli import games, mail, ops, serving, verify


@click.group()
def main() -> None:
    """pbem: a play-by-email adjudicator service."""


main.add_command(serving.serve)
main.add_command(serving.smtp)
main.add_command(serving.tick)
main.add_command(serving.db)
main.add_command(ops.ops)
main.add_command(mail.mail)
main.add_command(games.game)
main.add_command(games.adjudicate)
main.add_command(verify.verify)
