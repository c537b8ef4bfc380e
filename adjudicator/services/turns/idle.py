"""A game nobody plays any more: its players warned after a while without an order, then the
game closed, every seat and the game master told (services.turns.ticks decides when)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import update
from sqlalchemy.orm import Session

from adjudicator.db import changed
from adjudicator.models import Game, utcnow
from adjudicator.services.outbound import gm_letters, reports
from adjudicator.services.record import play, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus


def warn_idle(runtime: Runtime, game_id: int) -> bool:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        if game.status != GameStatus.ACTIVE:
            return False
        game.idle_warned_at = utcnow()
        key = f"game:{game.id}:idle-warning:{int(game.last_activity.timestamp())}"
        # Idle means nothing has moved: the player has this map already.
        warning = reports.SeatLetter(key, "idle-warning", "idle_warning", "idle", map=False)
        _tell_idle(session, runtime, game, warning)
        return True


def close_idle(runtime: Runtime, game_id: int) -> bool:
    with runtime.db.session() as session:
        won = changed(
            session,
            update(Game)
            .where(Game.id == game_id, Game.status == GameStatus.ACTIVE)
            .values(
                status=GameStatus.CLOSED,
                finished_at=utcnow(),
                result=f"closed after {runtime.config.idle_close_days} days without an order",
            ),
        )
        if not won:
            return False
        game = session.get_one(Game, game_id)
        session.refresh(game)
        turn = play.latest_turn(session, game.id).number + 1
        event = transitions.record(session, game, "abandoned", utcnow(), by="service", turn=turn)
        closed = reports.SeatLetter(transitions.stem(event), "closed", "game_over", "over")
        _tell_idle(session, runtime, game, closed)
        gm_letters.tell_gm(session, runtime, game)
        return True


def _tell_idle(session: Session, runtime: Runtime, game: Game, letter: reports.SeatLetter) -> None:
    """Mail every seat the idle warning or the closing, quoting the idle limits."""
    days = {
        "idle_close_days": runtime.config.idle_close_days,
        "idle_warning_days": runtime.config.idle_warning_days,
    }
    reports.mail_all_seats(session, runtime, game, replace(letter, extra=days))
