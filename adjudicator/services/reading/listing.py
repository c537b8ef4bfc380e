"""The public list of games: which games, filtered by game and status (or one player's, from
a signed link), with who each is waiting for and by when, and the counts the filters show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.models import Game, Seat, Turn
from adjudicator.services.outbound import asks
from adjudicator.services.reading.queries import public_name
from adjudicator.services.record import play
from adjudicator.statuses import GameStatus

# The status filter offered to the public: an ended game is "finished" whether it was played out
# or closed (idle, or unfinished when its shared deal ended).
STATUS_FILTERS: dict[str, tuple[GameStatus, ...]] = {
    "active": (GameStatus.ACTIVE,),
    "forming": (GameStatus.FORMING,),
    "finished": (GameStatus.FINISHED, GameStatus.CLOSED),
}


@dataclass(frozen=True)
class Filters:
    game_key: str | None = None
    status: str | None = None
    player_id: int | None = None  # "my games": set only from a signed link (see player_links)


def read_filters(game_key: str | None, status: str | None) -> Filters | Refusal:
    """The list filters from a query string, or a sentence naming the value not known."""
    game_key = (game_key or "").strip().lower() or None
    status = (status or "").strip().lower() or None
    if game_key is not None and registry.get(game_key) is None:
        known = ", ".join(sorted(registry.games()))
        return Refusal(f"there is no game called {game_key!r}; known: {known}")
    if status is not None and status not in STATUS_FILTERS:
        return Refusal(f"there is no status {status!r}; known: {', '.join(STATUS_FILTERS)}")
    return Filters(game_key, status)


@dataclass(frozen=True)
class GameRow:
    id: int
    game_key: str
    title: str
    status: GameStatus
    result: str
    turns: int
    challenge: str | None
    last_activity: datetime
    paused: bool = False
    deadline: datetime | None = None
    players: tuple[str, ...] = ()  # each seat's player by public_name, in seat order
    waiting: asks.Owing | None = None  # who the game waits for and for what; None: no one
    noun: str = "turn"  # the game's word for one stored turn (Game.turn_noun)
    yours_owed: bool = False  # on a player's own list: one of their seats owes something now


@dataclass(frozen=True)
class Counts:
    """How many games each filter value would list, the other filter held as chosen."""

    by_game: dict[str, int]
    by_status: dict[str, int]
    all_games: int  # every game under the status filter alone
    all_statuses: int  # every game under the game filter alone


SelectT = TypeVar("SelectT", bound=Select[*tuple[Any, ...]])


def _filtered(
    query: SelectT, filters: Filters, use_game: bool = True, use_status: bool = True
) -> SelectT:
    if use_game and filters.game_key:
        query = query.where(Game.game_key == filters.game_key)
    if use_status and filters.status:
        query = query.where(Game.status.in_(STATUS_FILTERS[filters.status]))
    if filters.player_id is not None:
        seated = select(Seat.game_id).where(Seat.player_id == filters.player_id)
        query = query.where(Game.id.in_(seated))
    return query


def game_rows(session: Session, filters: Filters | None = None, limit: int = 200) -> list[GameRow]:
    filters = filters or Filters()
    counts = (
        select(Turn.game_id, func.max(Turn.number).label("turns"))
        .where(Turn.rolled_back_at.is_(None))
        .group_by(Turn.game_id)
        .subquery()
    )
    query = (
        select(Game, counts.c.turns)
        .join(counts, counts.c.game_id == Game.id)
        .order_by(Game.last_activity.desc(), Game.id.desc())
        .limit(limit)
    )
    rows = []
    for game, turns in session.execute(_filtered(query, filters)):
        rules = play.rules_for(game)
        moment = asks.now_owed(session, game)
        rows.append(
            GameRow(
                id=game.id,
                game_key=game.game_key,
                title=rules.title,
                status=game.status,
                result=play.shown_result(game),
                turns=int(turns or 0),
                challenge=game.challenge.name if game.challenge else None,
                last_activity=game.last_activity,
                paused=game.paused,
                deadline=game.deadline if game.status == GameStatus.ACTIVE else None,
                players=tuple(
                    public_name(seat.player, rules.seat_title(seat.seat)) for seat in game.seats
                ),
                waiting=asks.owing(rules, game, moment),
                yours_owed=asks.owed_by_player(game, moment, filters.player_id),
                noun=rules.turn_noun,
            )
        )
    return rows


def game_counts(session: Session, filters: Filters) -> Counts:
    by_key = _filtered(
        select(Game.game_key, func.count()).group_by(Game.game_key), filters, use_game=False
    )
    by_game = {key: int(n) for key, n in session.execute(by_key)}
    by_state = _filtered(
        select(Game.status, func.count()).group_by(Game.status), filters, use_status=False
    )
    raw = {state: int(n) for state, n in session.execute(by_state)}
    by_status = {
        name: sum(raw.get(state, 0) for state in states) for name, states in STATUS_FILTERS.items()
    }
    return Counts(
        by_game={key: by_game.get(key, 0) for key in registry.games()},
        by_status=by_status,
        all_games=sum(by_game.values()),
        all_statuses=sum(raw.values()),
    )
