"""What the model test of a game's life (tests/test_lifecycle_model.py) reads and drives: a
clock the whole service reads, fresh tables between examples, the mail the service wrote
(classified into the news each mail tells its reader), what a mail or a page says about the game,
and the order texts a player writes."""

from __future__ import annotations

import importlib
import re
import shutil
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from icalendar import Calendar
from sqlalchemy import delete, select

from adjudicator import models
from adjudicator.models import Base, OutboxMessage, Submission, UTCDateTime
from adjudicator.services.record.runtime import Runtime


class Clock:
    """The one moment every part of the service reads as now; the model moves it forward."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, span: timedelta) -> None:
        self.now += span


def read_by_the_service(clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``clock`` the service's now: ``models.utcnow`` wherever it was imported, and every
    timestamp column's default (the code has no clock of its own to hand in)."""
    # Every module that reads the time loaded first: one loaded later would keep the clock for
    # good (its name bound while patched), and every later test would read a stopped clock.
    package = Path(models.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if "utcnow" in path.read_text(encoding="utf-8") and "migrations" not in path.parts:
            parts = path.relative_to(package.parent).with_suffix("").parts
            importlib.import_module(".".join(parts).removesuffix(".__init__"))
    original = models.utcnow
    for name, module in list(sys.modules.items()):
        if name.startswith("adjudicator") and getattr(module, "utcnow", None) is original:
            monkeypatch.setattr(module, "utcnow", clock)
    for table in Base.metadata.tables.values():
        for column in table.columns:
            default = column.default
            if isinstance(column.type, UTCDateTime) and default is not None and default.is_callable:
                # SQLAlchemy keeps what a column's default calls in a memo on the column, made at
                # its first insert: made now from the real default (and restored so once the test
                # ends), and dropped while the clock is patched in, so inserts read the clock and
                # no later test keeps reading this stopped one.
                _ = column._default_description_tuple
                monkeypatch.setattr(default, "arg", lambda context: clock())
                monkeypatch.delitem(column.__dict__, "_default_description_tuple")


def empty(runtime: Runtime) -> None:
    """Every row and every mail file gone, and nothing queued: a fresh service for an example
    (ids go on rising, so nothing kept by id in a process meets an earlier example's game)."""
    with runtime.db.session() as session:
        for table in reversed(Base.metadata.sorted_tables):
            session.execute(delete(table))
    shutil.rmtree(runtime.config.outbox_dir, ignore_errors=True)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Mail:
    """One outbox row as its reader gets it."""

    id: int
    key: str
    kind: str
    to: str
    subject: str
    status: str
    message: EmailMessage

    @property
    def what(self) -> str:
        return self.subject.split(" · ", 1)[-1]

    @property
    def text(self) -> str:
        body = self.message.get_body(preferencelist=("plain",))
        assert body is not None, self.subject
        return str(body.get_content()).replace("\r\n", "\n")

    def calendars(self) -> list[tuple[str, Any]]:
        """Each calendar part: its method and its event."""
        found = []
        for part in self.message.walk():
            if part.get_content_type() == "text/calendar":
                calendar = Calendar.from_ical(part.get_payload(decode=True))
                [event] = calendar.walk("VEVENT")
                found.append((str(calendar["METHOD"]), event))
        return found


def mails_after(runtime: Runtime, last: int) -> list[Mail]:
    """The outbox rows after id ``last``, oldest first."""
    with runtime.db.session() as session:
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.id > last).order_by(OutboxMessage.id)
        ).all()
        return [
            Mail(
                row.id,
                row.key,
                row.kind,
                row.to_address,
                row.subject,
                str(row.status),
                BytesParser(policy=policy.default).parsebytes(row.raw),  # type: ignore[arg-type]
            )
            for row in rows
        ]


_NOTICES = {
    "game paused": "paused",
    "game resumed": "resumed",
    "deadline moved": "moved",
}


def _number(text: str) -> str:
    found = re.search(r"(?:turn|step)[: ](\d+)", text)
    return found.group(1) if found else "?"


def news(mail: Mail, ending: set[int]) -> list[str]:
    """What ``mail`` tells its reader: an answer to one of their mails (``answer:<inbound id>``)
    and the changes it announces (start, turn:<n>, paused, resumed, moved, rolledback:<n>,
    replaced, reminder, over). ``ending``: the mails whose answer is the game's end (RESIGN)."""
    answered = re.match(r"inbound:(\d+):reply$", mail.key)
    answer = [f"answer:{answered.group(1)}"] if answered else []
    what, kind = mail.what, mail.kind
    over = ["over"] if what.startswith("game over") else []
    if kind == "report":
        return [f"turn:{_number(mail.key)}", *over]
    if kind == "start":
        return ["start"]
    if kind == "invitation" and not answer:
        return ["invited"]
    if kind == "reminder":
        return ["reminder"]
    if kind == "notice":
        if what in _NOTICES:
            return [_NOTICES[what]]
        if what.endswith("rolled back"):
            return [f"rolledback:{_number(what)}"]
        if what.endswith("has a new player"):
            return ["replaced"]
        return over or [f"notice:{what}"]
    if kind == "game-over" and ":event:" in mail.key:
        # The end a resignation made, told to every seat; the resigner's answers their RESIGN
        # (a game ends once, so ``ending`` holds that one mail).
        # Our own mail's ids are at our domain; the players' at theirs (example.com).
        replying = str(mail.message["In-Reply-To"] or "").endswith("@example.com>")
        return ["over", *(f"answer:{inbound}" for inbound in ending if replying)]
    if kind == "game-over":
        return answer + (over if answered and int(answered.group(1)) in ending else [])
    if kind == "gm" and not answer:
        if what.startswith("game started"):
            return ["start"]
        return over or [f"turn:{_number(what)}"]
    return answer or [f"{kind}:{what}"]


def told(mails: list[Mail], ending: set[int]) -> Counter[tuple[str, str]]:
    """Every (reader, news) pair the mails carry, counted."""
    return Counter((mail.to, item) for mail in mails for item in news(mail, ending))


# What a mail or page must never say of a game that is over.
OFFERS = ("Send one action", "WHAT YOU CAN DO NOW", "You owe", " in play.")
# A mail's deadline as its ask writes it in a game on UTC.
DEADLINE = re.compile(r"\b\w{3} \d{2} \w{3} \d{4} \d{2}:\d{2} UTC\b")
ALL_IN = re.compile(r"Every player's orders(?: for turn (\d+))? are in")


def ask_of(text: str) -> str:
    """The reader's ask: the mail's opening lines, before its first blank line."""
    return text.split("\n\n", 1)[0]


def state_said(text: str) -> str:
    """What a mail's ask says the game is: over, paused, or in play."""
    ask = ask_of(text)
    if "the game is over" in ask:
        return "over"
    if "paused" in ask:
        return "paused"
    return "in play"


def deadline_said(text: str) -> datetime | None:
    found = DEADLINE.search(ask_of(text))
    if found is None:
        return None
    return datetime.strptime(found.group(0), "%a %d %b %Y %H:%M UTC").replace(tzinfo=UTC)


def turn_claimed_all_in(text: str) -> int | None:
    """The turn a mail says every player's orders are in for, if it says so."""
    found = ALL_IN.search(text)
    if found is None:
        return None
    if found.group(1):
        return int(found.group(1))
    on_file = re.search(r"orders for turn (\d+) are on file", text)
    return int(on_file.group(1)) if on_file else -1


def minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def complete_sets(runtime: Runtime, game_id: int, turn: int) -> tuple[dict[str, bool], bool]:
    """Per seat with an accepted set on file for ``turn``: whether its latest such set has every
    line accepted; and whether any seat asked the turn to WAIT."""
    with runtime.db.session() as session:
        rows = session.scalars(
            select(Submission)
            .where(Submission.game_id == game_id, Submission.turn_number == turn)
            .order_by(Submission.id)
        ).all()
        complete: dict[str, bool] = {}
        for row in rows:
            if row.accepted:
                report = row.report or []
                complete[row.seat] = all(line.get("status") != "rejected" for line in report)
        return complete, any(row.wait for row in rows)


def thermopyles_text(orders: dict[str, Any]) -> str:
    """A Thermopyles action as its player writes it (the game offers no ``orders_text``)."""
    discard = f"DISCARD {orders['discard']}\n" if orders.get("discard") is not None else ""
    if orders["action"] == "retreat":
        return discard + ("RETREAT" if orders.get("draw", True) else "RETREAT NODRAW")
    return discard + f"FIGHT {orders['value']} SUPPORT {orders.get('support', 0)}"


# A line each game reads as an order attempt and refuses (a word misspelt, a place that is not).
MISSPELT = {"2demayo": "DRAWW", "musketpike": "16-99 x1", "thermopyles": "RETREATT"}
