"""Step 5 of ``seat_mail.STEPS``: a seat's mail read as the player's own text, and a reading in
doubt settled or answered.

The reader (``extract.own_text``) knows the service's mails the reply may quote
(``replied.known_lines``), and says when it cannot tell new lines from old (``extract.Doubt``).
Whether that doubt matters is for the game's own parser to say: only lines it takes for orders
(accepted or refused, not set aside as chatter) count. Text on both sides of the quoted mail of
which one side holds no order is no question: the side with orders is read. Otherwise, in a
running game, the mail does nothing at all: no order is stored and no command is run, since a
RESIGN or a setting may stand in text that cannot be placed; its answer shows what each reading
would take and asks for the orders again inside ORDERS … END, and the set on file stands.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.core.contract import LineStatus
from adjudicator.games import registry
from adjudicator.mail import extract
from adjudicator.services.inbound import replied
from adjudicator.services.inbound.seat_context import SeatMail
from adjudicator.services.outbound import replies
from adjudicator.services.record import play, positions
from adjudicator.services.record.verdict import Verdict
from adjudicator.services.words import commands
from adjudicator.statuses import GameStatus, InboundStatus


# 5.
def read_text(context: SeatMail) -> Verdict | None:
    mail, game = context.mail, context.game
    known = replied.known_lines(context.session, mail, game.id)
    own = extract.own_text(mail.text, known)
    context.own = own
    if own.doubt is None or game.status != GameStatus.ACTIVE:
        return None
    taken = [order_like(context, lines) for lines in own.readings]
    settled = _settled(own, taken)
    if settled is not None:
        context.own = replace(own, lines=settled, doubt=None, readings=())
        return None
    replies.doubt(context.reply, game, context.seat, own.doubt.value, taken)
    why = f"read in doubt ({own.doubt.value}); nothing stored"
    return Verdict(InboundStatus.DONE, why, game.id)


def order_like(context: SeatMail, lines: tuple[str, ...]) -> list[str]:
    """The lines of ``lines`` that would be taken as orders: neither commands nor what the
    game's parser sets aside as chatter, for the seat on the position now."""
    games = registry.titles()
    others = [line for line in commands.read(list(lines), None, games).others if line.strip()]
    if not others:
        return []
    rules = context.rules()
    turn = play.latest_turn(context.session, context.game.id)
    state = positions.snapshot(context.session, rules, turn).state
    report = rules.parse_orders(state, context.seat.seat, "\n".join(others))
    return [line.text for line in report.lines if line.status != LineStatus.IGNORED]


def _settled(own: extract.OwnText, taken: list[list[str]]) -> list[str] | None:
    """The lines to read after all, or None when the doubt stands. Above and below: the one
    side holding orders, if only one does. Unmarked lines: the reading without them, if they
    hold no order."""
    if own.doubt is extract.Doubt.ABOVE_AND_BELOW:
        holding = [list(lines) for lines, found in zip(own.readings, taken, strict=True) if found]
        if len(holding) > 1:
            return None
        return holding[0] if holding else own.lines
    without, with_them = taken
    return own.lines if without == with_them else None
