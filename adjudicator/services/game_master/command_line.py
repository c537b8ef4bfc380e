"""One game-master command line being run (``Asked``): what its handler works on, the answer it
gives (``Answer``), and how a change it makes is told to every player (``announce``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.models import Game
from adjudicator.services.game_master import notices
from adjudicator.services.outbound import calendar_entries
from adjudicator.services.record.runtime import Runtime


@dataclass(frozen=True)
class Asked:
    """One command line being run: what its handler works on. ``argument`` is the line after the
    command word; ``key`` makes the notices it sends unique to this line."""

    session: Session
    runtime: Runtime
    game: Game
    argument: str
    key: str
    now: datetime
    # The game master's language: what the answer is written in.
    language: str = i18n.SOURCE

    def _(self, message: str, **values: Any) -> str:
        """``message`` in the game master's language."""
        return i18n.gettext(message, self.language, **values)


# A command's answer: whether it was done, and the sentence for the game master.
Answer = tuple[bool, str]


def announce(
    asked: Asked,
    message: str,
    what: str,
    words: dict[str, Any] | None = None,
    overtaken: calendar_entries.Overtaken | None = None,
    note: str = "",
) -> None:
    """Tell every player what the game master did (``notices.announce``)."""
    change = notices.Change(what, message, "gm", asked.now, note, words or {}, overtaken)
    notices.announce(asked.session, asked.runtime, asked.game, change)
