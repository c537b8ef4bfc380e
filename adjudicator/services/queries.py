"""Read-only questions the web archive and the CLI ask: lists, a game's turns, public views.

Everything here that reaches a public page goes through the game's public view (``view(state,
None)``) or a turn's outcomes marked public: never a stored state, a turn's raw orders, a
submission's content, the seed before it is revealed, or an address.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from adjudicator import statuses
from adjudicator.core.contract import Game as Rules
from adjudicator.core.refusal import Refusal
from adjudicator.core.words import possessive
from adjudicator.games import registry
from adjudicator.models import Challenge, Game, InboundMessage, Player, Turn
from adjudicator.services import play, reasons
from adjudicator.services.lifecycle import leaderboard
from adjudicator.statuses import GameStatus, InboundStatus

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


@dataclass(frozen=True)
class Counts:
    """How many games each filter value would list, the other filter held as chosen."""

    by_game: dict[str, int]
    by_status: dict[str, int]
    all_games: int  # every game under the status filter alone
    all_statuses: int  # every game under the game filter alone


@dataclass(frozen=True)
class DieShown:
    """A recorded die with what it was rolled for; shuffles are never shown before the seed."""

    label: str
    purpose: str
    value: int


@dataclass(frozen=True)
class TurnPage:
    number: int
    reason: str  # the stored code, for the API; pages show ``why``
    created_at: datetime
    outcomes: list[dict[str, Any]]
    description: str
    dice: list[DieShown]
    rolled_back: bool = False
    rollback_note: str = ""
    # From the public view of the position after this turn (games that keep such records).
    combats: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    cards_played: list[dict[str, Any]] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    noun: str = "turn"  # the game's word for one stored turn (Game.turn_noun)
    report: str = ""  # the game's step report from the public facts, where it writes one
    why: str = ""  # the turn's reason in words
    titles: dict[str, str] = field(default_factory=dict)  # each seat as players read it

    @property
    def title(self) -> str:
        return "Opening position" if self.number == 0 else f"{self.noun.capitalize()} {self.number}"


SelectT = TypeVar("SelectT", bound=Select[*tuple[Any, ...]])


def _filtered(
    query: SelectT, filters: Filters, use_game: bool = True, use_status: bool = True
) -> SelectT:
    if use_game and filters.game_key:
        query = query.where(Game.game_key == filters.game_key)
    if use_status and filters.status:
        query = query.where(Game.status.in_(STATUS_FILTERS[filters.status]))
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
                paused=game.paused,
                deadline=game.deadline if game.status == GameStatus.ACTIVE else None,
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


def public_name(player: Player, seat_title: str) -> str:
    """A player as public pages name them: the name they gave, else as their seat's player
    ("France's player"). Never made from the address, which anyone could harvest or forge mail
    from, not even in part."""
    return play.display_name(player) or f"{possessive(seat_title)} player"


def _dice(rules: Rules[Any], events: list[Any]) -> list[DieShown]:
    # A shuffle's permutation, read against the known card list, is the deck order: only dice.
    # The label stays for the API (a code, for programs); people read the game's own words.
    return [
        DieShown(
            label=str(event["label"]),
            purpose=rules.chance_words(str(event["label"])),
            value=int(event["result"][0]),
        )
        for event in events
        if event.get("kind") == "die"
    ]


def _turn_page(rules: Rules[Any], turn: Turn) -> TurnPage:
    view = rules.view(rules.load(turn.state), None)
    shown: dict[str, Any] = view if isinstance(view, dict) else {}
    defaulted = turn.facts.get("defaulted", []) if isinstance(turn.facts, dict) else []
    return TurnPage(
        number=turn.number,
        reason=turn.reason,
        why=reasons.turn_reason(turn.reason),
        created_at=turn.created_at,
        outcomes=[
            {key: o.get(key, "") for key in ("seat", "order", "code", "detail")}
            for o in turn.outcomes
            if o.get("public", True)
        ],
        description=rules.describe(view),
        dice=_dice(rules, turn.events),
        rolled_back=turn.rolled_back_at is not None,
        rollback_note=turn.rollback_note,
        combats=list(shown.get("combats", [])) if turn.number else [],
        removed=list(shown.get("removed", [])) if turn.number else [],
        cards_played=list(shown.get("cards_played_last_turn", [])) if turn.number else [],
        defaulted=[str(seat) for seat in defaulted],
        view=shown,
        noun=rules.turn_noun,
        report=rules.step_report(turn.facts) if isinstance(turn.facts, dict) else "",
        titles={seat: rules.seat_title(seat) for seat in rules.seats},
    )


def public_turns(session: Session, game: Game) -> list[TurnPage]:
    """Every turn as the public may see it: the public view in words, never a hand or a deck."""
    rules = play.rules_for(game)
    turns = select(Turn).where(Turn.game_id == game.id).order_by(Turn.number, Turn.id)
    return [_turn_page(rules, turn) for turn in session.scalars(turns)]


def challenge_games(session: Session, name: str) -> tuple[Challenge, list[Game]] | None:
    challenge = play.find_challenge(session, name)
    if challenge is None:
        return None
    return challenge, leaderboard(session, challenge)


def inbound_rows(session: Session, status: str | None, limit: int = 50) -> list[InboundMessage]:
    query = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
    if status:
        wanted = statuses.parse(InboundStatus, status)
        if wanted is None:  # no row holds it (and the column would refuse it in a query)
            return []
        query = query.where(InboundMessage.status == wanted)
    return list(session.scalars(query))


@dataclass(frozen=True)
class SeatRow:
    """A seat on the public page: who plays it and whether orders are in, never which."""

    seat: str
    player: str
    joined: bool
    owes: bool  # the seat owes orders for the coming turn
    submitted: bool  # an accepted order set is on file for the coming turn
    title: str = ""  # the seat as players read it (Game.seat_title)


@dataclass(frozen=True)
class GamePage:
    game: Game
    title: str
    visible: bool
    revealed: bool
    turns: list[TurnPage]
    seats: list[SeatRow] = field(default_factory=list)
    next_turn: int | None = None  # the turn whose orders are being taken, while it runs
    noun: str = "turn"  # the game's word for one stored turn (Game.turn_noun)

    @property
    def live_turns(self) -> list[TurnPage]:
        return [turn for turn in self.turns if not turn.rolled_back]

    @property
    def latest(self) -> TurnPage | None:
        live = self.live_turns
        return live[-1] if live else None

    @property
    def strength(self) -> SideStrength | None:
        return _strength_of(play.rules_for(self.game), self.live_turns)


def _seat_rows(
    session: Session, game: Game, next_turn: int | None, owed: set[str]
) -> list[SeatRow]:
    on_file = set() if next_turn is None else play.seats_with_orders(session, game.id, next_turn)
    rules = play.rules_for(game)
    return [
        SeatRow(
            seat=seat.seat,
            title=rules.seat_title(seat.seat),
            player=public_name(seat.player, rules.seat_title(seat.seat)),
            joined=seat.joined_at is not None,
            owes=seat.seat in owed,
            submitted=seat.seat in on_file,
        )
        for seat in game.seats
    ]


def game_page(session: Session, game_id: int) -> GamePage | None:
    game = session.get(Game, game_id)
    if game is None:
        return None
    rules = play.rules_for(game)
    visible = play.public_turns_visible(game)
    turns = public_turns(session, game) if visible else []
    next_turn: int | None = None
    owed: set[str] = set()
    # Who owes orders is shown only where orders wait for a deadline; a solitaire game resolves
    # each order the moment it arrives, so nothing is ever "on file" there.
    if game.status == GameStatus.ACTIVE and not rules.resolves_on_receipt:
        latest = play.latest_turn(session, game.id)
        next_turn = latest.number + 1
        owed = set(rules.pending(rules.load(latest.state)))
    return GamePage(
        game=game,
        title=rules.title,
        visible=visible,
        revealed=play.seed_revealed(game),
        turns=turns,
        seats=_seat_rows(session, game, next_turn, owed),
        next_turn=next_turn,
        noun=rules.turn_noun,
    )


@dataclass(frozen=True)
class TurnVersions:
    """A turn's permanent page: the live version and any rolled back under the same number."""

    page: GamePage
    number: int
    versions: list[TurnPage]
    previous: int | None
    following: int | None


def turn_versions(session: Session, game_id: int, number: int) -> TurnVersions | None:
    page = game_page(session, game_id)
    if page is None or not page.visible:
        return None
    versions = [turn for turn in page.turns if turn.number == number]
    if not versions:
        return None
    numbers = sorted({turn.number for turn in page.live_turns})
    return TurnVersions(
        page=page,
        number=number,
        versions=versions,
        previous=max((n for n in numbers if n < number), default=None),
        following=min((n for n in numbers if n > number), default=None),
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


@dataclass(frozen=True)
class SideStrength:
    """Each side's units on the map and losses so far, after every live turn."""

    turns: list[int]
    on_map: dict[str, list[int]]
    losses: dict[str, list[int]]
    loss_limit: int | None
    titles: dict[str, str] = field(default_factory=dict)  # each side as players read it


def _strength_of(rules: Rules[Any], turns: list[TurnPage]) -> SideStrength | None:
    """The game's own reading of its public views (``Game.strength``); None where it has no
    sides to compare."""
    if not turns:
        return None
    found = rules.strength([turn.view for turn in turns])
    if found is None:
        return None
    return SideStrength(
        turns=[turn.number for turn in turns],
        on_map={side: list(counts) for side, counts in found.on_map.items()},
        losses={side: list(counts) for side, counts in found.losses.items()},
        loss_limit=found.loss_limit,
        titles={side: rules.seat_title(side) for side in found.on_map},
    )


def side_strength(session: Session, game_id: int) -> SideStrength | None:
    page = game_page(session, game_id)
    return page.strength if page is not None and page.visible else None


@dataclass(frozen=True)
class RankedEntry:
    rank: int
    game_id: int
    player: str
    status: GameStatus
    result: str
    won: bool | None  # None while the entry is still being played
    value: int | None  # the charted number (the game's ``ranking_axis``)


@dataclass(frozen=True)
class Leaderboard:
    challenge: Challenge
    entries: list[RankedEntry]
    axis: str | None  # what ``value`` counts; None where the game has no charted number

    @property
    def spread(self) -> dict[int, Counter[bool]]:
        """How many ended entries reached each value, won and lost apart."""
        bins: dict[int, Counter[bool]] = {}
        for entry in self.entries:
            if entry.value is not None and entry.won is not None:
                bins.setdefault(entry.value, Counter())[entry.won] += 1
        return dict(sorted(bins.items()))


def challenge_leaderboard(session: Session, name: str) -> Leaderboard | None:
    found = challenge_games(session, name)
    if found is None:
        return None
    challenge, games = found
    rules = registry.get(challenge.game_key)
    # Beside the rank, the one figure of the score that the game says its spread is charted by.
    axis = rules.ranking_axis if rules is not None else None
    entries = []
    for rank, game in enumerate(games, start=1):
        score = [int(x) for x in game.score] if game.score else []
        value = score[axis.index] if axis and len(score) > axis.index else None
        entries.append(
            RankedEntry(
                rank=rank,
                game_id=game.id,
                # Entrants are strangers to each other: the name they gave, or nothing.
                player=play.display_name(game.seats[0].player) if game.seats else "",
                status=game.status,
                result=game.result,
                won=bool(score[0]) if score else None,
                value=value,
            )
        )
    return Leaderboard(challenge, entries, axis.label if axis else None)
