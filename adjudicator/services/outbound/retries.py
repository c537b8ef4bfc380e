"""When a mail that failed is tried again, and which mails may be sent now: one tick after a
failure, then twice as long each time, up to ``MAX_ATTEMPTS`` tries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from adjudicator.models import OutboxMessage, utcnow
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import OutboxStatus

MAX_ATTEMPTS = 8
# A mail never tried is due at once: its next attempt is at the earliest moment there is.
EARLIEST = datetime.min.replace(tzinfo=UTC)


def pending_ids(
    runtime: Runtime,
    stale_after: timedelta | None = None,
    now: datetime | None = None,
) -> list[int]:
    """Outbox rows that may be sent now: pending ones, and claims a dead worker left behind
    (older than ``stale_after``, by default sending_lease_seconds). A row that failed is due
    again only once its retry is (``next_attempt_at``). Which of them need a task queued again
    is the tick's to say (``ticks.tick``)."""
    now = now or utcnow()
    if stale_after is None:
        stale_after = timedelta(seconds=runtime.config.sending_lease_seconds)
    with runtime.db.session() as session:
        session.execute(
            update(OutboxMessage)
            .where(
                OutboxMessage.status == OutboxStatus.SENDING,
                OutboxMessage.claimed_at < now - stale_after,
            )
            .values(status=OutboxStatus.PENDING)
        )
        query = select(OutboxMessage.id, OutboxMessage.attempts, OutboxMessage.claimed_at).where(
            OutboxMessage.status == OutboxStatus.PENDING
        )
        rows = session.execute(query.order_by(OutboxMessage.id)).all()
    return [
        outbox_id
        for outbox_id, attempts, claimed_at in rows
        if next_attempt_at(runtime, attempts, claimed_at) <= now
    ]


def retry_delay(runtime: Runtime, attempts: int) -> timedelta:
    """How long a mail that failed ``attempts`` times waits for its next try: one tick, then
    twice as long each time (30 s, 1 min, 2 min … at the default tick), so that a relay down
    for an hour costs the MAX_ATTEMPTS attempts, and not MAX_ATTEMPTS ticks."""
    return timedelta(seconds=runtime.config.tick_seconds * 2 ** max(0, attempts - 1))


def next_attempt_at(runtime: Runtime, attempts: int, claimed_at: datetime | None) -> datetime:
    """When a pending mail is due to be tried (again): at once if it never was."""
    if attempts <= 0 or claimed_at is None:
        return EARLIEST
    return claimed_at + retry_delay(runtime, attempts)
