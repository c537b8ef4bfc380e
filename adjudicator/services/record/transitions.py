"""A game's life as one table: each change a game goes through, who is told of it, what the
calendar entry does, and the key that makes each notice unique.

A game is forming (until every invited player has joined), then in play (turn n, or in a game of
one decision at a time, decision k of it), maybe paused and resumed, and at last ended: finished
by its rules, resigned, ended by the game master, or closed after going idle. Along the way the
game master may move the deadline, force a turn, roll one back or replace a player.

``TABLE`` is that life as data: ``docs/architecture.md`` prints it, and the game-master guide and
the help say it in words. Every change of a game that players are told of goes through
``record`` (a row in ``game_events``) and its notices are keyed by that row's id (``key``): a
change made twice, such as a turn rolled back a second time, is a second notice, and a mail
processed again makes none. A turn played is a row of ``turns`` of its own, its reports keyed by
that row's id in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import limits
from adjudicator.i18n import N_
from adjudicator.models import Game, GameEvent, OutboxMessage, Turn


class Calendar(StrEnum):
    """What a change does to the calendar entry of the deadline players were last sent."""

    NONE = "none"  # no entry is sent or touched
    NEW = "new"  # a new entry (a new UID: the next turn's deadline)
    UPDATE = "update"  # the same UID with a higher SEQUENCE (the deadline moved)
    CANCEL = "cancel"  # the entry withdrawn (the turn will not be played under it)
    REPLACE = "cancel, new"  # the stale entry withdrawn and the next one sent


class Told(StrEnum):
    """How those a change concerns hear of it."""

    NOTICE = "a notice"  # a mail of its own
    REPORT = "the turn report"
    ANSWER = "the answer to their mail"  # the one who made the change
    END = "the end mail"  # the result, the final map, the revealed seed
    NOBODY = "not told"


@dataclass(frozen=True)
class Transition:
    """One kind of change: the state it leads to, how each seat and the game master hear of it,
    what the calendar does and what the archive shows."""

    kind: str
    then: str  # the state the game is in afterwards
    seats: Told
    gm: Told
    calendar: Calendar
    archive: str
    # Said in words for the game master's lifecycle page and the guide.
    words: str


TABLE: dict[str, Transition] = {
    t.kind: t
    for t in (
        Transition(
            "formed",
            "forming",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.NONE,
            "listed as forming",
            N_("the game was formed and every player invited"),
        ),
        Transition(
            "started",
            "in play, turn 1",
            Told.NOTICE,
            Told.NOTICE,
            Calendar.NEW,
            "the opening position",
            N_("every player joined and the game started"),
        ),
        Transition(
            "turn-played",
            "in play, the next turn",
            Told.REPORT,
            Told.REPORT,
            Calendar.REPLACE,
            "the turn's page and picture",
            N_("a turn was played"),
        ),
        Transition(
            "paused",
            "paused",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.NONE,
            "marked paused",
            N_("the game master paused the game"),
        ),
        Transition(
            "resumed",
            "in play",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.UPDATE,
            "in play again",
            N_("the game master resumed the game"),
        ),
        Transition(
            "deadline-moved",
            "in play",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.UPDATE,
            "the new deadline",
            N_("the game master moved the deadline"),
        ),
        Transition(
            "forced",
            "in play, the turn played at once",
            Told.REPORT,
            Told.ANSWER,
            Calendar.REPLACE,
            "the turn's page",
            N_("the game master had the turn played at once"),
        ),
        Transition(
            "rolled-back",
            "in play, the same turn again",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.REPLACE,
            "the turn struck through, its replay beside it",
            N_("the game master rolled back a turn"),
        ),
        Transition(
            "replaced",
            "in play",
            Told.NOTICE,
            Told.ANSWER,
            Calendar.NEW,
            "the seat's new player's name",
            N_("the game master gave a seat to a new player"),
        ),
        Transition(
            "resigned",
            "ended",
            Told.END,
            Told.END,
            Calendar.CANCEL,
            "ended: who resigned and who wins",
            N_("a player resigned and the game ended"),
        ),
        Transition(
            "ended",
            "ended",
            Told.END,
            Told.ANSWER,
            Calendar.CANCEL,
            "ended by the game master",
            N_("the game master ended the game"),
        ),
        Transition(
            "finished",
            "ended",
            Told.END,
            Told.END,
            Calendar.CANCEL,
            "the result",
            N_("the game ended by its rules"),
        ),
        Transition(
            "abandoned",
            "ended",
            Told.END,
            Told.END,
            Calendar.NONE,
            "closed, idle",
            N_("the game was closed after going idle"),
        ),
    )
}


def record(
    session: Session,
    game: Game,
    kind: str,
    now: datetime,
    *,
    by: str,
    turn: int,
    note: str = "",
    keyed: bool = True,
) -> GameEvent:
    """A change of ``game`` of the ``kind`` in ``TABLE``, on record. ``keyed``: its notices are
    keyed by its id, so it is written at once to have one (a change told by mails keyed
    otherwise, such as a turn report, waits for the caller's next write)."""
    assert kind in TABLE, kind
    event = GameEvent(game_id=game.id, kind=kind, turn=turn, by=by, note=note, at=now)
    session.add(event)
    if keyed:
        session.flush()
    return event


def stem(event: GameEvent) -> str:
    """The outbox key of ``event``'s notices, before the recipient."""
    return f"game:{event.game_id}:event:{event.id}"


def key(event: GameEvent, recipient: str) -> str:
    """The outbox key of the notice of ``event`` to ``recipient`` (a seat, or "gm")."""
    return f"{stem(event)}:{recipient}"


def prefix(event: GameEvent) -> str:
    """What the outbox keys of every notice of ``event`` begin with."""
    return f"{stem(event)}:"


# Mails of a change keyed by the game alone, since a game makes each once: the start mails, and
# the game master's note at the start and at the end ({game}: the game's id).
_ALSO_KEYED = {
    "started": ("game:{game}:start:", "game:{game}:gm:started"),
    **{end: ("game:{game}:gm:over",) for end in ("finished", "resigned", "ended", "abandoned")},
}


def turn_prefix(turn: Turn) -> str:
    """What the outbox keys of a played turn's reports begin with: its row's id, so a turn
    played again after a rollback is reported again."""
    return f"game:{turn.game_id}:turn:{turn.number}:{turn.id}:"


@dataclass(frozen=True)
class Telling:
    """One mail that told someone of a change: to whom, what kind, when it was written and sent."""

    to: str
    kind: str
    written: datetime
    sent: datetime | None
    status: str


@dataclass(frozen=True)
class Happened:
    """A change on record, with the mails that told of it, for the lifecycle page."""

    at: datetime
    kind: str
    turn: int
    by: str
    note: str
    told: list[Telling]


def history(session: Session, game: Game) -> list[Happened]:
    """Every change of ``game`` on record, oldest first: its events and its turns played, each
    with the mails keyed to it."""
    mails = session.execute(
        select(
            OutboxMessage.key,
            OutboxMessage.to_address,
            OutboxMessage.kind,
            OutboxMessage.created_at,
            OutboxMessage.sent_at,
            OutboxMessage.status,
        )
        .where(OutboxMessage.game_id == game.id)
        .order_by(OutboxMessage.id)
    ).all()

    def stems(event: GameEvent) -> tuple[str, ...]:
        return (prefix(event), *(k.format(game=game.id) for k in _ALSO_KEYED.get(event.kind, ())))

    def told(start: tuple[str, ...]) -> list[Telling]:
        return [
            Telling(to, kind, written, sent, str(status))
            for mail_key, to, kind, written, sent, status in mails
            if mail_key.startswith(start)
        ]

    happened = [
        Happened(e.at, e.kind, e.turn, e.by, limits.reason(e.note), told(stems(e)))
        for e in session.scalars(
            select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.id)
        )
    ]
    for turn in session.scalars(
        select(Turn).where(Turn.game_id == game.id, Turn.number > 0).order_by(Turn.id)
    ):
        reports = told((turn_prefix(turn),))
        happened.append(
            Happened(turn.created_at, "turn-played", turn.number, turn.reason, "", reports)
        )
    return sorted(happened, key=lambda item: item.at)


# The changes the archive and the feed show as events of their own: the ones every player is
# told of in a notice (a turn played and the game's end have entries of their own).
PUBLIC = ("paused", "resumed", "deadline-moved", "rolled-back", "replaced")


@dataclass(frozen=True)
class Public:
    """A change every player was told of, as the archive and the feed show it."""

    id: int
    at: datetime
    kind: str
    turn: int
    words: str  # TABLE's words, a catalog message
    note: str


def public(session: Session, game: Game) -> list[Public]:
    """The changes of ``game`` every player was told of in a notice, oldest first."""
    return [
        Public(
            event.id,
            event.at,
            event.kind,
            event.turn,
            TABLE[event.kind].words,
            limits.reason(event.note),
        )
        for event in session.scalars(
            select(GameEvent)
            .where(GameEvent.game_id == game.id, GameEvent.kind.in_(PUBLIC))
            .order_by(GameEvent.id)
        )
    ]
