"""Read-only questions the web archive and the CLI ask: lists, a game's turns, public views."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudicator.models import Challenge, Game, InboundMessage, Turn
from adjudicator.services import play
from adjudicator.services.lifecycle import leaderboard


@dataclass(frozen=True)
class GameRow:
    id: int
    game_key: str
    title: str
    status: str
    result: str
    turns: int
    challenge: str | None
    last_activity: datetime


@dataclass(frozen=True)
class TurnPage:
    number: int
    reason: str
    created_at: datetime
    outcomes: list[dict[str, Any]]
    description: str
    dice: list[dict[str, Any]]
    rolled_back: bool = False
    rollback_note: str = ""


def game_rows(session: Session, limit: int = 200) -> list[GameRow]:
    counts = (
        select(Turn.game_id, func.max(Turn.number).label("turns"))
        .where(Turn.rolled_back_at.is_(None))
        .group_by(Turn.game_id)
        .subquery()
    )
    query = (
        select(Game, counts.c.turns)
        .join(counts, counts.c.game_id == Game.id)
        .order_by(Game.last_activity.desc())
        .limit(limit)
    )
    rows = []
    for game, turns in session.execute(query):
        rows.append(
            GameRow(
                id=game.id,
                game_key=game.game_key,
                title=play.rules_for(game).title,
                status=game.status,
                result=game.result,
                turns=int(turns or 0),
                challenge=game.challenge.name if game.challenge else None,
                last_activity=game.last_activity,
            )
        )
    return rows


def public_turns(session: Session, game: Game) -> list[TurnPage]:
    """Every turn as the public may see it: the public view in words, never a hand or a deck."""
    rules = play.rules_for(game)
    pages = []
    turns = select(Turn).where(Turn.game_id == game.id).order_by(Turn.number, Turn.id)
    for turn in session.scalars(turns):
        view = rules.view(rules.load(turn.state), None)
        dice = [
            {"label": event["label"], "value": event["result"][0]}
            for event in turn.events
            if event["kind"] == "die"
        ]
        pages.append(
            TurnPage(
                number=turn.number,
                reason=turn.reason,
                created_at=turn.created_at,
                outcomes=[o for o in turn.outcomes if o.get("public", True)],
                description=rules.describe(view),
                dice=dice,
                rolled_back=turn.rolled_back_at is not None,
                rollback_note=turn.rollback_note,
            )
        )
    return pages


def challenge_games(session: Session, name: str) -> tuple[Challenge, list[Game]] | None:
    challenge = play.find_challenge(session, name)
    if challenge is None:
        return None
    return challenge, leaderboard(session, challenge)


def inbound_rows(session: Session, status: str | None, limit: int = 50) -> list[InboundMessage]:
    query = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
    if status:
        query = query.where(InboundMessage.status == status)
    return list(session.scalars(query))


@dataclass(frozen=True)
class GamePage:
    game: Game
    title: str
    visible: bool
    revealed: bool
    turns: list[TurnPage]


def game_page(session: Session, game_id: int) -> GamePage | None:
    game = session.get(Game, game_id)
    if game is None:
        return None
    visible = play.public_turns_visible(game)
    return GamePage(
        game=game,
        title=play.rules_for(game).title,
        visible=visible,
        revealed=play.seed_revealed(game),
        turns=public_turns(session, game) if visible else [],
    )


def turn_picture(session: Session, game_id: int, number: int) -> bytes | None:
    """The public picture of a turn, or None when there is none or it may not be shown yet."""
    game = session.get(Game, game_id)
    if game is None or not play.public_turns_visible(game):
        return None
    return session.scalar(
        select(Turn.public_png).where(
            Turn.game_id == game_id, Turn.number == number, Turn.rolled_back_at.is_(None)
        )
    )
