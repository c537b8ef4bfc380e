"""The invariants of the model test of a game's life (tests/test_lifecycle_model.py), checked
after every step: the mixin reads the state machine's model (what it expects each reader to have
been told, whether the game is over or paused, how many turns are live) and the service."""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any
from xml.etree import ElementTree as ET

from hypothesis.stateful import invariant
from lifecycle_model import (
    OFFERS,
    Mail,
    complete_sets,
    deadline_said,
    minute,
    state_said,
    told,
    turn_claimed_all_in,
)
from sqlalchemy import select

from adjudicator.models import InboundMessage

LEAVE_OUT = set(filter(None, os.environ.get("PBEM_MODEL_LEAVE_OUT", "").split(",")))
ATOM = "{http://www.w3.org/2005/Atom}"


def _stamp(moment: Any) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


class Checks:
    """The invariants; the state machine supplies the model (see GameLife)."""

    runtime: Any
    clock: Any
    web: Any
    game_id: int
    kind: str
    expected: Counter[tuple[str, str]]
    optional: Counter[tuple[str, str]]
    ending: set[int]
    mails: list[Mail]
    delivered: int
    seats: dict[str, str]
    gm: str | None
    over: bool
    paused: bool
    turns: int
    resigner: str
    replayed: set[str]
    claims_read = 0

    def complete_sets(self, turn: int) -> tuple[dict[str, bool], bool]:
        return complete_sets(self.runtime, self.game_id, turn)

    def row(self) -> Any: ...

    def readers(self) -> list[str]: ...

    def _left_out(self, counts: Counter[tuple[str, str]]) -> Counter[tuple[str, str]]:
        """The counts without the news a development run leaves out (PBEM_MODEL_LEAVE_OUT)."""
        kept: Counter[tuple[str, str]] = Counter()
        for (reader, item), count in counts.items():
            if "gm-turns" in LEAVE_OUT and reader == self.gm and item.startswith("turn:"):
                continue
            resigned = "resign-others" in LEAVE_OUT and self.resigner and item == "over"
            if resigned and reader not in (self.resigner, self.gm):
                continue
            if "replay" in LEAVE_OUT and item in self.replayed:
                continue
            kept[(reader, item)] = count
        return kept

    @invariant()
    def each_reader_is_told_each_change_once(self) -> None:
        actual = self._left_out(told(self.mails, self.ending))
        expected = self._left_out(self.expected)
        optional = self.optional
        wrong = {
            key: f"expected {expected[key]}"
            + (f" to {expected[key] + optional[key]}" if optional[key] else "")
            + f", told {actual[key]}"
            for key in sorted(set(actual) | set(expected))
            if not expected[key] <= actual[key] <= expected[key] + optional[key]
        }
        assert not wrong, f"told-once: {wrong}"

    @invariant()
    def no_mail_claims_what_the_state_contradicts(self) -> None:
        fresh, self.claims_read = self.mails[self.claims_read :], len(self.mails)
        _, _, owing = self.row()
        complete, _ = self.complete_sets(self.turns + 1)
        waiting = [seat for seat in owing if not complete.get(seat)]
        for mail in fresh:
            text = mail.text
            if state_said(text) == "over":
                offered = [words for words in OFFERS if words in text]
                if "ended-offers" not in LEAVE_OUT:
                    assert not offered, f"ended game's mail to {mail.to} offers {offered}"
            claimed = turn_claimed_all_in(text)
            wrong = claimed in (self.turns + 1, -1) and not self.over and waiting
            if wrong and "partial-claim" not in LEAVE_OUT:
                raise AssertionError(
                    f"mail {mail.subject!r} to {mail.to} says every player's orders are in "
                    f"while turn {self.turns + 1} waits for {waiting}"
                )

    @invariant()
    def pages_feed_calendar_and_last_mail_agree(self) -> None:
        game, _, _ = self.row()
        status = "finished" if self.over else "active"
        api = self.web.get(f"/api/games/{self.game_id}")
        assert api.status_code == 200, api.status_code
        data = api.get_json()
        assert data["status"] == status and (self.over or data["paused"] == self.paused), data
        live = [turn["number"] for turn in data["turns"] if not turn["rolled_back"]]
        assert max(live) == self.turns, (live, self.turns)
        deadline = game.deadline if not self.over else None
        assert data["deadline"] == (_stamp(deadline) if deadline else None), data["deadline"]
        self._feed_agrees(status)
        self._page_agrees(deadline)
        for reader in self.readers():
            self._last_mail_agrees(reader, game)

    def _feed_agrees(self, status: str) -> None:
        feed = self.web.get(f"/games/{self.game_id}/feed.atom")
        assert feed.status_code == 200, feed.status_code
        root = ET.fromstring(feed.get_data())
        subtitle = root.findtext(f"{ATOM}subtitle") or ""
        assert subtitle.startswith(status), subtitle
        ids = [entry.findtext(f"{ATOM}id", "") for entry in root.iter(f"{ATOM}entry")]
        # The turns' entries; the game's changes and its end have entries of their own.
        numbers = [int(entry.rsplit("-", 1)[1]) for entry in ids if "-turn-" in entry]
        assert max(numbers, default=0) == self.turns, (numbers, self.turns)

    def _page_agrees(self, deadline: Any) -> None:
        page = self.web.get(f"/games/{self.game_id}")
        assert page.status_code == 200, page.status_code
        html = page.get_data(as_text=True)
        if self.over:
            assert "The game is over" in html
        elif self.paused:
            assert "paused by the game master" in html
        else:
            assert "The game is over" not in html and "paused by the game master" not in html
            if deadline is not None:
                assert f'datetime="{_stamp(deadline)}"' in html, "the page's deadline"
        assert f'id="turn-{self.turns}"' in html and f'id="turn-{self.turns + 1}"' not in html
        if not self.over and not self.paused and "partial-claim" not in LEAVE_OUT:
            found = re.search(r"Every player's orders for turn (\d+) are in", html)
            complete, _ = self.complete_sets(self.turns + 1)
            if found:
                _, _, owing = self.row()
                assert all(complete.get(seat) for seat in owing), "the page says all are in"

    def _last_mail_agrees(self, reader: str, game: Any) -> None:
        if "resign-others" in LEAVE_OUT and self.resigner and reader != self.resigner:
            return
        if ("gm-turns" in LEAVE_OUT and reader == self.gm) or (
            "replay" in LEAVE_OUT and self.replayed
        ):
            return
        mine = [mail for mail in self.mails if mail.to == reader]
        last = mine[-1]
        said = state_said(last.text)
        state = "over" if self.over else "paused" if self.paused else "in play"
        assert said == state, f"the last mail to {reader} ({last.subject!r}) says {said}: {state}"
        position = re.search(r"POSITION AFTER (?:TURN|STEP) (\d+)", last.text)
        if position and not (self.over and reader == self.resigner):
            assert int(position.group(1)) == self.turns, f"{reader}: {last.subject!r}"
        if state == "in play" and game.deadline is not None:
            shown = deadline_said(last.text)
            if shown is not None or "Every player's orders" not in last.text:
                assert shown == minute(game.deadline), f"{reader}: {last.subject!r} says {shown}"
        self._calendar_agrees(reader, mine, game)

    def _calendar_agrees(self, reader: str, mine: list[Mail], game: Any) -> None:
        entries = next((m.calendars() for m in reversed(mine) if m.calendars()), [])
        if not entries:
            return
        methods = dict(entries)
        if self.over:
            if "ended-calendar" in LEAVE_OUT or "PUBLISH" not in methods:
                return
            end = methods["PUBLISH"].end
            assert game.finished_at is not None and end <= game.finished_at, (
                f"{reader}'s calendar keeps an entry at {end} of a game that ended "
                f"{game.finished_at}"
            )
            return
        assert "PUBLISH" in methods, f"{reader}'s last calendar part withdraws the deadline"
        event = methods["PUBLISH"]
        uid = f"game-{self.game_id}-turn-{self.turns + 1}@"
        assert str(event["UID"]).startswith(uid), (reader, event["UID"], uid)
        assert game.deadline is not None and event.end == game.deadline, (event.end, game.deadline)
        assert int(event["SEQUENCE"]) == game.deadline_sequence, (reader, event["SEQUENCE"])

    @invariant()
    def nothing_failed_and_every_mail_is_stored(self) -> None:
        unsent = [(m.to, m.subject, m.status) for m in self.mails if m.status != "sent"]
        assert not unsent, f"mail not sent: {unsent}"
        with self.runtime.db.session() as session:
            rows = session.execute(select(InboundMessage.id, InboundMessage.status)).all()
        assert len(rows) == self.delivered, (len(rows), self.delivered)
        bad = [(row_id, status) for row_id, status in rows if status in ("failed", "received")]
        assert not bad, f"inbound mail left {bad}"

    @invariant()
    def nothing_is_stuck(self) -> None:
        if self.over or self.paused:
            return
        game, _, owing = self.row()
        assert owing, "a game in play that waits for nobody"
        if self.kind != "thermopyles":
            assert game.deadline is not None and game.deadline > self.clock.now, (
                f"in play and not paused, but its deadline is {game.deadline} at {self.clock.now}"
            )
