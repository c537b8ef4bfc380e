"""A change of a game told to every seat: on record first (``transitions.record``), then one
notice per seat in its player's language, keyed by the change's id, so that the same change made
again is told again and a mail processed again tells nobody twice."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.models import Game
from adjudicator.services.outbound import reports
from adjudicator.services.record import play, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus

# A notice's subject word where it differs from its change's kind.
_KINDS = {"over": "ended"}

# The notices that carry the map: a rollback changes the position, a new player has never seen
# it, and the game's end shows it last; the others (pause, deadline) change nothing on the board.
_SHOWS_MAP = frozenset({"rolled-back", "replaced", "over"})


@dataclass(frozen=True)
class Change:
    """A change to tell: its kind in ``transitions.TABLE`` (or "over"), which names it in the
    subject; the ``message`` (made with core.said); who made it (``by``), when, and the reason
    given (``note``)."""

    what: str
    message: str
    by: str
    now: datetime
    note: str = ""
    words: dict[str, Any] = field(default_factory=dict)
    # The calendar entry the change leaves stale, withdrawn in the notices.
    overtaken: reports.Overtaken | None = None


def announce(session: Session, runtime: Runtime, game: Game, change: Change) -> None:
    """Tell every seat of ``game`` of ``change``, each in its player's language."""
    forming = game.status == GameStatus.FORMING
    turn = 0 if forming else play.latest_turn(session, game.id).number + 1
    kind = _KINDS.get(change.what, change.what)
    event = transitions.record(
        session, game, kind, change.now, by=change.by, turn=turn, note=change.note
    )
    for seat in game.seats:
        lang = play.language(seat.player, game)
        notice = reports.SeatLetter(
            key=transitions.key(event, seat.seat),
            kind="notice",
            template="notice",
            what=change.what,
            extra={"message": i18n.localized(change.message, lang)},
            words=change.words,
            map=change.what in _SHOWS_MAP,
        )
        reports.mail_seat(session, runtime, game, seat, notice, overtaken=change.overtaken)
