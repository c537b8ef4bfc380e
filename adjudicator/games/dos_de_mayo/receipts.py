"""The forgiving order parser behind ``parse_orders``: a receipt for every line of a mail.

Lines are read by ``grammar`` (through ``core.lines``, which sets chat and quoted text aside) and
judged by ``checks``; here the two meet. Every line is accepted (with its canonical form),
rejected (a code from ``checks.CODES``, the reason and, where we can, a "did you mean") or ignored
(greetings, quoted text). ``missing`` says what the set still leaves to the defaults.
"""

from __future__ import annotations

from adjudicator.core.contract import LineReport, LineStatus, OrderReport
from adjudicator.core.lines import Complaint, MailLines, by_number, read_mail
from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.checks import Verdict, check_items, fatal
from adjudicator.games.dos_de_mayo.grammar import read_line
from adjudicator.games.dos_de_mayo.orders import Draw, Hold, Item, OrderSet
from adjudicator.games.dos_de_mayo.sides import FRANCE, Side, as_side
from adjudicator.games.dos_de_mayo.state import Position
from adjudicator.games.dos_de_mayo.wording import either

STATUS = {
    "accepted": LineStatus.ACCEPTED,
    "rejected": LineStatus.REJECTED,
    "ignored": LineStatus.IGNORED,
}


def parse_orders(position: Position, seat: str, text: str) -> OrderReport:
    mail: MailLines[Item] = read_mail(text, read_line)
    reports = mail.receipts
    problem = fatal(position, seat)
    side = as_side(seat)
    if problem is not None or side is None:
        assert problem is not None
        why = Complaint(problem.code, problem.reason)
        refused = [why.receipt(line.number, line.text) for line in mail.read]
        return OrderReport(tuple(sorted(reports + refused, key=by_number)), None)
    items = [line.reading for line in mail.read]
    verdicts, order_set = check_items(position, side, items)
    for line, verdict in zip(mail.read, verdicts, strict=True):
        reports.append(_report(line.number, line.text, verdict))
    reports.sort(key=by_number)
    taken = [
        item for item, verdict in zip(items, verdicts, strict=True) if verdict.status == "accepted"
    ]
    orders = order_set.to_json() if taken else None
    return OrderReport(tuple(reports), orders, missing(position, side, order_set, taken))


def _report(number: int, raw: str, verdict: Verdict) -> LineReport:
    problem = verdict.problem
    return LineReport(
        number,
        raw,
        STATUS[verdict.status],
        canonical=verdict.canonical,
        code=None if problem is None else problem.code,
        reason=verdict.note if problem is None else problem.reason,
        suggestion=None if problem is None else problem.suggestion,
    )


def missing(position: Position, side: Side, orders: OrderSet, items: list[Item]) -> tuple[str, ...]:
    """What the set leaves to the defaults, in words; ``items`` are its accepted lines."""
    data = card_data()
    notes: list[str] = []
    if side == FRANCE and position.start_choice and orders.take is None:
        names = either([f"TAKE {data.card(c).keyword}" for c in position.start_choice])
        default = data.card(data.france_default).name
        notes.append(_("%(names)s (%(card)s if you do not say)", names=names, card=default))
    if position.in_play or orders.plays:
        lasting = set(position.in_play) | {play.card for play in orders.plays}
        aimed = {aim.card for aim in orders.aims}
        for card_id in sorted(lasting):
            card = data.card(card_id)
            if card.side == side and card.effect.aim and card_id not in aimed:
                notes.append(
                    _(
                        "%(aim)s <area>: no %(card)s bonus this turn without it",
                        aim=card.effect.aim,
                        card=card.name,
                    )
                )
    if position.turn < board().rules.turns and not any(type(item) is Draw for item in items):
        notes.append(_("DRAW or NODRAW for the next turn (DRAW if you do not say)"))
    # A HOLD is an order for its group too, though the set keeps none (holding is the default).
    ordered = {move.path[0] for move in orders.moves} | {i.area for i in items if type(i) is Hold}
    for play in orders.plays:
        if play.move is not None:
            ordered.add(play.move.path[0])
    units = position.units[side]
    idle = [a for a, n in zip(board().areas, units, strict=True) if n and a not in ordered]
    if idle:
        notes.append(_("no orders for the groups in %(areas)s: they hold", areas=", ".join(idle)))
    return tuple(notes)
