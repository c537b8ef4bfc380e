"""`pbem verify`: replay a game's cards and dice, from the database (GAME) or from its fairness
record alone (--file fairness.json, as /api/games/GAME/fairness.json gives it), offline.

The exit code says what came of it: 0 every draw confirmed, 1 a draw or the seed differs, 2 nothing
could be checked (a record not in the format, a seed not yet revealed).
"""

from __future__ import annotations

import sys
from typing import BinaryIO

import click

from adjudicator.core.chance import Contribution
from adjudicator.core.refusal import Refusal

CONFIRMED, DIFFERS, UNCHECKED = 0, 1, 2


@click.command()
@click.argument("game_id", type=int, required=False)
@click.option("--force", is_flag=True, help="Check a running game too (operators only).")
@click.option(
    "--file",
    "record",
    type=click.File("rb"),
    help="A game's fairness.json (- for stdin), checked with no database or configuration.",
)
def verify(game_id: int | None, force: bool, record: BinaryIO | None) -> None:
    """Replay every recorded card and die of GAME from its revealed seed, or of a fairness
    record given with --file."""
    if record is not None:
        if game_id is not None or force:
            raise click.UsageError("--file checks the record alone: give no GAME or --force")
        sys.exit(verify_file(record))
    if game_id is None:
        raise click.UsageError("name a GAME, or give its fairness record with --file")
    from adjudicator import bootstrap  # looked up when called: tests replace bootstrap.runtime
    from adjudicator.services.reading import verification

    result = verification.verify_game(bootstrap.runtime(), game_id, force=force)
    if isinstance(result, Refusal):
        raise click.ClickException(result.reason)
    sys.exit(
        _tell(
            f"game {game_id}",
            result.scheme,
            result.contributions,
            result.problems,
            result.events_checked,
        )
    )


def _tell(
    game: str,
    scheme: str,
    given: list[Contribution],
    problems: list[str],
    draws: int,
    also: str = "",
) -> int:
    """What came of a check, as both ways of running it say it; the exit code."""
    click.echo(_key_words(scheme, len(given)))
    for each in given:
        click.echo(f"  {each.seat}: {each.words!r} ({each.source})")
    for problem in problems:
        click.echo(f"DIFFERS: {problem}")
    if problems:
        click.echo(f"{game} does not verify", err=True)
        return DIFFERS
    click.echo(
        f"confirmed: {game}'s seed matches its commitment and reproduces all "
        f"{draws} recorded draws{also}"
    )
    return CONFIRMED


def _key_words(scheme: str, contributions: int) -> str:
    if scheme == "v1":
        return "key: the seed itself (scheme v1)"
    return (
        f"key: the seed with {contributions} contribution{'s' * (contributions != 1)} (scheme v2)"
    )


def verify_file(record: BinaryIO) -> int:
    """Check a fairness record and say what came of it; the exit code."""
    from adjudicator import jsondata
    from adjudicator.core.fairness_record import read_record

    data = jsondata.loads(record.read())
    checked = read_record(data) if not isinstance(data, Refusal) else data
    if isinstance(checked, Refusal):
        click.echo(f"cannot check {record.name}: {checked.reason}", err=True)
        return UNCHECKED
    game = f"game {checked.game_id}"
    if not checked.revealed:
        click.echo(f"cannot check {game} yet: its seed is revealed when it ends", err=True)
        return UNCHECKED
    rolled_back = sum(check.draw.rolled_back for check in checked.checks)
    also = f" ({rolled_back} in rolled-back turns)" if rolled_back else ""
    return _tell(
        game, checked.scheme, checked.contributions, checked.problems, len(checked.checks), also
    )
