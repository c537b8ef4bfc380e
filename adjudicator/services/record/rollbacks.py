"""What a turn played again after the game master's ROLLBACK says of the version it replaces.

A rolled-back turn stays on record (``Turn.rolled_back_at``, with the game master's note), and the
turn is played again under the same number; its report is a new mail (keyed by the new row) that
says it replaces the earlier report and why.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import i18n, limits
from adjudicator.i18n import N_
from adjudicator.models import Turn

# What a rollback without a reason stores as its note (gm._rollback).
NO_REASON = N_("no reason given")


def note(reason: str) -> str:
    """The note a rollback stores: the game master's reason, or that none was given."""
    return reason or NO_REASON


def replaced(session: Session, turn: Turn, lang: str) -> str | None:
    """Why ``turn`` was played again, in ``lang``, where it replaces a version of the same
    number that the game master rolled back (the latest such version's note); None for a turn
    played once. Looked up once per session for every seat's report of the turn."""
    memo: dict[int, str | None] = session.info.setdefault("pbem.replaced", {})
    if turn.id not in memo:
        memo[turn.id] = session.scalar(
            select(Turn.rollback_note)
            .where(
                Turn.game_id == turn.game_id,
                Turn.number == turn.number,
                Turn.rolled_back_at.is_not(None),
            )
            .order_by(Turn.id.desc())
            .limit(1)
        )
    found = memo[turn.id]
    if found is None:
        return None
    # A rollback without a reason: that sentence, in the reader's language.
    return i18n.gettext(NO_REASON, lang) if found in ("", NO_REASON) else limits.reason(found)
