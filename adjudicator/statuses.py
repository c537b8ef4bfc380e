"""The fixed statuses a stored row moves through: a game, an inbound message, an outbound mail.

StrEnums, so a member is the very text stored in its column: it equals that text and prints as
it (logs, JSON, templates), while code names the member, and a misspelt status fails at once
instead of matching nothing. Kept apart from the models so that web and workers, which never
touch the database, name them too. (A game's own phases, such as a side having won, are game
state, in adjudicator/games.)
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar


class GameStatus(StrEnum):
    """forming (until every invited player has answered JOIN) -> active -> finished | closed."""

    FORMING = "forming"
    ACTIVE = "active"
    # Played out, resigned or ended by the game master.
    FINISHED = "finished"
    # Never played out: left idle, or still running when its shared deal ended.
    CLOSED = "closed"


class InboundStatus(StrEnum):
    """received -> done | ignored | rejected | failed."""

    RECEIVED = "received"
    DONE = "done"
    # Kept and never answered: automatic mail, bounces, mail over a sender's limit ...
    IGNORED = "ignored"
    REJECTED = "rejected"
    # A bug while processing (the parser's included): parked for `pbem mail retry`. Bytes that
    # are no mail are REJECTED: no retry reads them better.
    FAILED = "failed"


class OutboxStatus(StrEnum):
    """pending -> sending -> sent | pending (to retry) | failed (out of tries) | bounced (the
    relay refused it for good); sent -> bounced when a failure report comes back to its return
    path."""

    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    BOUNCED = "bounced"


S = TypeVar("S", bound=StrEnum)


def parse(kind: type[S], text: str) -> S | None:
    """The member of ``kind`` that ``text`` names exactly, or None when it names none."""
    try:
        return kind(text)
    except ValueError:
        return None
