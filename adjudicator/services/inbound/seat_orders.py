"""A seat's orders on their way through ``seat_mail.STEPS`` (steps 11 to 15): read against the
position, the set filed, the turn played at once in a game that resolves on receipt, the receipt,
and early adjudication once every seat has a whole set on file."""

from __future__ import annotations

from adjudicator import i18n
from adjudicator.core.contract import LineStatus
from adjudicator.models import Submission, utcnow
from adjudicator.services.inbound.seat_context import SeatMail
from adjudicator.services.outbound import answers, calendar_entries, replies, reports
from adjudicator.services.record import on_file, play, positions, reasons
from adjudicator.services.record.runtime import Task
from adjudicator.services.record.verdict import Verdict
from adjudicator.services.turns import lifecycle
from adjudicator.services.words import lookalikes, orders
from adjudicator.statuses import InboundStatus


# 11.
def read_orders(context: SeatMail) -> Verdict | None:
    session, game, seat = context.session, context.game, context.seat
    rules = context.rules()
    context.turn = play.latest_turn(session, game.id)
    # Loaded once for the reading and the receipt that shows the same position.
    state = positions.snapshot(session, rules, context.turn).state
    context.earlier = on_file.orders_text_on_file(session, game, seat.seat, context.turn.number + 1)
    context.got = orders.read(
        rules,
        state,
        seat.seat,
        list(context.reading.others),
        context.reading,
        context.sections,
        context.earlier,
        context.subject_only,
    )
    report = context.got.report
    if report is not None and not (game.paused and rules.resolves_on_receipt):
        return None
    _ = i18n.translator(context.sections.language)
    for line in report.lines if report is not None else ():
        # A game moving on receipt plays nothing while paused, as its every mail then says.
        if line.status != LineStatus.IGNORED:
            paused = _("not played: the game is paused; send it again once it resumes")
            context.sections.skip(line.text, paused)
    replies.status(context.reply, game, seat, context.reading, context.sections)
    found = context.reading.words()
    return Verdict(
        InboundStatus.DONE, "commands answered: " + (", ".join(found) or "none"), game.id
    )


# 12.
def file_orders(context: SeatMail) -> Verdict | None:
    report = context.report
    context.filed = orders.files(context.rules(), report)
    context.session.add(
        Submission(
            game_id=context.game.id,
            seat=context.seat.seat,
            turn_number=context.turn.number + 1,
            inbound_id=context.record.id,
            text=context.got.text,
            report=[answers.line_json(line) for line in report.lines],
            orders=report.orders,
            accepted=context.filed,
        )
    )
    context.session.flush()
    return None


# 13.
def resolve_on_receipt(context: SeatMail) -> Verdict | None:
    if not (context.filed and context.rules().resolves_on_receipt):
        return None
    session, runtime, game, seat = context.session, context.runtime, context.game, context.seat
    report = context.report
    new_turn, resolution = play.apply_orders(
        session, game, {seat.seat: report.orders}, reason=reasons.ORDERS
    )
    # The next decision gets its own deadline, opened before the reports so that they
    # announce it; the answered decision's calendar entry is withdrawn in them.
    now = utcnow()
    stale = calendar_entries.overtaken(game, new_turn.number, now)
    lifecycle.open_deadline(game, now)
    played = reports.Played(new_turn, resolution)
    shown = lookalikes.sift(report, context.sections)
    answering = reports.Answering(
        seat, context.mail.message_id, context.sections, context.reading, shown
    )
    reports.turn_report(session, runtime, game, seat, played, answering, stale)
    # A game of several players that moves on each answer (one decision at a time): the
    # others see every step too.
    for other in game.seats:
        if other.id != seat.id:
            reports.turn_report(session, runtime, game, other, played, overtaken=stale)
    return Verdict(InboundStatus.DONE, f"turn {new_turn.number} resolved", game.id)


# 14.
def send_receipt(context: SeatMail) -> Verdict | None:
    turn, record, got = context.turn, context.record, context.got
    # Processed after the turn it was written for had been resolved: say so, never drop it.
    late = (
        turn.number > 0 and turn.reason != reasons.ORDERS and turn.created_at >= record.received_at
    )
    filing = {
        "for_turn": turn.number + 1,
        "merged": got.merged,
        "replaced": context.earlier is not None and not got.merged,
        "too_late_for": turn.number if late else None,
        "received": f"{record.received_at:%H:%M:%S} UTC",
    }
    shown = lookalikes.sift(context.report, context.sections)
    replies.receipt(
        context.reply, context.game, context.seat, shown, context.reading, context.sections, filing
    )
    if not context.filed:
        return Verdict(InboundStatus.DONE, "orders not accepted; receipt sent", context.game.id)
    if not context.report.ok:
        # Filed without its refused lines: it stands at the deadline, but the turn is not
        # resolved early on it, so the player has the time left to put the lines right.
        return Verdict(
            InboundStatus.DONE, "orders stored without their refused lines", context.game.id
        )
    return None


# 15.
def adjudicate_early(context: SeatMail) -> Verdict:
    game, session = context.game, context.session
    if game.early_delay_minutes == 0 and on_file.owed(session, game).resolves_early(utcnow()):
        # Early adjudication: the turn is claimed and resolved by a worker, as at a deadline.
        # (With a delay, the tick starts it once the last orders are old enough.)
        context.runtime.later(session, Task.ADJUDICATE, game.id)
    return Verdict(InboundStatus.DONE, "orders stored", game.id)
