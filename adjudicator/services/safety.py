"""Keeping the service from being flooded, and from flooding others with replies.

Two rules, both decided from stored facts (the inbound rows and the outbox), so they hold across
workers and restarts:

* Rate limit per sender (``sender_limit_per_hour``, 0: off). A message whose sender has more
  than that many messages stored in the hour up to its arrival, itself included, is kept but
  marked "ignored" and not processed. The sender is told once: a "rate-limit" notice goes out
  only when none went to that address in the last hour, so a flood gets at most one reply an
  hour, and automatic mail (bounces, auto-replies) never gets one.
* Unknown senders are answered at most once per ``unknown_sender_reply_hours`` (0: off).
  Problem replies (unknown address, bad token, wrong sender, bad NEW, rate-limit notices) to an
  address with no Player row are only queued when no problem reply went to that address within
  that many hours; otherwise the reply is suppressed and the message's reason says so. Forged
  From lines thus cannot turn the service into a source of backscatter. Known players get every
  reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudicator.models import InboundMessage, OutboxMessage, Player
from adjudicator.services.runtime import Runtime

# The problem kind (and outbox kind) of the notice sent when a sender crosses the limit.
RATE_LIMIT = "rate-limit"
# Outbox kinds that count as problem replies for the unknown-sender rule.
PROBLEM_KINDS = ("problem", RATE_LIMIT)
HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Limited:
    """The sender is over the limit: why (for the inbound row), and whether to tell them now."""

    reason: str
    notify: bool


def rate_limit(
    session: Session, runtime: Runtime, record: InboundMessage, automatic: bool, now: datetime
) -> Limited | None:
    """None when ``record`` (whose sender is already read) may be processed.

    Counted over the hour before the message arrived rather than before now, so a backlog
    processed late is judged by when it came in."""
    limit = runtime.config.sender_limit_per_hour
    if limit <= 0 or not record.sender:
        return None
    # No autoflush: this row's own changes must reach the database in one UPDATE, together
    # with the game lock's. On PostgreSQL a second UPDATE of a row this transaction already
    # updated re-checks its foreign key, share-locking the game row, and two workers holding
    # that share lock both wait to lock the game for update: a deadlock.
    with session.no_autoflush:
        earlier = session.scalar(
            select(func.count(InboundMessage.id)).where(
                InboundMessage.sender == record.sender,
                InboundMessage.id != record.id,
                InboundMessage.received_at > record.received_at - HOUR,
                InboundMessage.received_at <= record.received_at,
            )
        )
    count = (earlier or 0) + 1
    if count <= limit:
        return None
    reason = (
        f"rate limit: {count} messages from {record.sender} within an hour "
        f"(limit {limit}); stored, not processed"
    )
    notify = not automatic and not _sent_to(session, record.sender, (RATE_LIMIT,), now - HOUR)
    return Limited(reason, notify)


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
