"""Processing one stored inbound message, as an ordered table of steps (``STEPS``); each step's
reason ends up as data.

read → a returned mail of ours is matched → automatic mail is dropped → DKIM recorded → routed
by recipient → one sender → authenticated (only mail that is not a seat player's own is limited)
→ new@ starts a game, help@ is answered, and mail to a reply address goes through the table of
steps in ``seat_mail`` (commands and orders → store the submission → resolve, in games that
resolve on receipt → queue the reply).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import case, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import flag_modified, set_committed_value

from adjudicator.core.refusal import Refusal
from adjudicator.mail import addresses, dkim, extract, recipients
from adjudicator.mail.automatic import envelope_reason
from adjudicator.mail.reading import MailIn, Unreadable, read
from adjudicator.models import InboundMessage, utcnow
from adjudicator.services.access import safety
from adjudicator.services.inbound import new_games, replied
from adjudicator.services.inbound.bounces import returned_mail
from adjudicator.services.inbound.seat_mail import seat_mail, seat_reading
from adjudicator.services.outbound import delivery, replies
from adjudicator.services.outbound.mailer import Reply
from adjudicator.services.record import steps
from adjudicator.services.record.runtime import Runtime, Written
from adjudicator.services.record.verdict import Verdict
from adjudicator.statuses import InboundStatus

log = logging.getLogger(__name__)


def process(runtime: Runtime, inbound_id: int) -> Verdict:
    """Process the message once; a second call (a duplicate task) finds it done and does nothing.
    The mails its processing wrote (the reply) are sent from here, once it has committed.

    Raises, leaving the message to be retried, only when the database connection was lost."""
    written: list[Written] = []
    try:
        first = _read_first(runtime, inbound_id)
        if isinstance(first, Verdict):
            return first
        with runtime.db.session() as session:
            written = runtime.sent_here(session)
            verdict = _process_locked(session, runtime, inbound_id, first)
    except Exception as error:
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            # The database dropped the connection, and nothing is wrong with the message: it stays
            # "received" (or "done", if the commit got through) for the tick or the adjudication's
            # catch-up to process again, instead of being parked as failed and its orders lost.
            raise
        # A bug must not lose the message nor loop on it: park it for a person (`pbem mail retry`).
        log.exception("inbound %s failed", inbound_id, extra={"inbound_id": inbound_id})
        with runtime.db.session() as session:
            record = session.get(InboundMessage, inbound_id)
            if record is not None and record.status == InboundStatus.RECEIVED:
                record.status = InboundStatus.FAILED
                record.reason = f"internal error: {type(error).__name__}: {error}"[:2000]
                record.processed_at = utcnow()
        return Verdict(InboundStatus.FAILED, f"internal error: {error}")
    delivery.send_written(runtime, written, f"inbound {inbound_id}", {"inbound_id": inbound_id})
    return verdict


def _process_locked(session: Session, runtime: Runtime, inbound_id: int, first: _Read) -> Verdict:
    """The processing transaction: the message locked, handled and its verdict written."""
    # The raw bytes were read a moment ago (``_read_first``) and never change: not again.
    query = (
        select(InboundMessage)
        .where(InboundMessage.id == inbound_id)
        .options(defer(InboundMessage.raw))
    )
    if runtime.db.is_postgres:
        query = query.with_for_update()
    record = session.scalar(query)
    if record is None:
        return Verdict(InboundStatus.FAILED, f"no inbound message {inbound_id}")
    if record.status != InboundStatus.RECEIVED:
        return Verdict(record.status, "already processed")
    set_committed_value(record, "raw", first.raw)
    _hold(session, record, attempts=record.attempts + 1)
    verdict = handle(session, runtime, record, first)
    suppressed = safety.take_suppressed(session, record.id)
    if suppressed:
        verdict = replace(verdict, reason=f"{verdict.reason}; {suppressed}")
    record.status, record.reason = verdict.status, verdict.reason
    record.game_id = verdict.game_id
    record.processed_at = utcnow()
    _release(session, record)
    ids = {"inbound_id": inbound_id, "game_id": verdict.game_id, "status": verdict.status}
    log.info("inbound %s %s: %s", inbound_id, verdict.status, verdict.reason, extra=ids)
    return verdict


# Where a session keeps the names of the inbound row's columns ``_hold`` set.
_HELD = "pbem_inbound_held"


def _hold(session: Session, record: InboundMessage, **values: object) -> None:
    """Set the message's columns without making the row dirty, so that no flush in the middle
    of its processing writes them: all its changes go in the one UPDATE at the end
    (``_release``), not one UPDATE at the first query and another at the commit. Nothing in the
    transaction reads this row back from the database (the rate limits count the other mails,
    by id): its new values are read off the object."""
    held: set[str] = session.info.setdefault(_HELD, set())
    for name, value in values.items():
        set_committed_value(record, name, value)
        held.add(name)


def _release(session: Session, record: InboundMessage) -> None:
    """The columns ``_hold`` set are written with the rest of the row's changes."""
    for name in sorted(session.info.pop(_HELD, set())):
        flag_modified(record, name)


@dataclass(frozen=True)
class _Read:
    """A message read, and its DKIM verdict, before the processing transaction opens."""

    mail: MailIn | Unreadable
    signature: str | None
    raw: bytes  # as stored: the processing transaction does not read it again


def _read_first(runtime: Runtime, inbound_id: int) -> _Read | Verdict:
    """Read the message and check its DKIM signature outside the processing transaction:
    checking may wait on DNS, and on SQLite that transaction holds the database's write lock.
    A message already processed (a copy of its task) is answered here, from one SELECT, without
    locking or writing anything."""
    # One statement, committed on its own: no BEGIN nor COMMIT round trip.
    with runtime.db.autocommit() as session:
        row = session.execute(
            select(
                InboundMessage.status,
                case((InboundMessage.status == InboundStatus.RECEIVED, InboundMessage.raw)),
            ).where(InboundMessage.id == inbound_id)
        ).one_or_none()
    if row is None:
        return Verdict(InboundStatus.FAILED, f"no inbound message {inbound_id}")
    status, raw = row
    if status != InboundStatus.RECEIVED or raw is None:
        return Verdict(status, "already processed")
    mail = read(raw)
    if isinstance(mail, Unreadable) or mail.automatic:
        return _Read(mail, None, raw)
    return _Read(mail, dkim.verify(raw, mail.sender.rsplit("@", 1)[-1]), raw)


@dataclass
class Inbound:
    """One stored message on its way through ``STEPS``, and what the steps so far found out; a
    field is set by the step named beside it."""

    session: Session
    runtime: Runtime
    record: InboundMessage
    first: _Read | None
    mail: MailIn = field(init=False)  # read
    ours: list[str] = field(init=False)  # addressed_to_us
    target: str = field(init=False)  # to_a_known_address: the first of ours that takes mail
    found: recipients.Accepted = field(init=False)  # to_a_known_address
    route: addresses.SeatRoute | Refusal | None = field(init=False)  # authenticate

    def reply(self) -> Reply:
        return Reply(self.session, self.runtime, self.mail, self.record.id)

    @property
    def local(self) -> str:
        return self.target.split("@", 1)[0]


Step = Callable[[Inbound], Verdict | None]


def read_mail(inbound: Inbound) -> Verdict | None:
    first = inbound.first
    mail = first.mail if first is not None else read(inbound.record.raw)
    if isinstance(mail, Unreadable):
        # Bytes that are no mail are refused for good (no retry reads them better, and none can
        # be answered); only a parser that failed parks the message for a retry after a fix.
        status = InboundStatus.FAILED if mail.bug else InboundStatus.REJECTED
        return Verdict(status, f"unreadable: {mail.reason}")
    inbound.mail = mail
    _hold(inbound.session, inbound.record, sender=mail.sender, subject=mail.subject[:1000])
    return None


def returned(inbound: Inbound) -> Verdict | None:
    # Mail to an outbound mail's return path reports on that mail: matched, never answered,
    # and before any sender limit, so a burst of bounces from one MTA is still recorded.
    record = inbound.record
    to = record.envelope_to or inbound.mail.recipients
    found = returned_mail(inbound.session, inbound.runtime, record, to)
    return None if found is None else Verdict(found.status, found.reason, found.game_id)


def automatic(inbound: Inbound) -> Verdict | None:
    mail, domain = inbound.mail, inbound.runtime.config.mail_domain
    found = mail.automatic or envelope_reason(inbound.record.envelope_from, mail.sender, domain)
    if found:
        return Verdict(InboundStatus.IGNORED, f"automatic mail, never answered ({found})")
    return None


def check_dkim(inbound: Inbound) -> Verdict | None:
    # Recorded for every message a person sent; games with require_dkim act only on "pass".
    record, mail = inbound.record, inbound.mail
    signature = inbound.first.signature if inbound.first is not None else None
    checked = signature or dkim.verify(record.raw, mail.sender.rsplit("@", 1)[-1])
    _hold(inbound.session, record, dkim=checked)
    return None


def addressed_to_us(inbound: Inbound) -> Verdict | None:
    domain = inbound.runtime.config.mail_domain
    to = inbound.record.envelope_to or inbound.mail.recipients
    inbound.ours = [a for a in to if a.lower().endswith("@" + domain)]
    return None if inbound.ours else Verdict(InboundStatus.REJECTED, f"not addressed to {domain}")


def to_a_known_address(inbound: Inbound) -> Verdict | None:
    config = inbound.runtime.config
    for address in inbound.ours:
        found = recipients.check(address, config.mail_domain, config.from_address)
        if isinstance(found, recipients.Accepted):
            inbound.target, inbound.found = address.lower(), found
            return None
    # What the listeners refuse at RCPT, a webhook provider delivers anyway: kept, never
    # answered, since the From line that would receive the answer may be anyone's.
    why = f"unknown address {inbound.ours[0].lower()}: stored, not answered"
    return Verdict(InboundStatus.IGNORED, why)


def one_sender(inbound: Inbound) -> Verdict | None:
    several = inbound.mail.several_senders
    if several is None:
        return None
    # Acting for the first address would let anyone write "From: player, me" (and a second
    # From above a signed one is how DKIM is dodged): nothing in such a mail is read.
    replies.problem(inbound.reply(), "several-senders", {"why": several})
    return Verdict(InboundStatus.REJECTED, f"not from one address: {several}")


def postmaster(inbound: Inbound) -> Verdict | None:
    if inbound.found.kind == "postmaster":
        why = "mail to postmaster: kept for the operator, not answered"
        return Verdict(InboundStatus.IGNORED, why)
    return None


def authenticate(inbound: Inbound) -> Verdict | None:
    config, record = inbound.runtime.config, inbound.record
    route = addresses.route(
        inbound.target, config.mail_domain, config.secret_key, config.previous_keys
    )
    inbound.route = route
    authenticated = isinstance(route, addresses.SeatRoute) and safety.authenticated(
        inbound.session, route, inbound.mail.sender, record.dkim
    )
    _hold(inbound.session, record, authenticated=authenticated)
    if record.authenticated:
        return None
    # Its answer goes to a From line that may be forged: limited (services.access.safety).
    limited = safety.rate_limit(inbound.session, inbound.runtime, record, utcnow())
    if limited is None:
        return None
    if limited.notify:
        replies.problem(inbound.reply(), safety.RATE_LIMIT, {"limit": config.sender_limit_per_hour})
    return Verdict(InboundStatus.IGNORED, limited.reason)


def new_game(inbound: Inbound) -> Verdict | None:
    if inbound.local != "new":
        return None
    return new_games.start_game(inbound.session, inbound.runtime, inbound.mail, inbound.record)


def help_wanted(inbound: Inbound) -> Verdict | None:
    if inbound.local != "help":
        return None
    mail = inbound.mail
    own = extract.own_text(mail.text, replied.known_lines(inbound.session, mail, None))
    replies.send_help(inbound.reply(), seat_reading(mail, own)[0])
    return Verdict(InboundStatus.DONE, "help sent")


def to_our_sender(inbound: Inbound) -> Verdict | None:
    if inbound.found.kind != "from":
        return None
    # A "reply" to a mail of ours that named no reply address: say where to write instead.
    replies.problem(inbound.reply(), "unknown-address", {"address": inbound.target})
    return Verdict(InboundStatus.REJECTED, f"sent to {inbound.target}, which reads no mail")


def reply_address(inbound: Inbound) -> Verdict | None:
    if not isinstance(inbound.route, Refusal):
        return None
    why = inbound.route.reason
    replies.problem(inbound.reply(), "bad-token", {"why": why})
    return Verdict(InboundStatus.REJECTED, f"reply address: {why}")


def to_the_seat(inbound: Inbound) -> Verdict:
    route = inbound.route
    assert isinstance(route, addresses.SeatRoute)  # reply_address answered every other route
    return seat_mail(inbound.session, inbound.runtime, inbound.mail, inbound.record, route)


# The way of every stored message, in order; mail to a reply address then goes through the
# table of steps in ``seat_mail``.
STEPS: tuple[Step, ...] = (
    read_mail,
    returned,
    automatic,
    check_dkim,
    addressed_to_us,
    to_a_known_address,
    one_sender,
    postmaster,
    authenticate,
    new_game,
    help_wanted,
    to_our_sender,
    reply_address,
)


def handle(
    session: Session, runtime: Runtime, record: InboundMessage, first: _Read | None = None
) -> Verdict:
    """One message's way through ``STEPS``; ``first`` is its reading when already done."""
    return steps.run(STEPS, Inbound(session, runtime, record, first), to_the_seat)


def catch_up(runtime: Runtime, game_id: int, cutoff: datetime) -> list[int]:
    """Process mail for this game that was stored before ``cutoff`` but is still waiting.

    Its own task may be stuck behind a broker outage or a busy queue; orders that reached us in
    time belong in this turn, so they are handled here first (processing is idempotent).
    """
    with runtime.db.autocommit() as session:  # one read: no BEGIN nor COMMIT round trip
        waiting = session.scalars(
            select(InboundMessage.id)
            .where(
                InboundMessage.game_id == game_id,
                InboundMessage.status == InboundStatus.RECEIVED,
                InboundMessage.received_at <= cutoff,
            )
            .order_by(InboundMessage.id)
        ).all()
    for inbound_id in waiting:
        process(runtime, inbound_id)
    return list(waiting)
