"""Sending queued mail: to the local Maildir by default, or over SMTP when configured."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudicator.db import changed
from adjudicator.mail import bounces
from adjudicator.models import OutboxMessage, utcnow
from adjudicator.services.outbound import relay, retries
from adjudicator.services.record import steps
from adjudicator.services.record.runtime import Runtime, Written
from adjudicator.statuses import OutboxStatus

log = logging.getLogger(__name__)

# The earliest moment a datetime can hold: a mail never tried is due from then on.


def deliver(runtime: Runtime, outbox_id: int, now: datetime | None = None) -> str:
    """Send one queued mail if nobody else has; returns what happened, for logs and tests: "not
    due", "not pending", "bounced", "failed", "pending" (to be retried) or "sent"."""
    return steps.run(STEPS, _Sending(runtime, outbox_id, now), _recorded)


@dataclass
class _Sending:
    """One mail on its way out: what the claim read of it, and how its sending went."""

    runtime: Runtime
    outbox_id: int
    now: datetime | None
    raw: bytes = b""
    to_address: str = ""
    created_at: datetime = retries.EARLIEST  # until the claim reads it
    attempts: int = 0
    ids: dict[str, int | None] = field(default_factory=dict)
    sender: str = ""
    error: Exception | None = None
    recorded: bool = False  # recorded sent as soon as the relay took it (``_relay_all``)


def _claimed(runtime: Runtime, row: Any, now: datetime | None) -> _Sending:
    """A claimed mail's sending, from what has its columns: the row, the claim's RETURNING, or
    a mail written claimed for the task that sends it (``Written``)."""
    return _Sending(
        runtime,
        row.id,
        now,
        raw=row.raw,
        to_address=row.to_address,
        created_at=row.created_at,
        attempts=row.attempts,
        ids={"outbox_id": row.id, "game_id": row.game_id},
    )


def _claim(sending: _Sending) -> str | None:
    """Claim the mail for this worker, unless its retry is not due yet or it is not pending."""
    outbox_id = sending.outbox_id
    with sending.runtime.db.session() as session:
        # After a failed try, a copy of the task that an earlier tick queued does not try again
        # before the backoff is over.
        failed = session.execute(
            select(OutboxMessage.attempts, OutboxMessage.claimed_at).where(
                OutboxMessage.id == outbox_id,
                OutboxMessage.status == OutboxStatus.PENDING,
                OutboxMessage.last_error != "",
            )
        ).one_or_none()
        if failed is not None and retries.next_attempt_at(sending.runtime, *failed) > (
            sending.now or utcnow()
        ):
            return "not due"
        # Compare-and-set claim: a duplicate task, or a second worker, finds nothing to do.
        claimed = changed(
            session,
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id, OutboxMessage.status == OutboxStatus.PENDING)
            .values(
                status=OutboxStatus.SENDING,
                claimed_at=utcnow(),
                attempts=OutboxMessage.attempts + 1,
            ),
        )
        if not claimed:
            return "not pending"
        record = session.get_one(OutboxMessage, outbox_id)
        sending.raw, sending.to_address = record.raw, record.to_address
        sending.created_at, sending.attempts = record.created_at, record.attempts
        sending.ids = {"outbox_id": outbox_id, "game_id": record.game_id}
    return None


def _return_path(sending: _Sending) -> None:
    """Each mail's own return path (VERP): a bounce then names the outbox row it is about."""
    config = sending.runtime.config
    sending.sender = bounces.return_path(config.secret_key, sending.outbox_id, config.mail_domain)


def _send(sending: _Sending) -> None:
    """Hand the mail to the relay, or file it in the Maildir; a failure is kept for the record."""
    config = sending.runtime.config
    try:
        if config.smtp_url:
            relay.send_smtp(config.smtp_url, sending.sender, sending.to_address, sending.raw)
        else:
            stamp = int(sending.created_at.timestamp())
            filed = relay.with_return_path(sending.raw, sending.sender)
            relay.write_maildir(config.outbox_dir, sending.outbox_id, stamp, filed)
    except Exception as error:  # any failure: keep the mail and try again later
        sending.error = error


def _outcome(sending: _Sending) -> tuple[str, dict[str, object]]:
    """How the sending went, as the row's new status and values, logged: a mail the relay
    refused for good is bounced, never tried again; one that failed otherwise is tried again
    later, up to MAX_ATTEMPTS tries; one that went out is sent."""
    error = sending.error
    if error is None:
        log.info(
            "outbox %s sent", sending.outbox_id, extra={**sending.ids, "status": OutboxStatus.SENT}
        )
        return OutboxStatus.SENT, _sent_values()
    refused = relay.permanent_refusal(error)
    if refused is not None:
        log.warning(
            "outbox %s to %s bounced at the relay: %s",
            sending.outbox_id,
            sending.to_address,
            refused,
            extra={**sending.ids, "status": OutboxStatus.BOUNCED},
        )
        bounced: dict[str, object] = {
            "status": OutboxStatus.BOUNCED,
            "bounce": refused,
            "last_error": str(error)[:2000],
        }
        return OutboxStatus.BOUNCED, bounced
    status = (
        OutboxStatus.FAILED if sending.attempts >= retries.MAX_ATTEMPTS else OutboxStatus.PENDING
    )
    log.warning(
        "delivery of outbox %s failed (%s): %s",
        sending.outbox_id,
        status,
        error,
        extra={**sending.ids, "status": status},
    )
    return status, {"status": status, "last_error": str(error)[:2000]}


def _recorded(sending: _Sending) -> str:
    """Write how the sending went (``_outcome``), and say it."""
    status, values = _outcome(sending)
    with sending.runtime.db.session() as session:
        _record(session, sending.outbox_id, values)
    return status


def _record(session: Session, outbox_id: int, values: dict[str, object]) -> None:
    """Only from "sending": a fast relay's bounce may already have marked the row "bounced"."""
    session.execute(
        update(OutboxMessage)
        .where(OutboxMessage.id == outbox_id, OutboxMessage.status == OutboxStatus.SENDING)
        .values(**values)
    )


# The steps of sending one mail, in order (``deliver`` runs them, and ``_recorded`` when none
# has answered). The claim is a compare-and-set, so each mail is sent by one worker at most once.
STEPS: tuple[Callable[[_Sending], str | None], ...] = (_claim, _return_path, _send)


def deliver_many(runtime: Runtime, outbox_ids: list[int], now: datetime | None = None) -> list[str]:
    """Send several queued mails (a turn's reports) as ``deliver`` sends one, over one connection
    to the relay, or into the Maildir with one flush to disk for them all: one transaction to
    claim them and one to record how it went. What happened to each, in the order given."""
    outcome: dict[int, str] = {}
    sendings = _claim_many(runtime, list(dict.fromkeys(outbox_ids)), now, outcome)
    for sending in sendings:
        _return_path(sending)
    if runtime.config.smtp_url:
        _relay_all(runtime, sendings)
    else:
        _file_all(runtime.config.outbox_dir, sendings)
    if sendings:
        with runtime.db.session() as session:
            for sending in sendings:
                status, values = _outcome(sending)
                if not sending.recorded:
                    _record(session, sending.outbox_id, values)
                outcome[sending.outbox_id] = status
    return [outcome[outbox_id] for outbox_id in outbox_ids]


def deliver_written(runtime: Runtime, written: list[Written]) -> list[str]:
    """Send the mails a task's transaction has just written, from that task, right after its
    commit (``Runtime.sent_here``): no send_outbox task is queued for them, and nothing is
    claimed nor read back, since each was written claimed for this task with what sending it
    needs. Recorded as ``deliver`` records one (over SMTP, each mail's record as soon as the
    relay took it, ``_relay_all``); one whose sending failed is pending again, and the tick
    queues its retry when it is due. What happened to each, in the order given."""
    if not written:
        return []
    outcome: dict[int, str] = {}
    sendings = [_claimed(runtime, mail, None) for mail in written]
    for sending in sendings:
        _return_path(sending)
    if runtime.config.smtp_url:
        _relay_all(runtime, sendings)
    elif len(sendings) == 1:
        _send(sendings[0])  # as ``deliver`` sends one: a Maildir file takes one fsync
    else:
        _file_all(runtime.config.outbox_dir, sendings)
    _record_all(runtime, sendings, outcome)
    return [outcome[mail.id] for mail in written]


def send_written(runtime: Runtime, written: list[Written], what: str, ids: dict[str, int]) -> None:
    """Send the mails a task has just committed (``deliver_written``), for the task that wrote
    them (``what``, ``ids``: its log line). Its work is done whatever happens here: a mail
    whose sending or record the database or the relay failed stays claimed until its claim
    is stale, and the tick's sweep queues it then (``retries.pending_ids``)."""
    if not written:
        return
    try:
        deliver_written(runtime, written)
    except Exception:
        log.exception("%s: its mails could not be sent at once; the tick will", what, extra=ids)


def _record_all(runtime: Runtime, sendings: list[_Sending], outcome: dict[int, str]) -> None:
    """Record how each sending went (``_outcome``): the mails that went out in one statement,
    each other one in its own, every statement committed by itself."""
    if not sendings:
        return
    sent: list[int] = []
    others: list[tuple[int, dict[str, object]]] = []
    for sending in sendings:
        status, values = _outcome(sending)
        outcome[sending.outbox_id] = status
        if status != OutboxStatus.SENT:
            others.append((sending.outbox_id, values))
        elif not sending.recorded:
            sent.append(sending.outbox_id)
    if not sent and not others:
        return
    with runtime.db.autocommit() as session:
        if sent:
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(sent), OutboxMessage.status == OutboxStatus.SENDING)
                .values(status=OutboxStatus.SENT, sent_at=utcnow(), last_error="")
                .execution_options(synchronize_session=False)
            )
        for outbox_id, values in others:
            _record(session, outbox_id, values)


def _claim_many(
    runtime: Runtime, outbox_ids: list[int], now: datetime | None, outcome: dict[int, str]
) -> list[_Sending]:
    """Claim the mails that are pending and due, as ``_claim`` does one; the others' outcome
    ("not due", "not pending") is filled in."""
    with runtime.db.session() as session:
        failed = session.execute(
            select(OutboxMessage.id, OutboxMessage.attempts, OutboxMessage.claimed_at).where(
                OutboxMessage.id.in_(outbox_ids),
                OutboxMessage.status == OutboxStatus.PENDING,
                OutboxMessage.last_error != "",
            )
        ).all()
        moment = now or utcnow()
        waiting = {row.id for row in failed if retries.next_attempt_at(runtime, *row[1:]) > moment}
        claimed = session.scalars(
            update(OutboxMessage)
            .where(
                OutboxMessage.id.in_([i for i in outbox_ids if i not in waiting]),
                OutboxMessage.status == OutboxStatus.PENDING,
            )
            .values(
                status=OutboxStatus.SENDING,
                claimed_at=utcnow(),
                attempts=OutboxMessage.attempts + 1,
            )
            .returning(OutboxMessage.id)
            .execution_options(synchronize_session=False)
        ).all()
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.id.in_(claimed)).order_by(OutboxMessage.id)
        ).all()
        sendings = [_claimed(runtime, row, now) for row in rows]
    for outbox_id in outbox_ids:
        outcome[outbox_id] = "not due" if outbox_id in waiting else "not pending"
    return sendings


def _relay_all(runtime: Runtime, sendings: list[_Sending]) -> None:
    """Hand the mails to the relay over one connection (``relay.Relay``), each recorded sent as
    soon as the relay has taken it: a worker that dies halfway leaves "sending" only the mail it
    was handing over, to be sent again after sending_lease_seconds, and not every mail of the
    task the relay had taken already; and the record comes before the connection's QUIT. The
    caller's record of the task writes only the others."""
    connection = relay.Relay(runtime.config.smtp_url)
    try:
        for sending in sendings:
            try:
                connection.send(sending.sender, sending.to_address, sending.raw)
            except Exception as error:  # this mail's failure: kept for the record, go on
                sending.error = error
                continue
            try:
                with runtime.db.autocommit() as session:
                    _record(session, sending.outbox_id, _sent_values())
                sending.recorded = True
            except Exception as error:  # the caller's record of the task tries again
                log.warning("outbox %s sent, not yet recorded: %s", sending.outbox_id, error)
    finally:
        connection.close()


def _sent_values() -> dict[str, object]:
    """A sent mail's row, as its record writes it."""
    return {"status": OutboxStatus.SENT, "sent_at": utcnow(), "last_error": ""}


def _file_all(folder: Path, sendings: list[_Sending]) -> None:
    """File the mails in the Maildir, all flushed to disk at once (``relay.Folder``)."""
    maildir = relay.Folder(folder)
    staged = []
    for sending in sendings:
        try:
            filed = relay.with_return_path(sending.raw, sending.sender)
            maildir.stage(sending.outbox_id, int(sending.created_at.timestamp()), filed)
            staged.append(sending)
        except Exception as error:
            sending.error = error
    try:
        maildir.commit()
    except Exception as error:  # not on disk for sure: every staged mail is tried again
        for sending in staged:
            sending.error = error
