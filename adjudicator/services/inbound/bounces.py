"""Mail that comes back to an outbound mail's return path: match it to its outbox row, never answer.

A failure report marks the row "bounced" with what the remote server said; a delay report is noted
on the row but leaves its status alone, since the mail may still arrive. Whatever reaches a
bounces+ address (a forged one, an auto-reply sent to the return path) is ignored: answering mail
from MTAs and robots is how mail loops start.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.orm import Session

from adjudicator.core.refusal import Refusal
from adjudicator.db import changed
from adjudicator.mail import bounces
from adjudicator.models import InboundMessage, OutboxMessage
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import InboundStatus, OutboxStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Handled:
    """How the inbound message ends: always "ignored", with a reason that names the outbox row."""

    status: InboundStatus
    reason: str
    game_id: int | None = None


def bounce_recipient(recipients: Sequence[str], domain: str) -> str | None:
    """The first bounces+ address among the recipients, if the message went to one."""
    return next((a for a in recipients if bounces.is_bounce_address(a, domain)), None)


def returned_mail(
    session: Session, runtime: Runtime, record: InboundMessage, recipients: Sequence[str]
) -> Handled | None:
    """Deal with mail to a return path; None when the message went to no bounces+ address."""
    config = runtime.config
    address = bounce_recipient(recipients, config.mail_domain)
    if address is None:
        return None
    found = bounces.outbox_id(address, config.mail_domain, config.secret_key, config.previous_keys)
    if isinstance(found, Refusal):
        log.warning("inbound %s to %s ignored: %s", record.id, address, found.reason)
        return Handled(InboundStatus.IGNORED, f"bounce address: {found.reason}; never answered")
    outbox = session.get(OutboxMessage, found)
    if outbox is None:
        return Handled(InboundStatus.IGNORED, f"bounce for outbox {found}, which does not exist")
    report = bounces.read_report(record.raw)
    if isinstance(report, Refusal):
        # Often an auto-reply that went, as RFC 3834 says it should, to the return path.
        return Handled(
            InboundStatus.IGNORED, f"mail to the return path of outbox {found}: {report.reason}"
        )
    failed, delayed = report.first("failed"), report.first("delayed")
    if failed is not None:
        line = bounces.summary(failed)
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == found)
            .values(status=OutboxStatus.BOUNCED, bounce=line)
        )
        ids = {"outbox_id": found, "game_id": outbox.game_id, "inbound_id": record.id}
        log.warning("outbox %s to %s bounced: %s", found, outbox.to_address, line, extra=ids)
        return Handled(InboundStatus.IGNORED, f"bounce for outbox {found}: {line}", outbox.game_id)
    if delayed is not None:
        line = bounces.summary(delayed)
        # A late delay report must not overwrite the failure that already came back.
        noted = changed(
            session,
            update(OutboxMessage)
            .where(OutboxMessage.id == found, OutboxMessage.status != OutboxStatus.BOUNCED)
            .values(bounce=f"delayed: {line}"),
        )
        log.info("outbox %s to %s delayed: %s", found, outbox.to_address, line)
        kept = "" if noted else " (already bounced; kept)"
        return Handled(
            InboundStatus.IGNORED, f"delay for outbox {found}: {line}{kept}", outbox.game_id
        )
    actions = ", ".join(sorted({r.action for r in report.recipients}))
    return Handled(
        InboundStatus.IGNORED, f"delivery report for outbox {found}: {actions}", outbox.game_id
    )
