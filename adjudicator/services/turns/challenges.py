"""A shared deal (a ``Challenge``: one deal, one seed, many solo entrants): its games ranked by
their own score, and its end on the clock, when the running games close, the seed is revealed
and every entrant is mailed the ranking in their own language."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.db import changed
from adjudicator.i18n import N_
from adjudicator.models import Challenge, Game, utcnow
from adjudicator.services.outbound import reports
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus


def leaderboard(session: Session, challenge: Challenge) -> list[Game]:
    """Games of a shared deal, best first by the game's own score (``Outcome.score``, compared
    entry by entry); unscored games last."""
    games = list(session.scalars(select(Game).where(Game.challenge_id == challenge.id)))
    return sorted(games, key=lambda game: (game.score or [-99], -game.id), reverse=True)


def reveal_challenge(runtime: Runtime, challenge_id: int) -> str | None:
    """Close the challenge's running games, reveal its seed and mail every entrant the ranking."""
    with runtime.db.session() as session:
        # Compare-and-set: only one tick reveals a challenge, however many run at once.
        won = changed(
            session,
            update(Challenge)
            .where(Challenge.id == challenge_id, Challenge.revealed_at.is_(None))
            .values(revealed_at=utcnow()),
        )
        if not won:
            return None
        challenge = session.get_one(Challenge, challenge_id)
        for game in session.scalars(select(Game).where(Game.challenge_id == challenge_id)):
            if game.status == GameStatus.ACTIVE:
                game.status = GameStatus.CLOSED
                game.finished_at = utcnow()
                game.result = UNFINISHED
        session.flush()
        ranking = leaderboard(session, challenge)
        for game in ranking:
            # Each entrant reads the ranking in their own language.
            lang = play.language(game.seats[0].player, game)
            letter = reports.SeatLetter(
                key=f"challenge:{challenge.id}:results:{game.id}",
                kind="challenge-results",
                template="challenge_results",
                what="shared-deal",
                extra={"ranking": _ranking(ranking, lang), "result": _result(game, lang)},
            )
            reports.mail_seat(session, runtime, game, game.seats[0], letter)
        return challenge.name


# The result of a shared deal's game still running when the deal ends.
UNFINISHED = N_("unfinished when the shared deal ended")


def _result(game: Game, lang: str) -> str | None:
    """A game's result in ``lang`` where it is a sentence the catalogs hold (UNFINISHED)."""
    return i18n.gettext(game.result, lang) if game.result else game.result


def _ranking(ranking: list[Game], lang: str) -> list[dict[str, Any]]:
    """The shared deal's games, best first, as an entrant reading ``lang`` is shown them."""
    return [
        {
            "rank": rank,
            "game_id": game.id,
            # Every entrant receives this table: names they gave, never address parts.
            "player": play.display_name(game.seats[0].player),
            "result": _result(game, lang),
            "status": game.status,
        }
        for rank, game in enumerate(ranking, start=1)
    ]
