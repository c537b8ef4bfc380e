"""Processing one stored inbound message, step by step; each step's reason ends up as data.

read → drop automatic mail → route by recipient → authenticate the sender (only mail that is not a
seat player's own is limited) → commands and orders → store the submission → resolve (games that
resolve on receipt) → queue the reply.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.mail import addresses, dkim, extract, recipients
from adjudicator.mail.reading import MailIn, Unreadable, read
from adjudicator.models import Game, InboundMessage, Seat, Submission, utcnow
from adjudicator.services import (
    commands,
    gm,
    lifecycle,
    on_file,
    orders,
    play,
    preferences,
    reports,
    safety,
)
from adjudicator.services.bounces import returned_mail
from adjudicator.services.runtime import Runtime

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """How processing ended: received → done | ignored | rejected | failed, and why."""

    status: str
    reason: str
    game_id: int | None = None


def process(runtime: Runtime, inbound_id: int) -> Verdict:
    """Process the message once; a second call (a duplicate task) finds it done and does nothing.

    Raises, leaving the message to be retried, only when the database connection was lost."""
    try:
        first = _read_first(runtime, inbound_id)
        with runtime.db.session() as session:
            query = select(InboundMessage).where(InboundMessage.id == inbound_id)
            if runtime.db.is_postgres:
                query = query.with_for_update()
            record = session.scalar(query)
            if record is None:
                return Verdict("failed", f"no inbound message {inbound_id}")
            if record.status != "received":
                return Verdict(record.status, "already processed")
            record.attempts += 1
            verdict = handle(session, runtime, record, first)
            suppressed = safety.take_suppressed(session, record.id)
            if suppressed:
                verdict = replace(verdict, reason=f"{verdict.reason}; {suppressed}")
            record.status, record.reason = verdict.status, verdict.reason
            record.game_id = verdict.game_id
            record.processed_at = utcnow()
            ids = {"inbound_id": inbound_id, "game_id": verdict.game_id, "status": verdict.status}
            log.info("inbound %s %s: %s", inbound_id, verdict.status, verdict.reason, extra=ids)
            return verdict
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
            if record is not None and record.status == "received":
                record.status = "failed"
                record.reason = f"internal error: {type(error).__name__}: {error}"[:2000]
                record.processed_at = utcnow()
        return Verdict("failed", f"internal error: {error}")


@dataclass(frozen=True)
class _Read:
    """A message read, and its DKIM verdict, before the processing transaction opens."""

    mail: MailIn | Unreadable
    signature: str | None


def _read_first(runtime: Runtime, inbound_id: int) -> _Read | None:
    """Read the message and check its DKIM signature outside the processing transaction:
    checking may wait on DNS, and on SQLite that transaction holds the database's write lock.
    None when there is nothing to process (no such message, or already processed)."""
    with runtime.db.session() as session:
        record = session.get(InboundMessage, inbound_id)
        if record is None or record.status != "received":
            return None
        raw = record.raw
    mail = read(raw)
    if isinstance(mail, Unreadable) or mail.automatic:
        return _Read(mail, None)
    return _Read(mail, dkim.verify(raw, mail.sender.rsplit("@", 1)[-1]))


def handle(
    session: Session, runtime: Runtime, record: InboundMessage, first: _Read | None = None
) -> Verdict:
    """One message's way through the steps; ``first`` is its reading when already done."""
    mail = first.mail if first is not None else read(record.raw)
    if isinstance(mail, Unreadable):
        return Verdict("failed", f"unreadable: {mail.reason}")
    record.sender, record.subject = mail.sender, mail.subject[:1000]
    # Mail to an outbound mail's return path reports on that mail: matched, never answered,
    # and before any sender limit, so a burst of bounces from one MTA is still recorded.
    returned = returned_mail(session, runtime, record, record.envelope_to or mail.recipients)
    if returned is not None:
        return Verdict(returned.status, returned.reason, returned.game_id)
    if mail.automatic:
        return Verdict("ignored", f"automatic mail, never answered ({mail.automatic})")
    # Recorded for every message a person sent; games with require_dkim act only on "pass".
    signature = first.signature if first is not None else None
    record.dkim = signature or dkim.verify(record.raw, mail.sender.rsplit("@", 1)[-1])
    domain = runtime.config.mail_domain
    ours = [a for a in (record.envelope_to or mail.recipients) if a.lower().endswith("@" + domain)]
    if not ours:
        return Verdict("rejected", f"not addressed to {domain}")
    taken = [(a.lower(), recipients.check(a, domain, runtime.config.from_address)) for a in ours]
    known = [(a, found) for a, found in taken if isinstance(found, recipients.Accepted)]
    if not known:
        # What the listeners refuse at RCPT, a webhook provider delivers anyway: kept, never
        # answered, since the From line that would receive the answer may be anyone's.
        return Verdict("ignored", f"unknown address {ours[0].lower()}: stored, not answered")
    if mail.several_senders is not None:
        # Acting for the first address would let anyone write "From: player, me" (and a second
        # From above a signed one is how DKIM is dodged): nothing in such a mail is read.
        details = {"why": mail.several_senders}
        reports.reply_problem(session, runtime, mail, record.id, "several-senders", details)
        return Verdict("rejected", f"not from one address: {mail.several_senders}")
    target, found = known[0]
    local = target.split("@", 1)[0]
    if found.kind == "postmaster":
        return Verdict("ignored", "mail to postmaster: kept for the operator, not answered")
    config = runtime.config
    route = addresses.route(target, domain, config.secret_key, config.previous_keys)
    record.authenticated = isinstance(route, addresses.SeatRoute) and safety.authenticated(
        session, route, mail.sender, record.dkim
    )
    if not record.authenticated:
        # Its answer goes to a From line that may be forged: limited (services.safety).
        limited = safety.rate_limit(session, runtime, record, utcnow())
        if limited is not None:
            if limited.notify:
                limit = {"limit": config.sender_limit_per_hour}
                reports.reply_problem(session, runtime, mail, record.id, safety.RATE_LIMIT, limit)
            return Verdict("ignored", limited.reason)
    if local == "new":
        return start_game(session, runtime, mail, record)
    if local == "help":
        reports.reply_help(session, runtime, mail, record.id, seat_reading(mail)[0])
        return Verdict("done", "help sent")
    if found.kind == "from":
        # A "reply" to a mail of ours that named no reply address: say where to write instead.
        reports.reply_problem(
            session, runtime, mail, record.id, "unknown-address", {"address": target}
        )
        return Verdict("rejected", f"sent to {target}, which reads no mail")
    if isinstance(route, str):
        reports.reply_problem(session, runtime, mail, record.id, "bad-token", {"why": route})
        return Verdict("rejected", f"reply address: {route}")
    return seat_mail(session, runtime, mail, record, route)


def mail_lines(mail: MailIn) -> list[str]:
    lines = [line for line in extract.order_lines(mail.text) if line.strip()]
    if not lines:
        subject = extract.subject_line(mail.subject)
        lines = [subject] if subject else []
    return lines


def seat_reading(mail: MailIn) -> tuple[commands.Reading, bool]:
    """The mail's commands and other lines, and whether its only line is the subject (an empty
    body: the subject is then read as the mail, and dropped silently if it says nothing)."""
    own = extract.own_text(mail.text)
    body = [line for line in own.lines if line.strip()]
    subject = extract.subject_line(mail.subject)
    games = [(key, rules.title) for key, rules in registry.games().items()]
    if body:
        return commands.with_unread(commands.read(body, subject, games), own), False
    return commands.read([subject] if subject else [], None, games), True


def start_game(session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage) -> Verdict:
    request = commands.parse_new(mail_lines(mail))
    if request is None or isinstance(request, str):
        why = request or "no NEW line found"
        reports.reply_problem(session, runtime, mail, record.id, "bad-new", {"why": why})
        return Verdict("rejected", why)
    rules = registry.get(request.game_key)
    if rules is None:
        why = f"there is no game called {request.game_key!r}"
        reports.reply_problem(session, runtime, mail, record.id, "bad-new", {"why": why})
        return Verdict("rejected", why)
    if len(rules.seats) != 1:
        return start_gm_game(session, runtime, mail, record, request)
    challenge = None
    if request.challenge:
        found = play.open_challenge(session, runtime, rules.key, request.challenge, request.options)
        if isinstance(found, str):
            reports.reply_problem(session, runtime, mail, record.id, "bad-new", {"why": found})
            return Verdict("rejected", found)
        challenge = found
    player = play.player_for(session, mail.sender, mail.sender_name)
    game = play.create_game(
        session, runtime, rules, {rules.seats[0]: player}, request.options, challenge
    )
    if isinstance(game, str):
        reports.reply_problem(session, runtime, mail, record.id, "bad-new", {"why": game})
        return Verdict("rejected", game)
    reports.game_started(session, runtime, game)
    return Verdict("done", f"started game {game.id}", game.id)


def start_gm_game(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    record: InboundMessage,
    request: commands.NewGame,
) -> Verdict:
    """The sender is the game master; each named player is invited and answers JOIN."""
    settings = lifecycle.read_settings(
        request.game_key, request.seats, request.options, request.settings, mail.sender
    )
    made = (
        settings
        if isinstance(settings, Refusal)
        else lifecycle.start_game(session, runtime, settings, invite=True)
    )
    if isinstance(made, Game):
        reports.gm_created(session, runtime, made, mail, record.id)
        return Verdict("done", f"game {made.id} formed; invitations sent", made.id)
    reports.reply_problem(session, runtime, mail, record.id, "bad-new", {"why": made.reason})
    return Verdict("rejected", made.reason)


def dkim_refusal(
    session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage, game: Game
) -> Verdict | None:
    """For a game that requires DKIM, the refusal of mail whose signature did not pass: the
    From line alone proves nothing, so such a game acts on nothing unverified (nor its GM's)."""
    if not game.require_dkim or record.dkim.startswith("pass"):
        return None
    details = {"game": game, "verdict": record.dkim or "not checked"}
    reports.reply_problem(session, runtime, mail, record.id, "dkim-required", details)
    return Verdict("rejected", f"DKIM required, verdict {details['verdict']}", game.id)


def gm_mail(
    session: Session, runtime: Runtime, mail: MailIn, record: InboundMessage, game: Game
) -> Verdict:
    if game.gm is None or game.gm.address != mail.sender:
        reports.reply_problem(
            session, runtime, mail, record.id, "wrong-sender", {"game": game, "seat": "game master"}
        )
        return Verdict("rejected", f"{mail.sender} is not game {game.id}'s game master", game.id)
    refused = dkim_refusal(session, runtime, mail, record, game)
    if refused is not None:
        return refused
    results = gm.run(session, runtime, game, mail_lines(mail), f"inbound:{record.id}", utcnow())
    reports.gm_reply(session, runtime, game, mail, record.id, results)
    done = sum(result.done for result in results)
    return Verdict("done", f"game-master commands: {done} of {len(results)} done", game.id)


def seat_mail(
    session: Session,
    runtime: Runtime,
    mail: MailIn,
    record: InboundMessage,
    route: addresses.SeatRoute,
) -> Verdict:
    query = select(Game).where(Game.id == route.game_id)
    if runtime.db.is_postgres:
        query = query.with_for_update()  # one resolution at a time per game
    game = session.scalar(query)
    if game is not None and route.seat == "gm":
        return gm_mail(session, runtime, mail, record, game)
    seat = session.scalar(
        select(Seat).where(Seat.game_id == route.game_id, Seat.seat == route.seat)
    )
    if game is None or seat is None:
        reports.reply_problem(
            session, runtime, mail, record.id, "bad-token", {"why": "no such game"}
        )
        return Verdict("rejected", "reply address names no game")
    if seat.player.address != mail.sender:
        reports.reply_problem(
            session, runtime, mail, record.id, "wrong-sender", {"game": game, "seat": seat.seat}
        )
        return Verdict("rejected", f"{mail.sender} does not hold seat {seat.seat}", game.id)
    refused = dkim_refusal(session, runtime, mail, record, game)
    if refused is not None:
        return refused
    if route.version != seat.key_version:
        # The seat was handed to another player: this address no longer plays it.
        reports.reply_problem(session, runtime, mail, record.id, "bad-token", {"why": "replaced"})
        return Verdict("rejected", "reply address of a replaced seat", game.id)
    reading, subject_only = seat_reading(mail)
    sections = commands.Sections(ignored=list(reading.ignored))
    now = utcnow()
    for command in reading.commands:
        if command.word in ("PREFERENCES", "FORMAT", "VACATION"):
            zone = seat.player.timezone or game.timezone
            done, message = preferences.run(seat.player, command, zone, now)
            sections.did(command, message, done)
    found = reading.words()
    order_lines = list(reading.others)
    if game.status == "forming":
        # The last JOIN starts the game: its player's welcome answers the mail and says so.
        last = "JOIN" in found and all(
            other.joined_at is not None for other in game.seats if other.id != seat.id
        )
        for command in reading.commands:
            if command.word == "JOIN":
                started_now = "; every player has joined, so the game has started" if last else ""
                sections.did(command, "your seat is taken" + started_now)
            elif command.word not in ("PREFERENCES", "FORMAT", "VACATION"):
                sections.skip(command.line, "the game starts when every player has joined")
        unread = "the game has not started yet"
        if last:
            unread = "the game starts with this mail; send it again"
        for line in order_lines:
            sections.skip(line, f"not read: {unread}")
        answering = reports.Answering(seat, mail.message_id, sections)
        started = "JOIN" in found and lifecycle.join(session, runtime, game, seat, answering)
        if not started:
            reports.invitation_status(session, runtime, mail, record.id, game, seat, sections)
        return Verdict("done", "joined" if seat.joined_at else "invitation pending", game.id)
    if game.status != "active":
        reports.reply_game_over(session, runtime, mail, record.id, game, seat, sections)
        return Verdict("done", "game is over; status sent", game.id)
    resigned = reading.first("RESIGN")
    if resigned is not None:
        sections.did(resigned, f"you resigned; game {game.id} is over")
        for line in order_lines:
            sections.skip(line, "not read: you resigned in the same mail")
        reports.resign(session, runtime, mail, record.id, game, seat, sections)
        return Verdict("done", "resigned", game.id)
    joined = reading.first("JOIN")
    if joined is not None:
        sections.skip(joined.line, "you have already joined this game")
    waiting = reading.first("WAIT")
    if waiting is not None and play.rules_for(game).resolves_on_receipt:
        sections.skip(waiting.line, "WAIT is for games with deadlines; this one moves on receipt")
    elif waiting is not None:
        sections.did(
            waiting,
            "You asked to WAIT: this turn is processed at its deadline, not earlier, even when "
            "everyone has sent orders",
        )
        # Kept as a submission of its own, so the request is on record for this turn.
        session.add(
            Submission(
                game_id=game.id,
                seat=seat.seat,
                turn_number=play.latest_turn(session, game.id).number + 1,
                inbound_id=record.id,
                text="WAIT",
                report=[],
                orders=None,
                accepted=False,
                wait=True,
            )
        )
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    state = rules.load(turn.state)
    earlier = on_file.orders_text_on_file(session, game, seat.seat, turn.number + 1)
    got = orders.read(
        rules, state, seat.seat, order_lines, reading, sections, earlier, subject_only
    )
    if got.report is None:
        reports.reply_status(session, runtime, mail, record.id, game, seat, reading, sections)
        return Verdict("done", "commands answered: " + (", ".join(found) or "none"), game.id)
    report, text, merged = got.report, got.text, got.merged
    filed = orders.files(rules, report)
    submission = Submission(
        game_id=game.id,
        seat=seat.seat,
        turn_number=turn.number + 1,
        inbound_id=record.id,
        text=text,
        report=[reports.line_json(line) for line in report.lines],
        orders=report.orders,
        accepted=filed,
    )
    session.add(submission)
    session.flush()
    if filed and rules.resolves_on_receipt:
        new_turn, resolution = play.apply_orders(
            session, game, {seat.seat: report.orders}, reason="orders"
        )
        # The next decision gets its own deadline, opened before the reports so that they
        # announce it; the answered decision's calendar entry is withdrawn in them.
        now = utcnow()
        stale = reports.overtaken(game, new_turn.number, now)
        lifecycle.open_deadline(game, now)
        shown = commands.sift(report, sections)
        reports.turn_report(
            session,
            runtime,
            game,
            seat,
            new_turn,
            resolution,
            shown,
            mail,
            reading,
            sections,
            overtaken=stale,
        )
        # A game of several players that moves on each answer (one decision at a time): the
        # others see every step too.
        for other in game.seats:
            if other.id != seat.id:
                reports.turn_report(
                    session, runtime, game, other, new_turn, resolution, None, None, overtaken=stale
                )
        return Verdict("done", f"turn {new_turn.number} resolved", game.id)
    # Processed after the turn it was written for had been resolved: say so, never drop it.
    late = turn.number > 0 and turn.reason != "orders" and turn.created_at >= record.received_at
    filing = {
        "for_turn": turn.number + 1,
        "merged": merged,
        "replaced": earlier is not None and not merged,
        "too_late_for": turn.number if late else None,
        "received": f"{record.received_at:%H:%M:%S} UTC",
    }
    shown = commands.sift(report, sections)
    reports.receipt(session, runtime, mail, record.id, game, seat, shown, reading, sections, filing)
    if not filed:
        return Verdict("done", "orders not accepted; receipt sent", game.id)
    if not report.ok:
        # Filed without its refused lines: it stands at the deadline, but the turn is not
        # resolved early on it, so the player has the time left to put the lines right.
        return Verdict("done", "orders stored without their refused lines", game.id)
    if (
        game.early
        and not game.paused
        and game.early_delay_minutes == 0
        and on_file.everyone_submitted(session, game)
    ):
        # Early adjudication: the turn is claimed and resolved by a worker, as at a deadline.
        # (With a delay, the tick starts it once the last orders are old enough.)
        runtime.later(session, "adjudicate", game.id)
    return Verdict("done", "orders stored", game.id)


def catch_up(runtime: Runtime, game_id: int, cutoff: datetime) -> list[int]:
    """Process mail for this game that was stored before ``cutoff`` but is still waiting.

    Its own task may be stuck behind a broker outage or a busy queue; orders that reached us in
    time belong in this turn, so they are handled here first (processing is idempotent).
    """
    with runtime.db.session() as session:
        waiting = session.scalars(
            select(InboundMessage.id)
            .where(
                InboundMessage.game_id == game_id,
                InboundMessage.status == "received",
                InboundMessage.received_at <= cutoff,
            )
            .order_by(InboundMessage.id)
        ).all()
    for inbound_id in waiting:
        process(runtime, inbound_id)
    return list(waiting)
