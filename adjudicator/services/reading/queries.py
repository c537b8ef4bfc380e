"""Read-only questions the web archive and the CLI ask: lists, a game's turns, public views.

Everything here that reaches a public page goes through the game's public view (``view(state,
None)``) or a turn's outcomes marked public: never a stored state, a turn's raw orders, a
submission's content, the seed before it is revealed, or an address.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n, limits, statuses
from adjudicator.core import said
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.core.words import possessive
from adjudicator.games import registry
from adjudicator.models import Challenge, Game, InboundMessage, Player, Seat, Turn
from adjudicator.services.outbound import asks, turn_pictures
from adjudicator.services.record import on_file, play, reasons, transitions
from adjudicator.services.turns.lifecycle import leaderboard
from adjudicator.statuses import GameStatus, InboundStatus


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
    gist: str = ""  # the game's own one line of the turn (Game.step_summary), where it has one
    why: str = ""  # the turn's reason in words
    titles: dict[str, str] = field(default_factory=dict)  # each seat as players read it
    area_names: dict[str, str] = field(default_factory=dict)  # Game.area_name of each area shown
    # Game.card_name of each card the records name, Game.card_note of each card's arguments.
    card_words: dict[str, str] = field(default_factory=dict)
    # The address of this version's picture without ".png" (``turn_pictures.path``): it names what
    # the picture shows, so a turn played again after a rollback has a picture address of its
    # own, and each may be cached for ever.
    picture: str = ""
    # The last position of a game ended from outside its rules, worded so (Game.ended_view).
    ended: bool = False

    @property
    def title(self) -> str:
        return "Opening position" if self.number == 0 else f"{self.noun.capitalize()} {self.number}"

    @property
    def position(self) -> str:
        """Which position the turn's picture shows, as its heading says it: the map drawn after a
        turn is titled with that turn's number, so "after turn 3" is the position it shows."""
        return "Opening position" if self.number == 0 else f"After {self.noun} {self.number}"

    @property
    def coming(self) -> str:
        """The turn the position is played from, as the map's title counts it ("turn 2 of 10"),
        where the view counts turns that way; "" where it does not (or the game is over)."""
        turn, turns = self.view.get("turn"), self.view.get("turns")
        if self.ended:  # no turn is to come
            return ""
        if self.noun != "turn" or not isinstance(turn, int) or turn != self.number + 1:
            return ""
        if isinstance(turns, int) and turn > turns:
            return ""
        return f"turn {turn} of {turns}" if isinstance(turns, int) else f"turn {turn}"

    @property
    def by_side(self) -> dict[str, list[dict[str, Any]]]:
        """The turn's public orders and results, each side's together, the sides in the game's
        seat order (as stored, outcomes need not be), each side's orders as given."""
        grouped: dict[str, list[dict[str, Any]]] = {seat: [] for seat in self.titles}
        for outcome in self.outcomes:
            grouped.setdefault(str(outcome["seat"]), []).append(outcome)
        return {seat: outcomes for seat, outcomes in grouped.items() if outcomes}

    @property
    def losses(self) -> dict[str, int]:
        """Units each side lost in the turn, in combat and removed, for the history's one line."""
        lost: Counter[str] = Counter()
        for combat in self.combats:
            lost.update({str(side): int(n) for side, n in dict(combat.get("lost", {})).items()})
        for removal in self.removed:
            lost[str(removal.get("side", ""))] += int(removal.get("units", 0))
        return {side: n for side, n in lost.items() if n and side}

    @property
    def summary(self) -> str:
        """What was decided, in one line: each side's orders, or the step report's first line."""
        if self.report:
            return self.gist or _report_gist(self.report)
        if self.number == 0:
            return "The game's opening set-up."
        parts = [
            f"{self.titles.get(side, side)}: " + ", ".join(str(o["order"]) for o in outcomes)
            for side, outcomes in self.by_side.items()
        ]
        return "; ".join(parts) + "." if parts else f"{self.why.capitalize()}."


def _report_gist(report: str) -> str:
    """A step report in one line: the last thing its opening block says happened (the block
    opens with the step's name, the same for every step of a phase, and lists events after)."""
    block = report.strip().split("\n\n")[0].splitlines()
    events = [line.strip().removeprefix("- ") for line in block[1:] if line.strip()]
    gist = events[-1] if events else block[0].split(":", 1)[-1].strip()
    return f"{gist[:1].upper()}{gist[1:]}."


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


def _area_names(rules: Rules[Any], view: dict[str, Any]) -> dict[str, str]:
    """The areas of the view's combats and removals as players read them (the records keep
    the ids, which the API gives programs)."""
    records = [*view.get("combats", []), *view.get("removed", [])]
    areas = {str(record["area"]) for record in records if "area" in record}
    return {area: rules.area_name(area) for area in areas}


def _card_words(rules: Rules[Any], view: dict[str, Any]) -> dict[str, str]:
    """The cards the view's records name, and what each was played with, as players read them
    (the records keep the English, which the picture draws and the API gives programs)."""
    played = view.get("cards_played_last_turn", [])
    names = {str(c.get("name", "")) for c in played} | {
        str(r.get("why", "")) for r in view.get("removed", [])
    }
    words = {name: rules.card_name(name) for name in names if name}
    notes = {str(c.get("args") or "") for c in played}
    return {**words, **{note: rules.card_note(note) for note in notes if note}}


def _turn_page(rules: Rules[Any], turn: Turn, ended: bool = False) -> TurnPage:
    """A stored turn as the pages show it; ``ended``: the last position of a game ended from
    outside its rules, whose words say so."""
    view = rules.view(rules.load(turn.state), None)
    worded = rules.ended_view(view) if ended else view
    shown: dict[str, Any] = view if isinstance(view, dict) else {}
    # Stored sentences read back as sentences (said.restored), written anew for the page.
    facts = said.restored(turn.facts) if isinstance(turn.facts, dict) else {}
    defaulted = facts.get("defaulted", [])
    return TurnPage(
        number=turn.number,
        reason=turn.reason,
        why=reasons.turn_reason(turn.reason),
        created_at=turn.created_at,
        outcomes=[
            {key: o.get(key, "") for key in ("seat", "order", "code", "detail")}
            for o in said.restored(turn.outcomes)
            if o.get("public", True)
        ],
        description=rules.describe(worded),
        dice=_dice(rules, turn.events),
        rolled_back=turn.rolled_back_at is not None,
        rollback_note=limits.reason(turn.rollback_note),
        combats=list(shown.get("combats", [])) if turn.number else [],
        removed=list(shown.get("removed", [])) if turn.number else [],
        cards_played=list(shown.get("cards_played_last_turn", [])) if turn.number else [],
        defaulted=[str(seat) for seat in defaulted],
        view=shown,
        noun=rules.turn_noun,
        report=rules.step_report(facts) if facts else "",
        gist=rules.step_summary(facts) if facts else "",
        titles={seat: rules.seat_title(seat) for seat in rules.seats},
        area_names=_area_names(rules, shown),
        card_words=_card_words(rules, shown) if turn.number else {},
        picture=turn_pictures.path(turn.game_id, turn.number, view),
        ended=ended,
    )


def public_turns(session: Session, game: Game) -> list[TurnPage]:
    """Every turn as the public may see it: the public view in words, never a hand or a deck."""
    rules = play.rules_for(game)
    turns = select(Turn).where(Turn.game_id == game.id).order_by(Turn.number, Turn.id)
    rows = list(session.scalars(turns))
    live = [turn for turn in rows if turn.rolled_back_at is None]
    last = live[-1] if live and game.status in (GameStatus.FINISHED, GameStatus.CLOSED) else None
    # The game's last position, where the game ended from outside its rules, is worded so.
    ended = last is not None and not rules.outcome(rules.load(last.state)).finished
    return [_turn_page(rules, turn, ended and turn is last) for turn in rows]


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
    next_step: str = ""  # who the game waits for, for what (asks.waiting_for); "": no one
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


def _seat_rows(session: Session, game: Game, moment: asks.Moment) -> list[SeatRow]:
    rules = play.rules_for(game)
    return [
        SeatRow(
            seat=seat.seat,
            title=rules.seat_title(seat.seat),
            player=public_name(seat.player, rules.seat_title(seat.seat)),
            joined=seat.joined_at is not None,
            owes=seat.seat in moment.pending,
            submitted=seat.seat in moment.owed.on_file,
            refused=_refused(moment.owed.seats.get(seat.seat)),
            owed=_owed_words(moment.pending.get(seat.seat)),
        )
        for seat in game.seats
    ]


def _refused(owes: on_file.SeatOwes | None) -> int:
    return owes.refused if owes is not None else 0


def _owed_words(decision: Decision | None) -> str:
    return said.anew(decision.brief) if decision is not None else ""


def game_page(session: Session, game_id: int) -> GamePage | None:
    game = session.get(Game, game_id)
    if game is None:
        return None
    rules = play.rules_for(game)
    visible = play.public_turns_visible(game)
    turns = public_turns(session, game) if visible else []
    moment = asks.now_owed(session, game)
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
        next_step=asks.waiting_for(rules, game, moment),
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
