"""Keeping the service from being flooded, and from flooding others with replies.

The From line of a mail proves nothing: anyone can write anyone's address there. So the limits
below fall only on mail that is not *authenticated*: mail to a seat's (or game master's) reply
address, whose token checks out, from the address holding that seat (and DKIM-signed where the
game requires it). The token is a secret only that player was mailed; mail carrying it from them
is their play, and no amount of mail that merely claims their address may hold it back. Such
mail has no limit at all: live play where each answer is one mail (a game of one decision at a
time) sends many an hour, every reply goes back to the seat's own player, and one seat's mail
only moves its game.

Everything else (new@, help@, wrong sender, bad token, ...) is answered to a From line that may
be forged, so it is what is limited, decided from stored facts (the inbound rows and the outbox)
so the rules hold across workers and restarts:

* Per address (``sender_limit_per_hour``, 0: off). Once that many unauthenticated mails from one
  address were read within the hour up to a message's arrival, the message is kept but marked
  "ignored", neither read nor answered. A "rate-limit" notice goes out only when none went to
  that address in the last hour.
* In total (``unauthenticated_replies_per_hour``, 0: off). Once that many unauthenticated mails
  from anyone were read within the hour, further ones are kept, neither read nor answered, and
  no notice goes out: a flood from many forged senders gets that many replies an hour at most.
* Unknown senders are answered at most once per ``unknown_sender_reply_hours`` (0: off).
  Problem replies (bad token, wrong sender, bad NEW, rate-limit notices, ...) to an address with
  no Player row are only queued when no problem reply went to that address within that many
  hours; otherwise the reply is suppressed and the message's reason says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudicator.mail.addresses import SeatRoute
from adjudicator.models import Game, InboundMessage, OutboxMessage, Player, Seat
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import InboundStatus

# The problem kind (and outbox kind) of the notice sent when a sender crosses the limit.
RATE_LIMIT = "rate-limit"
# Outbox kinds that count as problem replies for the unknown-sender rule.
PROBLEM_KINDS = ("problem", RATE_LIMIT)
HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Limited:
    """The mail is over a limit: why (for the inbound row), and whether to tell the sender now."""

    reason: str
    notify: bool


# Rows of unauthenticated mail that were read (and answered, or refused with an answer): the
# ones counted. Mail already held back ("ignored") or not yet read does not count again.
READ = (InboundStatus.DONE, InboundStatus.REJECTED)


def authenticated(session: Session, route: SeatRoute, sender: str, dkim_verdict: str) -> bool:
    """True when ``sender`` holds the seat (or is the game master) ``route`` leads to, by the
    current key version, and the mail is DKIM-signed where the game requires that."""
    # Columns, not objects: the seat's rows are read again under the game's lock later, and
    # objects loaded now would be handed back unrefreshed. No autoflush, for the reason given
    # in rate_limit.
    with session.no_autoflush:
        if route.seat == "gm":
            found = session.execute(
                select(Player.address, Game.require_dkim)
                .join(Game, Game.gm_player_id == Player.id)
                .where(Game.id == route.game_id)
            ).first()
        else:
            found = session.execute(
                select(Player.address, Game.require_dkim)
                .select_from(Seat)
                .join(Player, Player.id == Seat.player_id)
                .join(Game, Game.id == Seat.game_id)
                .where(
                    Seat.game_id == route.game_id,
                    Seat.seat == route.seat,
                    Seat.key_version == route.version,
                )
            ).first()
    if found is None:
        return False
    address, require_dkim = found
    return bool(address == sender and (not require_dkim or dkim_verdict.startswith("pass")))


def rate_limit(
    session: Session, runtime: Runtime, record: InboundMessage, now: datetime
) -> Limited | None:
    """None when ``record``, unauthenticated mail whose sender is already read, may be read.

    Counted over the hour before the message arrived rather than before now, so a backlog
    processed late is judged by when it came in."""
    config = runtime.config
    since, until = record.received_at - HOUR, record.received_at
    # No autoflush: this row's own changes must reach the database in one UPDATE, together
    # with the game lock's. On PostgreSQL a second UPDATE of a row this transaction already
    # updated re-checks its foreign key, share-locking the game row, and two workers holding
    # that share lock both wait to lock the game for update: a deadlock.
    with session.no_autoflush:
        total = config.unauthenticated_replies_per_hour
        if total > 0:
            read = _read_since(session, since, until, record.id)
            if read >= total:
                reason = (
                    f"rate limit: {read} unauthenticated mails read service-wide within an "
                    f"hour (limit {total}); stored, not read or answered"
                )
                return Limited(reason, notify=False)
        limit = config.sender_limit_per_hour
        if limit <= 0 or not record.sender:
            return None
        read = _read_since(session, since, until, record.id, record.sender)
    if read < limit:
        return None
    reason = (
        f"rate limit: {read} unauthenticated mails from {record.sender} read within an hour "
        f"(limit {limit}); stored, not read or answered"
    )
    notify = not _sent_to(session, record.sender, (RATE_LIMIT,), now - HOUR)
    return Limited(reason, notify)


def _read_since(
    session: Session, since: datetime, until: datetime, own: int, sender: str | None = None
) -> int:
    query = select(func.count(InboundMessage.id)).where(
        InboundMessage.id != own,
        InboundMessage.authenticated.is_(False),
        InboundMessage.status.in_(READ),
        InboundMessage.received_at > since,
        InboundMessage.received_at <= until,
    )
    if sender is not None:
        query = query.where(InboundMessage.sender == sender)
    return session.scalar(query) or 0


def suppress_problem_reply(
    session: Session, runtime: Runtime, address: str, now: datetime
) -> str | None:
    """Why a problem reply to ``address`` must not be sent now, or None when it may be."""
    hours = runtime.config.unknown_sender_reply_hours
    if hours <= 0:
        return None
    if session.scalar(select(Player.id).where(Player.address == address)) is not None:
        return None
    if not _sent_to(session, address, PROBLEM_KINDS, now - timedelta(hours=hours)):
        return None
    return f"reply suppressed: {address} is no player and was already answered within {hours}h"


def note_suppressed(session: Session, inbound_id: int, why: str) -> None:
    """Remember, for this transaction, that a reply to ``inbound_id`` was suppressed.

    The reply is decided deep inside the step that also picks the message's reason; the note
    lets the pipeline add it to that reason without every step passing it back."""
    session.info.setdefault("pbem_suppressed", {})[inbound_id] = why


def take_suppressed(session: Session, inbound_id: int) -> str | None:
    """The note left by ``note_suppressed`` for this message, once."""
    notes: dict[int, str] = session.info.get("pbem_suppressed", {})
    return notes.pop(inbound_id, None)


def _sent_to(session: Session, address: str, kinds: tuple[str, ...], since: datetime) -> bool:
    # Served by the index on outbox.to_address: one address has few rows.
    found = session.scalar(
        select(OutboxMessage.id)
        .where(
            OutboxMessage.to_address == address,
            OutboxMessage.kind.in_(kinds),
            OutboxMessage.created_at >= since,
        )
        .limit(1)
    )
    return found is not None
