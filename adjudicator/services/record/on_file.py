"""The orders on file for a turn: what each seat owes for it (``owed``, worked out here once and
read by every mail, page, the panel and the scheduler), the set that counts per seat, its text,
and what a seat has sent (for ORDERS)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n, limits
from adjudicator.models import Game, Submission, Turn
from adjudicator.services.record import play, positions
from adjudicator.statuses import GameStatus


class Filed(StrEnum):
    """What a seat owing orders has on file for the turn."""

    NOTHING = "nothing"  # no set: the defaults stand at the deadline if none comes
    WHOLE = "whole"  # a set whose every line was accepted
    PARTIAL = "partial"  # a set filed without its refused lines: it stands at the deadline


@dataclass(frozen=True)
class SeatOwes:
    """One seat's part in the turn being ordered."""

    filed: Filed = Filed.NOTHING
    refused: int = 0  # the lines of the set on file left out as refused
    waits: bool = False  # the seat asked the turn to WAIT for its deadline


@dataclass(frozen=True)
class Owed:
    """What every seat owing orders for the turn being ordered has on file, and from it
    whether (and when) the turn may be played before its deadline. Empty ``seats`` in a game
    that owes no orders now (over, forming, or moving on receipt)."""

    turn: int
    seats: Mapping[str, SeatOwes]
    early: bool = False  # EARLY on and the game not paused
    delay: timedelta = timedelta(0)  # DELAY: how long after the last orders
    waited: bool = False  # some seat asked the turn to WAIT
    last_filed: datetime | None = None  # when the last set on file came

    def _with(self, filed: Filed) -> tuple[str, ...]:
        return tuple(seat for seat, owes in self.seats.items() if owes.filed is filed)

    @property
    def missing(self) -> tuple[str, ...]:
        """The seats with no set on file."""
        return self._with(Filed.NOTHING)

    @property
    def incomplete(self) -> tuple[str, ...]:
        """The seats whose set on file has refused lines."""
        return self._with(Filed.PARTIAL)

    @property
    def on_file(self) -> frozenset[str]:
        """The seats with a set on file, whole or not."""
        return frozenset(
            seat for seat, owes in self.seats.items() if owes.filed is not Filed.NOTHING
        )

    @property
    def holds(self) -> bool:
        """Whether a set with refused lines holds the turn back: only where it would
        otherwise be played early (EARLY on, and nobody asked to WAIT)."""
        return self.early and not self.waited

    @property
    def waiting_on(self) -> tuple[str, ...]:
        """The seats the turn waits for: no set on file, or one whose refused lines hold it."""
        return self.missing + (self.incomplete if self.holds else ())

    @property
    def all_in(self) -> bool:
        return bool(self.seats) and not self.missing

    @property
    def early_at(self) -> datetime | None:
        """When the turn is played before its deadline: every set whole, EARLY on, no WAIT;
        the last set's arrival plus the game's DELAY. None: it waits for its deadline."""
        if not (self.holds and self.all_in and not self.incomplete) or self.last_filed is None:
            return None
        return self.last_filed + self.delay

    def resolves_early(self, now: datetime) -> bool:
        """Whether the turn may be played now, before its deadline (without a DELAY, as soon as
        the last set is whole, whatever the clocks of the workers say)."""
        at = self.early_at
        return at is not None and (self.delay <= timedelta(0) or at <= now)


def owed(session: Session, game: Game, turn: Turn | None = None) -> Owed:
    """What each seat owes for the turn after ``turn`` (the latest when not given)."""
    rules = play.rules_for(game)
    if turn is None and game.status != GameStatus.ACTIVE:
        return Owed(0, {})
    turn = turn or play.latest_turn(session, game.id)
    number = turn.number + 1
    if rules.resolves_on_receipt or game.status != GameStatus.ACTIVE:
        return Owed(number, {})
    # The snapshot the mail's reading and its reply share: the state is loaded once a session.
    pending = positions.snapshot(session, rules, turn).owed
    latest: dict[str, Submission] = {}
    waits: set[str] = set()
    for row in play.submissions(session, game.id, number):
        if row.wait:
            waits.add(row.seat)
        elif row.accepted:
            latest[row.seat] = row
    last = max((row.created_at for row in latest.values()), default=None)
    # After a rollback the sets kept from before it stand at the deadline; a set sent since is
    # what makes the replayed turn early (else it would be played again at once, unchanged).
    kept = game.rolled_back_at is not None and (last is None or last <= game.rolled_back_at)
    return Owed(
        number,
        {seat: _seat_owes(latest.get(seat), seat in waits) for seat in pending},
        early=game.early and not game.paused and not kept,
        delay=timedelta(minutes=limits.DELAY.bounded(game.early_delay_minutes)),
        waited=bool(waits),
        last_filed=last,
    )


def _seat_owes(row: Submission | None, waits: bool) -> SeatOwes:
    if row is None:
        return SeatOwes(Filed.NOTHING, 0, waits)
    refused = len(_lines(row, "rejected"))
    return SeatOwes(Filed.PARTIAL if refused else Filed.WHOLE, refused, waits)


def current_orders(session: Session, game: Game, turn_number: int) -> dict[str, Any]:
    """The latest accepted order set per seat for this turn: the last one received counts (a
    set filed without its refused lines too: it stands at the deadline)."""
    return {
        row.seat: row.orders
        for row in play.submissions(session, game.id, turn_number)
        if row.accepted
    }


def orders_text_on_file(session: Session, game: Game, seat: str, turn_number: int) -> str | None:
    """The text of the seat's accepted order set for the turn, the one that counts now: its
    accepted lines, so that a set joined to it (ADD) leaves the refused ones behind."""
    counting = next(
        (row for row in _sets_of(session, game, seat, turn_number) if row.accepted), None
    )
    if counting is None:
        return None
    return "\n".join(_lines(counting, "accepted")) or counting.text


def orders_on_file(
    session: Session, game: Game, seat: str, turn_number: int, lang: str = i18n.SOURCE
) -> dict[str, Any]:
    """What the seat has sent for a turn: the last set when it was refused, the set that
    counts, and the lines left out of it as refused; its summary in ``lang``."""
    _ = i18n.translator(lang)
    sets = [row for row in _sets_of(session, game, seat, turn_number) if not row.wait]
    counting = next((row for row in sets if row.accepted), None)
    last = sets[0] if sets else None
    refused = _lines(counting, "rejected") if counting is not None else []
    if last is None:
        summary = _(
            "no orders on file for turn %(turn)s; the defaults apply if none come", turn=turn_number
        )
    elif last.accepted and refused:
        summary = i18n.ngettext(
            "your orders for turn %(turn)s are on file except one refused line (below)",
            "your orders for turn %(turn)s are on file except %(num)s refused lines (below)",
            len(refused),
            lang,
            turn=turn_number,
        )
    elif last.accepted:
        summary = _("your orders for turn %(turn)s are on file and count (below)", turn=turn_number)
    elif counting is not None:
        summary = _(
            "your last orders for turn %(turn)s were refused; the earlier set below counts",
            turn=turn_number,
        )
    else:
        summary = _(
            "your orders for turn %(turn)s were refused: nothing counts yet", turn=turn_number
        )
    whole = last is not None and last.accepted and not refused
    return {
        "turn": turn_number,
        "summary": summary,
        # A whole set is shown as sent; one with refused lines as the set that counts.
        "last": _order_lines(last) if last is not None and (whole or not last.accepted) else [],
        "accepted": whole,
        "counting": _lines(counting, "accepted") if counting is not None and not whole else [],
        "refused": refused,
    }


def _lines(submission: Submission, status: str) -> list[str]:
    """The lines of a stored set that the game read with this status."""
    return [line["text"] for line in submission.report or [] if line.get("status") == status]


def _order_lines(submission: Submission) -> list[str]:
    """The lines of a stored set the game read as orders: greetings and the like left out."""
    read = [line["text"] for line in submission.report if line.get("status") != "ignored"]
    return read or submission.text.splitlines()


def _sets_of(session: Session, game: Game, seat: str, turn_number: int) -> list[Submission]:
    """What a seat sent for a turn, the last first."""
    return [
        row for row in reversed(play.submissions(session, game.id, turn_number)) if row.seat == seat
    ]
