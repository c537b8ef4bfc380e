"""What a reader owes and by when: the first lines of every game mail.

A player opens a game's mail to learn one thing first: is anything wanted from me, and by when.
So every mail to a seat starts with its ``Ask`` (the one sentence of what this reader owes, or
that nothing is, and who is being waited for), before what happened and the position. The
deadline is shown as ``schedule.shown`` writes it: the reader's zone, UTC, and how long from now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import Decision
from adjudicator.core.contract import Game as Rules
from adjudicator.core.words import agreeing, listed
from adjudicator.models import Game, Seat, Turn, utcnow
from adjudicator.services.record import on_file, play, positions
from adjudicator.services.record.on_file import Filed, Owed
from adjudicator.services.record.runtime import Runtime
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


@dataclass(frozen=True)
class Moment:
    """What the ask is read against: the turn being ordered, the seats owing a decision, what
    each has on file for it (``on_file.owed``), and the reader's clock and zone."""

    next_turn: int
    pending: Mapping[str, Decision]
    owed: Owed
    now: datetime
    zone: str
    idle_close_days: int
    language: str = "en"
    # How the game ended, in the reader's language (play.result_words); empty while it runs.
    result: str = ""


def moment(
    session: Session,
    runtime: Runtime,
    game: Game,
    turn: Turn,
    pending: Mapping[str, Decision],
    zone: str,
    now: datetime,
    language: str = "en",
) -> Moment:
    """The game after ``turn``, where ``pending`` is owed, read at ``now`` in ``zone``, for a
    reader of ``language``."""
    return Moment(
        next_turn=turn.number + 1,
        pending=pending,
        owed=on_file.owed(session, game, turn),
        now=now,
        zone=zone,
        idle_close_days=runtime.config.idle_close_days,
        language=language,
        result=play.result_words(session, game),
    )


def named(rules: Rules[Any], seat: Seat) -> str:
    """A seat with its player's name where they gave one: "Spain (Luis Daoíz)"."""
    name = play.display_name(seat.player)
    title = rules.seat_title(seat.seat)
    return f"{title} ({name})" if name else title


def for_seat(rules: Rules[Any], game: Game, seat: Seat, moment: Moment) -> Ask:
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


def _due(game: Game, moment: Moment) -> str:
    if game.deadline is None:
        return ""
    return i18n.shown(game.deadline, moment.zone, moment.now, moment.language)


def _orders(rules: Rules[Any], game: Game, seat: Seat, moment: Moment, due: str) -> Ask:
    """A game of simultaneous orders: each seat owes its set for the turn by the deadline."""
    _ = i18n.translator(moment.language)
    turn = moment.next_turn
    mine = moment.owed.seats.get(seat.seat)
    others = _outlook(rules, game, moment, due, seat.seat)
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


def _incomplete(moment: Moment, refused: int, due: str) -> str:
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


def _outlook(rules: Rules[Any], game: Game, moment: Moment, due: str, me: str | None = None) -> str:
    """What the turn waits for besides the reader's own seat ``me`` (every seat for the game
    master and the pages, whose sentence names the turn and its deadline), and when it is
    played once nothing holds it: in words for any reader of ``moment.language``."""
    owed, lang = moment.owed, moment.language
    others = [seat for seat in game.seats if seat.seat in owed.seats and seat.seat != me]
    missing = [
        named(rules, seat) for seat in others if owed.seats[seat.seat].filed is Filed.NOTHING
    ]
    partial = [seat for seat in others if owed.seats[seat.seat].filed is Filed.PARTIAL]
    said = []
    if missing and me is not None:
        said.append(_waiting(missing, lang))
    elif missing:
        said.append(_missing(missing, moment, due))
    if partial:
        refused = sum(owed.seats[seat.seat].refused for seat in partial)
        # A seat's own ask has named the deadline already; the game master's and the pages' not.
        when = due if me is None else ""
        said.append(_refused([named(rules, seat) for seat in partial], refused, moment, when))
    if owed.seats and not owed.waiting_on:
        said.append(_when_played(moment, due))
    return " ".join(said)


def _waiting(seats: list[str], language: str = "en") -> str:
    if not seats:
        return ""
    return i18n.gettext("Waiting for %(names)s.", language, names=i18n.listed(seats, language))


def _missing(names: list[str], moment: Moment, due: str) -> str:
    """The seats with no orders on file, as the game master and the pages read it."""
    _ = i18n.translator(moment.language)
    shown, turn = i18n.listed(names, moment.language), moment.next_turn
    if due:
        return _(
            "Waiting for orders for turn %(turn)s from %(names)s, due %(due)s.",
            turn=turn,
            names=shown,
            due=due,
        )
    return _("Waiting for orders for turn %(turn)s from %(names)s.", turn=turn, names=shown)


def _refused(names: list[str], refused: int, moment: Moment, due: str = "") -> str:
    """Seats whose set on file has ``refused`` lines: the turn waits for them where it would
    otherwise be played early, until its deadline (``due``, where given); else they are only
    named."""
    lang, turn = moment.language, moment.next_turn
    shown = i18n.listed(names, lang)
    if moment.owed.holds and due:
        return i18n.ngettext(
            "Waiting for %(names)s to put right a refused line of its orders for turn %(turn)s; "
            "until then the turn waits for its deadline, %(due)s.",
            "Waiting for %(names)s to put right refused lines of their orders for turn %(turn)s; "
            "until then the turn waits for its deadline, %(due)s.",
            refused,
            lang,
            names=shown,
            turn=turn,
            due=due,
        )
    if moment.owed.holds:
        return i18n.ngettext(
            "Waiting for %(names)s to put right a refused line of its orders for turn %(turn)s; "
            "until then the turn waits for its deadline.",
            "Waiting for %(names)s to put right refused lines of their orders for turn %(turn)s; "
            "until then the turn waits for its deadline.",
            refused,
            lang,
            names=shown,
            turn=turn,
        )
    return i18n.ngettext(
        "The orders for turn %(turn)s from %(names)s are on file except a refused line.",
        "The orders for turn %(turn)s from %(names)s are on file except refused lines.",
        refused,
        lang,
        names=shown,
        turn=turn,
    )


def _when_played(moment: Moment, due: str) -> str:
    """Every set is on file: when the turn is played (at once, after the game's DELAY, or at
    its deadline with EARLY off or a WAIT on file)."""
    owed, lang, turn = moment.owed, moment.language, moment.next_turn
    _ = i18n.translator(lang)
    if owed.early_at is not None and owed.delay <= timedelta(0):
        return _("Every player's orders for turn %(turn)s are in.", turn=turn)
    if owed.early_at is not None:
        return i18n.ngettext(
            "All orders for turn %(turn)s are in; the turn is played %(when)s, %(num)s minute "
            "after the last orders came.",
            "All orders for turn %(turn)s are in; the turn is played %(when)s, %(num)s minutes "
            "after the last orders came.",
            int(owed.delay.total_seconds() // 60),
            lang,
            turn=turn,
            when=i18n.shown(owed.early_at, moment.zone, moment.now, lang),
        )
    if owed.early and owed.waited:
        if due:
            return _(
                "All orders for turn %(turn)s are in, but a player asked to WAIT: the turn is "
                "played at its deadline, %(due)s.",
                turn=turn,
                due=due,
            )
        return _(
            "All orders for turn %(turn)s are in, but a player asked to WAIT: the turn is "
            "played at its deadline.",
            turn=turn,
        )
    if due:
        return _(
            "All orders for turn %(turn)s are in; the turn is played at its deadline, %(due)s.",
            turn=turn,
            due=due,
        )
    return _("All orders for turn %(turn)s are in; the turn is played at its deadline.", turn=turn)


def _decision(rules: Rules[Any], game: Game, seat: Seat, moment: Moment, due: str) -> Ask:
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
    said = _owed_by(rules, others, moment, due)
    return Ask(False, _("Nothing is owed by you now: %(owed)s.", owed=said))


def _owed_by(rules: Rules[Any], seats: list[Seat], moment: Moment, due: str) -> str:
    """Who owes the decision and what it is: "Royalist is to choose the first wing, by …"."""
    made = next((d.brief for d in moment.pending.values() if d.brief), "")
    brief = i18n.localized(made, moment.language) or i18n.gettext("decide", moment.language)
    names = i18n.listed([named(rules, seat) for seat in seats], moment.language)
    if moment.language != i18n.SOURCE:
        said = i18n.ngettext(
            "%(names)s is to %(brief)s",
            "%(names)s are to %(brief)s",
            len(seats),
            moment.language,
            names=names,
            brief=brief,
        )
        return (
            i18n.gettext("%(said)s, by %(due)s", moment.language, said=said, due=due)
            if due
            else said
        )
    by = f", by {due}" if due else ""
    # One side's title may be plural ("Royalists"): its verb agrees with the title alone.
    titles = listed([rules.seat_title(seat.seat) for seat in seats])
    verb = agreeing(titles, "is", "are").split()[-1] if len(seats) == 1 else "are"
    return f"{names} {verb} to {brief}{by}"


def waiting_for(rules: Rules[Any], game: Game, moment: Moment, due: str = "") -> str:
    """Who the game waits for, for what, and by ``due`` where one is given, in words for any
    reader (no "you") of ``moment.language``: the game master's mail and the public pages read
    the same sentence. "" when the game waits for no one (over, or paused)."""
    lang = moment.language
    _ = i18n.translator(lang)
    if game.status == GameStatus.FORMING:
        unjoined = [named(rules, seat) for seat in game.seats if seat.joined_at is None]
        names = i18n.listed(unjoined, lang)
        return _("Waiting for %(names)s to join.", names=names) if unjoined else ""
    if game.status != GameStatus.ACTIVE or game.paused:
        return ""
    owing = [seat for seat in game.seats if seat.seat in moment.pending]
    if rules.resolves_on_receipt:
        # A sentence may open with a title that does not begin with a capital.
        said = _owed_by(rules, owing, moment, due)
        return f"{said[:1].upper()}{said[1:]}." if owing else ""
    return _outlook(rules, game, moment, due)


@dataclass(frozen=True)
class Owing:
    """The seats a game waits for, named, and what they owe, for a list read at a glance."""

    seats: list[str]
    what: str  # "orders for turn 3", "choose the first wing", "to join"


def owing(rules: Rules[Any], game: Game, moment: Moment) -> Owing | None:
    """Who the game waits for and for what, in ``moment.language``; None when it waits for no
    one."""
    _ = i18n.translator(moment.language)
    if game.status == GameStatus.FORMING:
        unjoined = [named(rules, seat) for seat in game.seats if seat.joined_at is None]
        return Owing(unjoined, _("to join")) if unjoined else None
    if game.status != GameStatus.ACTIVE or game.paused:
        return None
    seats = [seat for seat in game.seats if seat.seat in moment.pending]
    if rules.resolves_on_receipt:
        made = next((d.brief for d in moment.pending.values() if d.brief), "")
        brief = i18n.localized(made, moment.language)
        what = brief or _("the next %(noun)s", noun=_(rules.turn_noun))
        return Owing([named(rules, s) for s in seats], what)
    owed = moment.owed
    held = [named(rules, seat) for seat in game.seats if seat.seat in owed.waiting_on]
    if not held:
        return None
    if owed.missing:
        return Owing(held, _("orders for turn %(turn)s", turn=moment.next_turn))
    return Owing(held, _("to put right a refused line, turn %(turn)s", turn=moment.next_turn))


def for_gm(rules: Rules[Any], game: Game, moment: Moment) -> Ask:
    """What a game's game master reads first: nothing is owed by them, and who the game waits
    for (their commands change deadlines; they never owe one); in ``moment.language``."""
    _ = i18n.translator(moment.language)
    if game.status not in (GameStatus.FORMING, GameStatus.ACTIVE):
        return Ask(False, _("Nothing is owed: the game is over."), moment.result)
    if game.status == GameStatus.ACTIVE and game.paused:
        return Ask(False, _("Nothing is owed by you: the game is paused until you RESUME it."))
    return Ask(
        False, _("Nothing is owed by you."), waiting_for(rules, game, moment, _due(game, moment))
    )


def now_owed(session: Session, game: Game) -> Moment:
    """What the game waits for now, as the mails' asks read it: the decisions owed after its
    latest turn and what each seat has on file (``on_file.owed``). Read in UTC: pages write the
    deadline as a <time> the browser puts in its reader's zone."""
    rules = play.rules_for(game)
    pending: dict[str, Decision] = {}
    owed = on_file.owed(session, game)
    if game.status == GameStatus.ACTIVE:
        latest = play.latest_turn(session, game.id)
        pending = dict(positions.snapshot(session, rules, latest).owed)
    # idle_close_days only words a mail's "no deadline" line, which no page writes.
    # In the language of the page's reader (the web holds i18n.speaking for each request).
    lang = said.language()
    return Moment(owed.turn, pending, owed, utcnow(), "UTC", 0, lang)


def owed_by_player(game: Game, moment: Moment, player_id: int | None) -> bool:
    """Whether one of the player's seats owes something now (orders not yet on file, a set
    whose refused lines hold the turn, or the decision of a game played one decision at a
    time)."""
    if player_id is None or game.status != GameStatus.ACTIVE or game.paused:
        return False
    owing = moment.owed.waiting_on if moment.owed.seats else tuple(moment.pending)
    return any(seat.player_id == player_id and seat.seat in owing for seat in game.seats)
