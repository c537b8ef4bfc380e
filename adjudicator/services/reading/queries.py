"""Read-only questions the web archive and the CLI ask: a game's public page (its seats, who it
waits for, its turns as ``turn_pages`` shows each), a turn's versions, each side's strength,
a challenge's leaderboard, the inbound rows an operator lists.

Everything here that reaches a public page goes through the game's public view (``view(state,
None)``) or a turn's outcomes marked public: never a stored state, a turn's raw orders, a
submission's content, the seed before it is revealed, or an address.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n, statuses
from adjudicator.core import said
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.core.words import possessive
from adjudicator.games import registry
from adjudicator.models import Challenge, Game, InboundMessage, Player, Seat
from adjudicator.services.outbound import awaited
from adjudicator.services.reading.turn_pages import TurnPage, public_turns
from adjudicator.services.record import play, transitions
from adjudicator.services.turns.challenges import leaderboard
from adjudicator.statuses import GameStatus, InboundStatus


def seat_holder(session: Session, game_id: int, seat: str) -> tuple[int, int] | None:
    """The player in a game's seat and the seat's key version (which signs its private links)."""
    found = session.scalar(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat))
    return (found.player_id, found.key_version) if found is not None else None


def public_name(player: Player, seat_title: str) -> str:
    """A player as public pages name them: the name they gave, else as their seat's player
    ("France's player"). Never made from the address, which anyone could harvest or forge mail
    from, not even in part."""
    if play.display_name(player):
        return play.display_name(player)
    if said.language() == i18n.SOURCE:
        return f"{possessive(seat_title)} player"
    return i18n.gettext("the player of %(seat)s", said.language(), seat=seat_title)


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
    owed: str = ""  # the decision the seat owes, in words, in a game of one decision at a time
    refused: int = 0  # the lines left out of its set on file as refused


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
    next_step: str = ""  # who the game waits for, for what (awaited.waiting_for); "": no one
    # The game master's changes every player was told of (a pause, a rollback...), oldest first.
    changes: list[transitions.Public] = field(default_factory=list)

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


def _seat_rows(session: Session, game: Game, moment: awaited.Moment) -> list[SeatRow]:
    rules = play.rules_for(game)
    return [
        SeatRow(
            seat=seat.seat,
            title=rules.seat_title(seat.seat),
            player=public_name(seat.player, rules.seat_title(seat.seat)),
            joined=seat.joined_at is not None,
            owes=seat.seat in moment.pending,
            submitted=seat.seat in moment.owed.on_file,
            refused=moment.owed.refused(seat.seat),
            owed=_owed_words(moment.pending.get(seat.seat)),
        )
        for seat in game.seats
    ]


def _owed_words(decision: Decision | None) -> str:
    return said.anew(decision.brief) if decision is not None else ""


def game_page(session: Session, game_id: int) -> GamePage | None:
    game = session.get(Game, game_id)
    if game is None:
        return None
    rules = play.rules_for(game)
    visible = play.public_turns_visible(game)
    turns = public_turns(session, game) if visible else []
    moment = awaited.now_owed(session, game)
    # Orders "on file" exist only where they wait for a deadline; a game resolving each order
    # the moment it arrives owes one decision at a time instead (SeatRow.owed).
    ordered = game.status == GameStatus.ACTIVE and not rules.resolves_on_receipt
    return GamePage(
        game=game,
        title=rules.title,
        visible=visible,
        revealed=play.seed_revealed(game),
        turns=turns,
        seats=_seat_rows(session, game, moment),
        next_turn=moment.next_turn if ordered else None,
        noun=rules.turn_noun,
        next_step=awaited.waiting_for(rules, game, moment),
        changes=transitions.public(session, game),
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
                result=play.shown_result(game),
                won=bool(score[0]) if score else None,
                value=value,
            )
        )
    return Leaderboard(challenge, entries, axis.label if axis else None)
