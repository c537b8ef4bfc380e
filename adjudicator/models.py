"""The stored records: games, seats, players, turns, submissions, inbound mail and the outbox.

Turns are append-only snapshots; submissions are all kept (the latest per seat and turn counts);
inbound mail is stored as raw bytes before anything reads it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum, StrEnum
from typing import Any, ClassVar, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from adjudicator.statuses import GameStatus, InboundStatus, OutboxStatus


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, on SQLite as on PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; the service keeps every time in UTC")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


S = TypeVar("S", bound=StrEnum)


class Status(TypeDecorator[S]):
    """A status column: the member's value as String(16), read back as the member.

    Written as text by the value, never left to the driver (psycopg would write an Enum by its
    name); a value that is not one of the enum's is refused instead of stored."""

    impl = String(16)
    cache_ok = True

    def __init__(self, enum: type[S]) -> None:
        super().__init__()
        self.enum = enum

    def process_bind_param(self, value: S | str | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        # Another enum's member with the same text ("failed") is a mix-up, not this status.
        if isinstance(value, Enum) and not isinstance(value, self.enum):
            raise ValueError(f"{value!r} is not a valid {self.enum.__name__}")
        return self.enum(value).value

    def process_result_value(self, value: str | None, dialect: Dialect) -> S | None:
        return None if value is None else self.enum(value)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER keys only


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    address: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    # The player's own zone for showing deadlines; empty: each game's zone.
    timezone: Mapped[str] = mapped_column(String(64), default="")
    # Hours before a deadline to be reminded; None: each game's setting (0: never).
    reminder_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # VACATION: no reminders and no NMR warnings between these instants (UTC); None: none set.
    vacation_start: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    vacation_end: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # "text": plain-text mail only; "" or "html": text and HTML alternatives.
    mail_format: Mapped[str] = mapped_column(String(8), default="")
    # The language the player's mail is written in (i18n.languages()); "": not chosen.
    language: Mapped[str] = mapped_column(String(16), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Challenge(Base):
    """A shared deal: every game in it plays the same seeded cards and dice."""

    __tablename__ = "challenges"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    game_key: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[bytes] = mapped_column(LargeBinary)
    commitment: Mapped[str] = mapped_column(String(64))
    deadline: Mapped[datetime] = mapped_column(UTCDateTime())
    revealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Game(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_key: Mapped[str] = mapped_column(String(32), index=True)
    status: Mapped[GameStatus] = mapped_column(
        Status(GameStatus), default=GameStatus.ACTIVE, index=True
    )
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The secret seed; only its commitment is shown until the game (or its challenge) ends.
    seed: Mapped[bytes] = mapped_column(LargeBinary)
    commitment: Mapped[str] = mapped_column(String(64))
    # The chance stream name: the game's own id, or the challenge name for a shared deal.
    stream: Mapped[str] = mapped_column(String(64))
    # How the dice's key comes from the seed (core.chance.SCHEMES): "v1", the seed alone (games
    # stored before players could add their own words, and shared deals); "v2", the seed with
    # every player's contribution, in seat order (docs/fairness.md).
    chance_scheme: Mapped[str] = mapped_column(String(8), default="v1")
    # [{"seat": ..., "words": ..., "source": "words" | "message-id"}], in seat order.
    contributions: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # Sides by lot (PLAYERS): under "v2" the seats are dealt once every player has joined, by
    # the key their contributions made; the invitations name no side until then.
    sides_by_lot: Mapped[bool] = mapped_column(default=False)
    challenge_id: Mapped[int | None] = mapped_column(
        ForeignKey("challenges.id"), nullable=True, index=True
    )
    result: Mapped[str] = mapped_column(Text, default="")
    # The rules' result as a sentence (core.said.stored's form), which pages write anew in each
    # reader's language; NULL where the service ended the game, or before there was a form.
    result_said: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    score: Mapped[list[Any]] = mapped_column(JSON, default=list)
    thread_id: Mapped[str] = mapped_column(String(255), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_activity: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    idle_warned_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # Deadlines (games whose turns are adjudicated at a deadline rather than on receipt).
    # schedule: "48h" or "Mon, Thu 20:00 Europe/Madrid"; empty for games without deadlines.
    schedule: Mapped[str] = mapped_column(String(120), default="")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    # LANGUAGE: what a player who has chosen none reads this game's mail in; "": English.
    language: Mapped[str] = mapped_column(String(16), default="")
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    # Raised whenever the deadline is set or moves: the calendar entry's SEQUENCE, reminders.
    deadline_sequence: Mapped[int] = mapped_column(Integer, default=0)
    grace_minutes: Mapped[int] = mapped_column(Integer, default=0)
    # Adjudicate as soon as every seat has orders on file, without waiting for the deadline.
    early: Mapped[bool] = mapped_column(default=True)
    paused: Mapped[bool] = mapped_column(default=False)
    # A worker's lease on the due turn; an expired lease (a dead worker) is claimed again.
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # When the tick last queued adjudicate for the due turn: not again until that task is presumed
    # lost (services.turns.ticks).
    queued_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # When the game master asked for the turn to be processed at once (PROCESS NOW), until it is:
    # recorded so that the tick queues it again whatever became of the task.
    forced_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # When the game master last rolled a turn back: the sets on file from before it stand at the
    # deadline, but only a set sent after it makes the replayed turn early
    # (services.record.on_file).
    rolled_back_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The game master, who made the game and may move deadlines, pause, force or end it.
    gm_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # Remind seats without orders this many hours before a deadline (0: never).
    reminder_hours: Mapped[int] = mapped_column(Integer, default=12)
    # Early adjudication waits this long after the last orders arrive, so a player may still
    # change theirs after seeing that everyone has submitted.
    early_delay_minutes: Mapped[int] = mapped_column(Integer, default=0)
    # Orders are only taken from mail whose DKIM signature verifies for the sender's domain.
    require_dkim: Mapped[bool] = mapped_column(default=False)
    # GMREPORTS: "turn", the game master is mailed each turn's result; "none", not.
    gm_reports: Mapped[str] = mapped_column(String(8), default="turn", server_default="turn")

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.id")
    challenge: Mapped[Challenge | None] = relationship()
    gm: Mapped[Player | None] = relationship()


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    key_version: Mapped[int] = mapped_column(Integer, default=1)
    # When the player accepted the seat; a game starts once every seat is taken.
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The deadline (by its sequence) this seat was last reminded of: once per deadline.
    reminded_sequence: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Turn(Base):
    """One resolved step of a game, never changed once written. Turn 0 is the opening position."""

    __tablename__ = "turns"
    # One live turn per number; a rolled-back turn stays on record beside its replacement.
    __table_args__ = (
        Index(
            "uq_turns_live_number",
            "game_id",
            "number",
            unique=True,
            sqlite_where=text("rolled_back_at IS NULL"),
            postgresql_where=text("rolled_back_at IS NULL"),
        ),
    )
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    outcomes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    events: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # Why this turn was processed: "start", "orders", "deadline", "forced".
    reason: Mapped[str] = mapped_column(String(16))
    public_png: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # Set when the game master rolls this turn back; the next turn takes its number again.
    rolled_back_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    rollback_note: Mapped[str] = mapped_column(Text, default="")


class GameEvent(Base):
    """One change in a game's life that players are told of (services/record/transitions.py):
    paused, resumed, a deadline moved, a turn rolled back, a player replaced or resigned, the game
    ended. A turn played is its own row in ``turns``. The notices a change sends are keyed by its
    id, so a change made twice (a second rollback of the same turn) is told twice, and never once
    more when the same mail is processed again."""

    __tablename__ = "game_events"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    # A kind of services.record.transitions.TABLE: "paused", "rolled-back", ...
    kind: Mapped[str] = mapped_column(String(32))
    # The turn it concerns (rolled back; the turn being ordered for the others).
    turn: Mapped[int] = mapped_column(Integer, default=0)
    # Who made it: "gm", a seat, or "service" (the clock).
    by: Mapped[str] = mapped_column(String(32), default="service")
    # The reason given, told to the players with it.
    note: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class InboundMessage(Base):
    """A received message exactly as it arrived, stored before it is read."""

    __tablename__ = "inbound_messages"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    # "mid:<Message-ID>" when the message has one, else "sha256:<hex of the bytes>".
    dedupe_key: Mapped[str] = mapped_column(String(400), unique=True)
    source: Mapped[str] = mapped_column(String(16))
    envelope_from: Mapped[str] = mapped_column(String(320), default="")
    envelope_to: Mapped[list[Any]] = mapped_column(JSON, default=list)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    status: Mapped[InboundStatus] = mapped_column(
        Status(InboundStatus), default=InboundStatus.RECEIVED, index=True
    )
    reason: Mapped[str] = mapped_column(Text, default="")
    sender: Mapped[str] = mapped_column(String(320), default="", index=True)
    subject: Mapped[str] = mapped_column(Text, default="")
    # DKIM verdict when read: "pass d=<domain>", "fail: <why>", "none" (unsigned); "" not checked.
    dkim: Mapped[str] = mapped_column(String(200), default="")
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # Mail to a seat's (or game master's) own reply address, with a token that checks out, from
    # the address holding it: the only mail no sender limit applies to (services.access.safety).
    authenticated: Mapped[bool] = mapped_column(default=False)
    # Indexed for the service-wide limit, which counts the last hour's mail.
    received_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    # When the tick last queued process_inbound again (None: only when stored, at received_at).
    queued_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Submission(Base):
    """An order set as a player sent it, with the receipt of every line. All are kept."""

    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[str] = mapped_column(String(32))
    turn_number: Mapped[int] = mapped_column(Integer)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_messages.id"), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    report: Mapped[list[Any]] = mapped_column(JSON)
    orders: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    accepted: Mapped[bool] = mapped_column(default=False)
    # The player asked to WAIT: no early adjudication of this turn, only the deadline.
    wait: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class OutboxMessage(Base):
    """A mail to send, written in the same transaction as the change it reports."""

    __tablename__ = "outbox"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    # What this mail is, so the same report is never queued twice, e.g. "game:12:turn:3:report".
    key: Mapped[str] = mapped_column(String(200), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True, index=True)
    kind: Mapped[str] = mapped_column(String(32))
    to_address: Mapped[str] = mapped_column(String(320), index=True)
    subject: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[OutboxStatus] = mapped_column(
        Status(OutboxStatus), default=OutboxStatus.PENDING, index=True
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # When the tick last queued send_outbox for the mail: not again until that task has run (a
    # later claim) or is presumed lost (services.turns.ticks).
    queued_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # What the returned delivery status notification said, when it bounced.
    bounce: Mapped[str] = mapped_column(Text, default="")


class WebhookToken(Base):
    """A provider's one-time webhook token already accepted, so a captured request cannot be
    posted again (Mailgun signs only timestamp+token, not the message it carries)."""

    __tablename__ = "webhook_tokens"
    __table_args__ = (UniqueConstraint("provider", "token"),)
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    provider: Mapped[str] = mapped_column(String(16))
    token: Mapped[str] = mapped_column(String(200))
    # Tokens older than twice the accepted age are pruned: their timestamps are refused anyway.
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)


class PanelLink(Base):
    """A game-master panel login link that was mailed out, and the web session it opened.

    The row is the server's side of the link: it makes the link single-use, lets a logout end
    the session for good (the session cookie alone could be replayed), and holds the counters
    the rate limits read, so they survive restarts and hold across web processes."""

    __tablename__ = "panel_links"
    id: Mapped[int] = mapped_column(ID, primary_key=True)
    # The random part the signed link carries; the link names its row by it.
    nonce: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # Links issued per game in the last hour are counted from this.
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    # When the link was opened (it works once), and when its session was logged out.
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # Form posts of the session in the minute starting at window_start.
    window_start: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    posts: Mapped[int] = mapped_column(Integer, default=0)
