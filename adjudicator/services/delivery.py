"""Sending queued mail: to the local Maildir by default, or over SMTP when configured."""

from __future__ import annotations

import logging
import os
import re
import smtplib
import socket
import ssl
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import select, update

from adjudicator.db import changed
from adjudicator.mail import bounces
from adjudicator.models import OutboxMessage, utcnow
from adjudicator.services.runtime import Runtime

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
_ENHANCED_STATUS = re.compile(r"[245]\.[0-9]{1,3}\.[0-9]{1,3}\b")


def deliver(runtime: Runtime, outbox_id: int, now: datetime | None = None) -> str:
    """Send one queued mail if nobody else has; returns what happened, for logs and tests."""
    with runtime.db.session() as session:
        # After a failed try, a copy of the task that an earlier tick queued does not try again
        # before the backoff is over.
        failed = session.execute(
            select(OutboxMessage.attempts, OutboxMessage.claimed_at).where(
                OutboxMessage.id == outbox_id,
                OutboxMessage.status == "pending",
                OutboxMessage.last_error != "",
            )
        ).one_or_none()
        if failed is not None and next_attempt_at(runtime, *failed) > (now or utcnow()):
            return "not due"
        # Compare-and-set claim: a duplicate task, or a second worker, finds nothing to do.
        claimed = changed(
            session,
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id, OutboxMessage.status == "pending")
            .values(status="sending", claimed_at=utcnow(), attempts=OutboxMessage.attempts + 1),
        )
        if not claimed:
            return "not pending"
        record = session.get_one(OutboxMessage, outbox_id)
        raw, to_address, created_at, attempts = (
            record.raw,
            record.to_address,
            record.created_at,
            record.attempts,
        )
        ids = {"outbox_id": outbox_id, "game_id": record.game_id}
    config = runtime.config
    # Each mail's own return path (VERP): a bounce then names the outbox row it is about.
    sender = bounces.return_path(config.secret_key, outbox_id, config.mail_domain)
    try:
        if config.smtp_url:
            send_smtp(config.smtp_url, sender, to_address, raw)
        else:
            stamp = int(created_at.timestamp())
            write_maildir(config.outbox_dir, outbox_id, stamp, with_return_path(raw, sender))
    except Exception as error:  # any failure: keep the mail and try again later
        refused = permanent_refusal(error)
        if refused is not None:
            bounced = {**ids, "status": "bounced"}
            log.warning(
                "outbox %s to %s bounced at the relay: %s",
                outbox_id,
                to_address,
                refused,
                extra=bounced,
            )
            with runtime.db.session() as session:
                session.execute(
                    update(OutboxMessage)
                    .where(OutboxMessage.id == outbox_id, OutboxMessage.status == "sending")
                    .values(status="bounced", bounce=refused, last_error=str(error)[:2000])
                )
            return "bounced"
        status = "failed" if attempts >= MAX_ATTEMPTS else "pending"
        log.warning(
            "delivery of outbox %s failed (%s): %s",
            outbox_id,
            status,
            error,
            extra={**ids, "status": status},
        )
        with runtime.db.session() as session:
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id == outbox_id, OutboxMessage.status == "sending")
                .values(status=status, last_error=str(error)[:2000])
            )
        return status
    with runtime.db.session() as session:
        # Only from "sending": a fast relay's bounce may already have marked the row "bounced".
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id, OutboxMessage.status == "sending")
            .values(status="sent", sent_at=utcnow(), last_error="")
        )
    log.info("outbox %s sent", outbox_id, extra={**ids, "status": "sent"})
    return "sent"


def permanent_refusal(error: Exception) -> str | None:
    """The relay's 5xx for this mail (to RCPT or to the data) as a one-line bounce, else None.

    A mail the relay refuses for good will never go through, and retrying it for hours only
    delays the news; a 4xx, a refused connection or a refused sender is ours to retry or fix.
    """
    replies: list[tuple[int, bytes | str]]
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        replies = list(error.recipients.values())
    elif isinstance(error, smtplib.SMTPDataError):
        replies = [(error.smtp_code, error.smtp_error)]
    else:
        return None
    if not replies or not all(500 <= code < 600 for code, _ in replies):
        return None
    code, text = replies[0]
    said = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    words = " ".join(said.split())
    enhanced = _ENHANCED_STATUS.match(words)
    line = f"{enhanced.group(0) if enhanced else '5.0.0'} {code} {words}"
    return line[: bounces.SUMMARY_LIMIT]


def with_return_path(raw: bytes, sender: str) -> bytes:
    """The message as the final MTA would file it: the envelope sender as its Return-Path."""
    newline = b"\r\n" if raw.split(b"\n", 1)[0].endswith(b"\r") else b"\n"
    return b"Return-Path: <" + sender.encode("ascii") + b">" + newline + raw


def write_maildir(folder: Path, outbox_id: int, stamp: int, raw: bytes) -> Path:
    """Deliver into a Maildir under a name fixed by the outbox id, so a retry never duplicates."""
    for sub in ("tmp", "new", "cur"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    name = f"{stamp}.pbem{outbox_id}.{socket.gethostname().replace('/', '_')}"
    target = folder / "new" / name
    if target.exists() or any((folder / "cur").glob(name + ":*")):
        return target
    temporary = folder / "tmp" / name
    with open(temporary, "wb") as handle:
        handle.write(raw)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, target)
    return target


def send_smtp(url: str, sender: str, recipient: str, raw: bytes) -> None:
    parts = urlsplit(url)
    options = parse_qs(parts.query)
    host = parts.hostname or "127.0.0.1"
    if parts.scheme == "smtps":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, parts.port or 465, timeout=30)
    else:
        client = smtplib.SMTP(host, parts.port or 25, timeout=30)
    with client:
        if options.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            client.starttls(context=ssl.create_default_context())
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.sendmail(sender, [recipient], raw)


def pending_ids(
    runtime: Runtime,
    stale_after: timedelta = timedelta(minutes=10),
    now: datetime | None = None,
) -> list[int]:
    """Outbox rows that may be sent now: pending ones, and claims a dead worker left behind. A
    row that failed is due again only once its retry is (``next_attempt_at``). Which of them
    need a task queued again is the tick's to say (``ticks.tick``)."""
    now = now or utcnow()
    with runtime.db.session() as session:
        session.execute(
            update(OutboxMessage)
            .where(
                OutboxMessage.status == "sending",
                OutboxMessage.claimed_at < now - stale_after,
            )
            .values(status="pending")
        )
        query = select(OutboxMessage.id, OutboxMessage.attempts, OutboxMessage.claimed_at).where(
            OutboxMessage.status == "pending"
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
        return datetime.min.replace(tzinfo=UTC)
    return claimed_at + retry_delay(runtime, attempts)
