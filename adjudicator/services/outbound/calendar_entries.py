"""A turn's deadline as a calendar entry every game mail carries: its UID kept however often the
deadline moves, SEQUENCE following the moves, the cancel of an entry a turn made stale
(``Overtaken``), each made once for all of the mails that carry it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from typing import Any

from sqlalchemy.orm import Session

from adjudicator import i18n
from adjudicator.core.recent import Recent
from adjudicator.mail.building import Attachment
from adjudicator.mail.calendar import CANCEL, PUBLISH, Entry, deadline_event, withdrawal
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus

# Each deadline's entry as made for its first mail, kept by all it says (the entry, its words and
# link) for the next mails that carry the same one: every receipt, status and reminder of a turn
# does, and the entry is the same but for its DTSTAMP, which then says when it was first made.
_MADE: Recent[tuple[Entry, str, str], bytes] = Recent(256)


def calendar_uid(runtime: Runtime, game: Game, turn: int) -> str:
    """A turn's calendar entry keeps this UID however often its deadline moves."""
    return f"game-{game.id}-turn-{turn}@{runtime.config.mail_domain}"


def _calendar_summary(game: Game, turn: int, lang: str = i18n.SOURCE) -> str:
    return i18n.gettext(
        "%(title)s, game %(id)s: orders for turn %(turn)s due",
        lang,
        title=play.rules_for(game).title,
        id=game.id,
        turn=turn,
    )


@dataclass(frozen=True)
class Overtaken:
    """A turn's calendar entry made stale: the turn was played before its deadline, or will
    not be played under it (the game ended, or the turn before it was rolled back)."""

    turn: int
    deadline: datetime
    # Above every SEQUENCE sent for the entry: a calendar ignores a cancel that is not newer.
    sequence: int


def overtaken(game: Game, turn: int, now: datetime) -> Overtaken | None:
    """Turn ``turn``'s entry, to withdraw, when the deadline it announced is still ahead; call
    before the next deadline opens. None once that deadline has come: the entry is simply over,
    and a cancel would strike a past event from the calendar's history."""
    if game.deadline is None or game.deadline <= now:
        return None
    return Overtaken(turn, game.deadline, game.deadline_sequence + 1)


def deadline_calendar(
    runtime: Runtime,
    game: Game,
    turn: int,
    now: datetime,
    overtaken: Overtaken | None = None,
    lang: str = i18n.SOURCE,
) -> list[Attachment]:
    """The next deadline as a calendar entry whose UID stays put while SEQUENCE follows moves,
    then the cancel of the entry a turn played early left behind; its words in ``lang``.

    METHOD belongs to the whole VCALENDAR, so each is a text/calendar part of its own. The next
    deadline comes first: a client that acts on one calendar part only takes the one that
    matters, and at worst keeps the stale entry, as it would have without the cancel."""
    organizer = parseaddr(runtime.config.from_address)[1] or None
    parts = []
    if game.deadline is not None and game.status == GameStatus.ACTIVE:
        entry = Entry(
            uid=calendar_uid(runtime, game, turn),
            sequence=game.deadline_sequence,
            deadline=game.deadline,
            summary=_calendar_summary(game, turn, lang),
            zone=game.timezone,
            organizer=organizer,
        )
        description = i18n.gettext(
            "Reply to your game's mail with your orders for turn %(turn)s.", lang, turn=turn
        )
        url = f"{runtime.config.base_url}/games/{game.id}"
        data = _MADE.get(
            (entry, description, url),
            lambda: deadline_event(entry, description=description, url=url, stamp=now),
        )
        parts.append(
            Attachment(
                f"game{game.id}-turn{turn}-deadline.ics",
                "text",
                "calendar",
                data,
                {"method": PUBLISH},
            )
        )
    if overtaken is not None:
        entry = Entry(
            uid=calendar_uid(runtime, game, overtaken.turn),
            sequence=overtaken.sequence,
            deadline=overtaken.deadline,
            summary=_calendar_summary(game, overtaken.turn, lang),
            zone=game.timezone,
            organizer=organizer,
        )
        data = withdrawal(entry, stamp=now)
        parts.append(
            Attachment(
                f"game{game.id}-turn{overtaken.turn}-cancelled.ics",
                "text",
                "calendar",
                data,
                {"method": CANCEL},
            )
        )
    return parts


def calendar_once(
    session: Session,
    runtime: Runtime,
    game: Game,
    turn: int,
    when: tuple[datetime, Overtaken | None],
    lang: str = i18n.SOURCE,
) -> list[Attachment]:
    """``deadline_calendar``, made once per session for the same deadline and language: every
    seat's mail of a turn carries the same entries (stamped when the first was made), in its
    reader's words."""
    now, stale = when
    memo: dict[tuple[Any, ...], list[Attachment]] = session.info.setdefault("pbem.calendars", {})
    key = (game.id, turn, game.status, game.deadline, game.deadline_sequence, stale, lang)
    if key not in memo:
        memo[key] = deadline_calendar(runtime, game, turn, now, stale, lang)
    return memo[key]
