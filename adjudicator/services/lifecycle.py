"""Ending games on the clock: idle solo games, and shared deals whose deadline has passed."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudicator.db import changed
from adjudicator.models import Challenge, Game, utcnow
from adjudicator.services import play, reports
from adjudicator.services.runtime import Runtime


def leaderboard(session: Session, challenge: Challenge) -> list[Game]:
    """Games of a shared deal, best first by the game's own score (Thermopyles: win, graveyard,
    fewer turns); unscored games last."""
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
            if game.status == "active":
                game.status = "closed"
                game.finished_at = utcnow()
                game.result = "unfinished when the shared deal ended"
        session.flush()
        ranking = leaderboard(session, challenge)
        table = [
            {
                "rank": rank,
                "game_id": game.id,
                # Every entrant receives this table: names they gave, never address parts.
                "player": play.display_name(game.seats[0].player),
                "result": game.result,
                "status": game.status,
            }
            for rank, game in enumerate(ranking, start=1)
        ]
        for game in ranking:
            reports.mail_seat(
                session,
                runtime,
                game,
                game.seats[0],
                key=f"challenge:{challenge.id}:results:{game.id}",
                kind="challenge-results",
                template="challenge_results",
                what="shared-deal",
                extra={"ranking": table},
            )
        return challenge.name


def warn_idle(runtime: Runtime, game_id: int) -> bool:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        if game.status != "active":
            return False
        game.idle_warned_at = utcnow()
        _mail_seats(
            session,
            runtime,
            game,
            "idle-warning",
            "idle_warning",
            f"game:{game.id}:idle-warning:{int(game.last_activity.timestamp())}",
            "idle",
        )
        return True


def close_idle(runtime: Runtime, game_id: int) -> bool:
    with runtime.db.session() as session:
        won = changed(
            session,
            update(Game)
            .where(Game.id == game_id, Game.status == "active")
            .values(
                status="closed",
                finished_at=utcnow(),
                result=f"closed after {runtime.config.idle_close_days} days without an order",
            ),
        )
        if not won:
            return False
        game = session.get_one(Game, game_id)
        session.refresh(game)
        _mail_seats(session, runtime, game, "closed", "game_over", f"game:{game.id}:closed", "over")
        reports.tell_gm(session, runtime, game)
        return True


def _mail_seats(
    session: Session, runtime: Runtime, game: Game, kind: str, template: str, key: str, what: str
) -> None:
    days = {
        "idle_close_days": runtime.config.idle_close_days,
        "idle_warning_days": runtime.config.idle_warning_days,
    }
    reports.mail_all_seats(
        session, runtime, game, key=key, kind=kind, template=template, what=what, extra=days
    )
