"""What a reader owes and by when: the first lines of every game mail.

A player opens a game's mail to learn one thing first: is anything wanted from me, and by when.
So every mail to a seat starts with its ``Ask`` (the one sentence of what this reader owes, or
that nothing is, and who is being waited for), before what happened and the position. The
deadline is shown as ``schedule.shown`` writes it: the reader's zone, UTC, and how long from now.
Who else the game waits for is ``awaited``'s, in the words the game master and the pages read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator import i18n
from adjudicator.core.contract import Game as Rules
from adjudicator.models import Game, Seat
from adjudicator.services.outbound import awaited
from adjudicator.services.record.on_file import Filed
from adjudicator.statuses import GameStatus


@dataclass(frozen=True)
class Ask:
    """The first lines of a mail: ``headline`` says what the reader owes and by when (or that
    nothing is owed), ``detail`` what stands if nothing comes, or who is being waited for."""

    owed: bool
    headline: str
    detail: str = ""

    def json(self) -> dict[str, Any]:
        return {"owed": self.owed, "headline": self.headline, "detail": self.detail}


def for_seat(rules: Rules[Any], game: Game, seat: Seat, moment: awaited.Moment) -> Ask:
    """What this seat's player owes now, in the words of the mail's first lines."""
    if game.status == GameStatus.FORMING:
        _ = i18n.translator(moment.language)
        return Ask(
            seat.joined_at is None,
            (
                _("Reply JOIN to take your seat; the sides are drawn by lot once all have joined.")
                if game.sides_by_lot
                else _(
                    "Reply JOIN to take your seat as %(seat)s.", seat=rules.seat_title(seat.seat)
                )
            )
            if seat.joined_at is None
            else _("Nothing is owed by you: you have joined."),
            _("The game starts when every player has joined."),
        )
    _ = i18n.translator(moment.language)
    if game.status != GameStatus.ACTIVE:
        return Ask(False, _("Nothing is owed: the game is over."), moment.result)
    if game.paused:
        return Ask(
            False,
            _("Nothing is owed for now: the game master has paused the game."),
            _("You hear when it resumes, with the deadline it then has."),
        )
    due = _due(game, moment)
    if rules.resolves_on_receipt:
        return _decision(rules, game, seat, moment, due)
    return _orders(rules, game, seat, moment, due)


def _due(game: Game, moment: awaited.Moment) -> str:
    if game.deadline is None:
        return ""
    return i18n.shown(game.deadline, moment.zone, moment.now, moment.language)


def _orders(rules: Rules[Any], game: Game, seat: Seat, moment: awaited.Moment, due: str) -> Ask:
    """A game of simultaneous orders: each seat owes its set for the turn by the deadline."""
    _ = i18n.translator(moment.language)
    turn = moment.next_turn
    mine = moment.owed.seats.get(seat.seat)
    others = awaited.outlook(rules, game, moment, due, seat.seat)
    if seat.seat not in moment.pending or mine is None:
        return Ask(False, _("Nothing is owed by you for turn %(turn)s.", turn=turn), others)
    if mine.filed is Filed.PARTIAL:
        return Ask(True, _incomplete(moment, mine.refused, due), others)
    if mine.filed is Filed.WHOLE:
        until = (
            _("You may change them until %(due)s.", due=due)
            if due
            else _("You may change them until the turn is played.")
        )
        return Ask(
            False,
            _("Your orders for turn %(turn)s are on file: nothing more is owed by you.", turn=turn),
            f"{until} {others}".strip(),
        )
    default = moment.pending[seat.seat].default.replace("\n", ", ")
    return Ask(
        True,
        _("You owe your orders for turn %(turn)s by %(due)s.", turn=turn, due=due)
        if due
        else _("You owe your orders for turn %(turn)s.", turn=turn),
        _("If none arrive by then, the default orders stand: %(default)s.", default=default)
        if default
        else "",
    )


def _incomplete(moment: awaited.Moment, refused: int, due: str) -> str:
    """The reader's own set on file without its ``refused`` lines: what that means for the turn,
    and how to put it right."""
    lang, turn = moment.language, moment.next_turn
    due = due or i18n.gettext("none set", lang)
    if moment.owed.holds:
        return i18n.ngettext(
            "Your orders for turn %(turn)s are on file except one refused line: the turn waits "
            "for its deadline, %(due)s, unless you send it corrected with ADD, or send a whole "
            "new set.",
            "Your orders for turn %(turn)s are on file except %(num)s refused lines: the turn "
            "waits for its deadline, %(due)s, unless you send them corrected with ADD, or send "
            "a whole new set.",
            refused,
            lang,
            turn=turn,
            due=due,
        )
    return i18n.ngettext(
        "Your orders for turn %(turn)s are on file except one refused line: the set stands "
        "without it at its deadline, %(due)s, unless you send it corrected with ADD, or send a "
        "whole new set.",
        "Your orders for turn %(turn)s are on file except %(num)s refused lines: the set stands "
        "without them at its deadline, %(due)s, unless you send them corrected with ADD, or "
        "send a whole new set.",
        refused,
        lang,
        turn=turn,
        due=due,
    )


def _decision(rules: Rules[Any], game: Game, seat: Seat, moment: awaited.Moment, due: str) -> Ask:
    """A game played one decision at a time: the seat owing it, what it is, and by when."""
    _ = i18n.translator(moment.language)
    owing = moment.pending.get(seat.seat)
    if owing is not None:
        # The brief was made once for every reader (the snapshot's decisions): written anew.
        brief = i18n.localized(owing.brief, moment.language)
        what = brief or _("your next %(noun)s", noun=_(rules.turn_noun))
        default = _(
            "If nothing arrives by then, this is taken for you: %(default)s.",
            default=owing.default,
        )
        if due:
            return Ask(
                True,
                _("Your decision: %(what)s, by %(due)s.", what=what, due=due),
                default if owing.default else "",
            )
        return Ask(
            True,
            _("Your move: %(what)s.", what=what),
            i18n.ngettext(
                "There is no deadline; the game is closed after %(num)s day without an action.",
                "There is no deadline; the game is closed after %(num)s days without an action.",
                moment.idle_close_days,
                moment.language,
            ),
        )
    others = [s for s in game.seats if s.seat in moment.pending]
    if not others:
        return Ask(False, _("Nothing is owed by you now."))
    said = awaited.owed_by(rules, others, moment, due)
    return Ask(False, _("Nothing is owed by you now: %(owed)s.", owed=said))


def for_gm(rules: Rules[Any], game: Game, moment: awaited.Moment) -> Ask:
    """What a game's game master reads first: nothing is owed by them, and who the game waits
    for (their commands change deadlines; they never owe one); in ``moment.language``."""
    _ = i18n.translator(moment.language)
    if game.status not in (GameStatus.FORMING, GameStatus.ACTIVE):
        return Ask(False, _("Nothing is owed: the game is over."), moment.result)
    if game.status == GameStatus.ACTIVE and game.paused:
        return Ask(False, _("Nothing is owed by you: the game is paused until you RESUME it."))
    return Ask(
        False,
        _("Nothing is owed by you."),
        awaited.waiting_for(rules, game, moment, _due(game, moment)),
    )
