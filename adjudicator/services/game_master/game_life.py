"""A game's life as its game master reads it on the panel: every change so far, who was told of
it and when, and what the service will do next and when.

The changes are those ``transitions`` records (and the turns played); what comes next is read
from the same columns the scheduler acts on (the deadline and its grace, the pause, a forced
turn, each seat's reminder), never worked out again beside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.i18n import N_
from adjudicator.models import Game, utcnow
from adjudicator.services.outbound import asks
from adjudicator.services.record import on_file, play, positions, reasons, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.services.words import preferences
from adjudicator.statuses import GameStatus


@dataclass(frozen=True)
class Told:
    """One mail that told someone of a change."""

    who: str  # a seat's title and player's name, or "the game master"
    to: str  # the address (the game master's page shows addresses)
    written: datetime
    sent: datetime | None
    status: str


@dataclass(frozen=True)
class Change:
    at: datetime
    what: str  # in words
    turn: int
    by: str  # in words
    note: str
    told: list[Told]
    # Where those it concerns read of it when no mail was its own.
    silent: str = ""


@dataclass(frozen=True)
class Next:
    """Something the service will do by itself, and when (None: as soon as it can)."""

    what: str
    when: datetime | None


@dataclass(frozen=True)
class Life:
    game_id: int
    title: str
    changes: list[Change]
    coming: list[Next]
    timezone: str


def view(runtime: Runtime, game_id: int, now: datetime | None = None) -> Life | None:
    """The game's life so far and what comes next, in the current reader's language."""
    now = now or utcnow()
    lang = said.language()
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            return None
        rules = play.rules_for(game)
        who = _recipients(game)
        changes = [
            Change(
                at=item.at,
                what=i18n.gettext(transitions.TABLE[item.kind].words, lang),
                turn=item.turn,
                by=_by(game, item.by, lang),
                note=item.note,
                told=[
                    Told(who.get(mail.to, mail.to), mail.to, mail.written, mail.sent, mail.status)
                    for mail in item.told
                ],
                silent=_silent(item.kind, lang),
            )
            for item in transitions.history(session, game)
        ]
        return Life(game.id, rules.title, changes, _coming(session, game, now), game.timezone)


def _silent(kind: str, lang: str) -> str:
    if transitions.TABLE[kind].seats in (transitions.Told.REPORT, transitions.Told.END):
        return i18n.gettext("The players read it in the turn's report.", lang)
    return i18n.gettext("No mail of its own: those it concerns read it in their next mail.", lang)


def _recipients(game: Game) -> dict[str, str]:
    """Each address the game mails, as the game master reads it."""
    rules = play.rules_for(game)
    named = {seat.player.address: asks.named(rules, seat) for seat in game.seats}
    if game.gm is not None:
        named.setdefault(game.gm.address, i18n.gettext("you, the game master", said.language()))
    return named


# Who made a change, by the word it is recorded with.
_BY = {"gm": N_("the game master"), "service": N_("the service")}


def _by(game: Game, by: str, lang: str) -> str:
    if by in _BY:
        return i18n.gettext(_BY[by], lang)
    if by in reasons.TURN_REASONS:
        return reasons.turn_reason(by, lang=lang)
    if any(seat.seat == by for seat in game.seats):
        return play.seat_title(game, by)
    return by


def _coming(session: Session, game: Game, now: datetime) -> list[Next]:
    """What the service will do next by itself, from the state the scheduler reads."""
    lang = said.language()
    _ = i18n.translator(lang)
    if game.status == GameStatus.FORMING:
        return [
            Next(_("Nothing until every invited player has joined; then the game starts."), None)
        ]
    if game.status != GameStatus.ACTIVE:
        return [Next(_("Nothing: the game is over."), None)]
    if game.paused:
        return [Next(_("Nothing until you resume the game."), None)]
    rules = play.rules_for(game)
    turn = play.latest_turn(session, game.id)
    number = turn.number + 1
    if game.forced_at is not None:
        return [Next(_("Turn %(turn)s is being played now, as you asked.", turn=number), None)]
    if game.deadline is None:
        return [Next(_("Nothing by itself: the game moves when its player acts."), None)]
    due = game.deadline + timedelta(minutes=game.grace_minutes)
    coming = [
        Next(
            _(
                "Turn %(turn)s is played at its deadline, with the default for any seat "
                "without orders.",
                turn=number,
            )
            if not rules.resolves_on_receipt
            else _("At the deadline, the decision owed is taken by its default."),
            due,
        )
    ]
    # The seats the tick would remind: owing, with nothing on file, not yet reminded.
    filed = on_file.owed(session, game, turn)
    early = filed.early_at
    if early is not None:
        coming.append(
            Next(
                _("Every order is in: turn %(turn)s is played then.", turn=number), max(early, now)
            )
        )
    owed = set(positions.snapshot(session, rules, turn).owed) - filed.on_file
    waiting = [
        seat
        for seat in game.seats
        if seat.seat in owed and seat.reminded_sequence != game.deadline_sequence
    ]
    for seat, at in deadlines.reminders_at(session, waiting).items():
        if not preferences.on_vacation(seat.player, max(at, now)):
            reminded = _("%(seat)s is reminded, if still owing.", seat=asks.named(rules, seat))
            coming.append(Next(reminded, max(at, now)))
    return sorted(coming, key=lambda item: item.when or now)
