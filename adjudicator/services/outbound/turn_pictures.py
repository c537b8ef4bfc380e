"""Where a turn's picture is on the web, and which stored turn an address names.

A turn's picture is addressed by what it shows: ``/games/<id>/turns/<n>/<digest>.png``, the
digest being that of the turn's public view (``positions.view_digest``). A turn rolled back and
played again to another position has a picture at another address, while the rolled-back
version's picture stays at its own, so every such address may be cached for ever. The older
address by number alone (``/games/<id>/turns/<n>.png``) names whichever version is live, so it
only leads to the live version's address (``live_path``) and is never cached for long.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.models import Game, Turn
from adjudicator.services.record import play, positions

# Hex digits of a view's digest in a picture's address: 80 bits, no two views of a turn alike.
DIGEST_LENGTH = 20


def path(game_id: int, number: int, view: Any) -> str:
    """Where the picture of turn ``number`` showing ``view`` (its public view) is, without
    ".png"; the same position, the same address."""
    digest = positions.view_digest(view).hex()[:DIGEST_LENGTH]
    return f"/games/{game_id}/turns/{number}/{digest}"


@dataclass(frozen=True)
class Version:
    """One stored version of a turn, as its picture is drawn: its game, its public view (the
    one the stored picture was drawn from) and its row."""

    game_key: str
    view: Any
    turn_id: int


def version(session: Session, game_id: int, number: int, digest: str) -> Version | None:
    """The version of a turn, live or rolled back, whose picture ``digest`` names; None when
    there is none or the game's positions may not be shown yet."""
    game = session.get(Game, game_id)
    if game is None or not play.public_turns_visible(game):
        return None
    rules = play.rules_for(game)
    rows = select(Turn).where(Turn.game_id == game_id, Turn.number == number).order_by(Turn.id)
    for turn in session.scalars(rows):
        view = rules.view(rules.load(turn.state), None)
        if path(game_id, number, view).rsplit("/", 1)[1] == digest:
            return Version(rules.key, view, turn.id)
    return None


def stored(session: Session, found: Version) -> bytes | None:
    """The picture stored with that version (English, the mail's size)."""
    return session.scalar(select(Turn.public_png).where(Turn.id == found.turn_id))


def live_path(session: Session, game_id: int, number: int) -> str | None:
    """The address of the live version of a turn's picture, without ".png"; None when there is
    no live turn of that number or it may not be shown yet."""
    game = session.get(Game, game_id)
    if game is None or not play.public_turns_visible(game):
        return None
    turn = session.scalar(
        select(Turn).where(
            Turn.game_id == game_id, Turn.number == number, Turn.rolled_back_at.is_(None)
        )
    )
    if turn is None:
        return None
    rules = play.rules_for(game)
    return path(game_id, number, rules.view(rules.load(turn.state), None))
