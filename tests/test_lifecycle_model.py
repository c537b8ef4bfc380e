"""A model of a game's whole life, checked after every step: what a mail or a page says is what
happened, and every player hears of every change exactly once.

A hypothesis state machine plays one game per example, of one of the three kinds (2 de Mayo:
two players, simultaneous orders with deadlines; Musket & Pike: two players, one decision at a
time, resolved on receipt; Thermopyles: solo, resolved on receipt), through random sequences of
mail to the real pipeline (orders valid, partly refused or chat, ADD, WAIT, RESIGN, VACATION,
late mail to an ended game), the game master's commands by mail (PAUSE, RESUME, EXTEND,
PROCESS NOW, ROLLBACK once or twice, REPLACE, END) and the tick at a chosen moment (near a
deadline for its reminders, or past it). The service reads the model's clock. After every step:

- told once: each seat and the game master get exactly one mail telling each change (a start, a
  turn played, a replayed turn too, a pause, a resume, a deadline moved, a rollback, a new player,
  the end, a reminder when one is due) and one answer to each of their mails;
- claims: no mail says every player's orders are in while the turn waits for a seat, and no mail
  of an ended game offers an action;
- agreement: the game's page, /api/games/<id>, its Atom feed, the last calendar entry and the last
  mail each reader got say the same status, turn and deadline;
- health: no request ends in 500, every mail is sent, no inbound mail failed, every mail
  delivered is stored;
- nothing stuck: a game in play and not paused has a deadline to come, or a solo decision owed.

Profiles: CI runs fifteen short examples (20 steps at most) on SQLite and on PostgreSQL, a failure
reported as found; ``PBEM_MODEL_EXAMPLES=500`` (and ``PBEM_MODEL_STEPS``, 30 by default then)
runs a long search that shrinks what it finds (``PBEM_MODEL_SHRINK=0|1`` says otherwise). While
developing, a known failure can be left out with ``PBEM_MODEL_LEAVE_OUT=name,...``: gm-turns,
resign-others, replay, extend0, mp-reminder, partial-claim, ended-offers, ended-calendar,
pause-on-receipt (see where each is read); unset, every invariant is checked.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from lifecycle_checks import Checks
from lifecycle_model import (
    MISSPELT,
    Clock,
    Mail,
    empty,
    mails_after,
    read_by_the_service,
    thermopyles_text,
)
from playbymail import compose, deliver_mail, drain
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from adjudicator.games import registry
from adjudicator.models import Game, OutboxMessage, Seat, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import reminders, ticks
from adjudicator.services.words import preferences
from adjudicator.web import create_app

GM = "gm@example.com"
NEW = {
    "2demayo": "NEW 2DEMAYO\nFRANCE {0}\nSPAIN {1}\nSCHEDULE 48h\nTIMEZONE UTC",
    "musketpike": (
        "NEW MUSKETPIKE scenario=skirmish decision_hours=12\nROYALIST {0}\nPARLIAMENT {1}\n"
        "TIMEZONE UTC"
    ),
}
# The game master's commands (ROLLBACK2: two lines, ROLLBACK twice in one mail).
COMMANDS = ["PAUSE", "RESUME", "EXTEND", "EXTEND", "PROCESS NOW", "ROLLBACK", "ROLLBACK2"]
COMMANDS += ["REPLACE", "END"]
LEAD = timedelta(hours=12)  # the game's reminder lead, GameSettings' default
EXAMPLES = int(os.environ.get("PBEM_MODEL_EXAMPLES", "0"))
LEAVE_OUT = set(filter(None, os.environ.get("PBEM_MODEL_LEAVE_OUT", "").split(",")))
# The long search shrinks what it finds to its shortest sequence; CI's short run reports a
# failure as found (shrinking a sequence of mails takes minutes), with the blob to replay it.
SHRINK = os.environ.get("PBEM_MODEL_SHRINK", "1" if EXAMPLES else "0") == "1"
SETTINGS = settings(
    max_examples=EXAMPLES or 15,
    stateful_step_count=int(os.environ.get("PBEM_MODEL_STEPS", "30" if EXAMPLES else "20")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
    phases=[phase for phase in Phase if SHRINK or phase != Phase.shrink],
)


class GameLife(Checks, RuleBasedStateMachine):
    """One game and what each of its readers must have been told of it."""

    def __init__(self, runtime: Runtime, clock: Clock) -> None:
        super().__init__()
        empty(runtime)
        self.runtime, self.clock = runtime, clock
        clock.advance(timedelta(days=1))
        self.web = create_app(runtime).test_client()
        self.expected: Counter[tuple[str, str]] = Counter()
        # News a reader may be told or not (a reminder where the rules leave the choice open).
        self.optional: Counter[tuple[str, str]] = Counter()
        self.ending: set[int] = set()
        self.mails: list[Mail] = []
        self.delivered = 0
        self.seats: dict[str, str] = {}
        self.reply: dict[str, str] = {}
        self.gm: str | None = None
        self.over = self.paused = False
        self.turns = 0
        self.reminded: set[tuple[str, int]] = set()
        self.opened = (clock.now, -1)
        self.moving = False
        self.resigner = ""
        self.played: set[str] = set()
        self.replayed: set[str] = set()
        self.newcomers = 0

    # Driving the service.

    def deliver(self, sender: str, to: str, body: str) -> int:
        self.delivered += 1
        return deliver_mail(self.runtime, compose(sender, to, body))

    def expect(self, readers: list[str], item: str) -> None:
        for reader in readers:
            self.expected[(reader, item)] += 1

    def readers(self) -> list[str]:
        return list(self.seats.values()) + ([self.gm] if self.gm else [])

    def newest(self) -> list[Mail]:
        fresh = mails_after(self.runtime, self.mails[-1].id if self.mails else 0)
        self.mails += fresh
        return fresh

    def reply_of(self, address: str) -> str:
        return next(str(m.message["Reply-To"]) for m in reversed(self.mails) if m.to == address)

    def row(self) -> tuple[Game, Turn, list[str]]:
        """The game as stored, its live turn and the seats owing now (detached copies)."""
        with self.runtime.db.session() as session:
            game = session.get_one(Game, self.game_id)
            turn = play.latest_turn(session, game.id)
            owing = sorted(self.rules.pending(self.rules.load(turn.state))) if not self.over else []
            session.expunge_all()
            return game, turn, owing

    def step_clock(self) -> None:
        """A minute passes between mails, never up to a deadline (the tick plays those)."""
        game, _, _ = self.row()
        if game.deadline is None or self.clock.now + timedelta(minutes=2) < game.deadline:
            self.clock.advance(timedelta(minutes=1))

    # Starting a game.

    @initialize(kind=st.sampled_from(["2demayo", "musketpike", "thermopyles"]))
    def start(self, kind: str) -> None:
        self.kind = kind
        rules = registry.get(kind)
        assert rules is not None
        self.rules = rules
        if kind == "thermopyles":
            self.seats = {"spartans": "leonidas@example.com"}
            self.deliver(self.seats["spartans"], "new@pbem.localhost", "NEW THERMOPYLES")
        else:
            self.seats = dict(zip(rules.seats, ["one@example.com", "two@example.com"], strict=True))
            self.gm = GM
            formed = self.deliver(GM, "new@pbem.localhost", NEW[kind].format(*self.seats.values()))
            self.expect([GM], f"answer:{formed}")
            self.newest()
            for address in self.seats.values():
                self.expect([address], "invited")
            last = list(self.seats.values())[-1]
            for address in self.seats.values():
                joined = self.deliver(address, self.reply_of(address), "JOIN")
                if address != last:
                    self.expect([address], f"answer:{joined}")
        self.expect(self.readers(), "start")
        self.newest()
        self.game_id = int(self.mails[-1].message["Subject"].split("#", 1)[1].split("]")[0])
        self.reply = {seat: self.reply_of(address) for seat, address in self.seats.items()}
        self.settle(0)

    # What every step ends with: the turns the model expects played, compared with the store.

    def settle(self, played: int, ended: str = "") -> None:
        """``played``: turns the step was to play; ``ended``: who ended the game in it."""
        before = self.turns
        game, turn, _ = self.row()
        self.turns += played
        assert turn.number == self.turns, (
            f"the step should have left turn {self.turns} live (from {before}), not {turn.number}"
        )
        for number in range(before + 1, self.turns + 1):
            if f"turn:{number}" in self.played:
                self.replayed.add(f"turn:{number}")  # after a rollback: a new report too
            self.played.add(f"turn:{number}")
            self.expect(self.readers(), f"turn:{number}")
        if ended:
            self.over = True
        elif not self.over and game.status != "active":
            self.over = True  # played to its end: the last report says so, and the GM is told
            self.expect(self.readers(), "over")
        assert (game.status != "active") == self.over, (game.status, self.over)
        assert game.paused == self.paused, (game.paused, self.paused)
        if game.deadline_sequence != self.opened[1]:
            # When the turn's time began: a deadline the game master moved keeps its start.
            start = self.opened[0] if self.moving else self.clock.now
            self.opened = (start, game.deadline_sequence)
        self.moving = False
        self.newest()

    # A seat's mail.

    @rule(
        pick=st.integers(0, 10**6),
        # Mostly legal orders; a resignation now and then, as the game would be over for good.
        what=st.sampled_from(
            [*["valid"] * 5, "misspelt", "chat", "add", "wait", "join", "resign", "vacation"]
        ),
    )
    def seat_mail(self, pick: int, what: str) -> None:
        if what == "resign" and not self.over:
            return self.resign(sorted(self.seats)[pick % len(self.seats)])
        if what == "vacation":
            return self.vacation(pick)
        _, turn, owing = self.row()
        seat = (
            owing[pick % len(owing)]
            if what == "valid" and owing
            else sorted(self.seats)[pick % len(self.seats)]
        )
        address = self.seats[seat]
        body = self.body(turn, seat, pick, what)
        self.step_clock()
        inbound = self.deliver(address, self.reply[seat], body)
        if self.over:
            self.expect([address], f"answer:{inbound}")
            return self.settle(0)
        on_receipt = self.rules.resolves_on_receipt
        plays = (
            what == "valid"
            and seat in owing
            and (not self.paused or "pause-on-receipt" in LEAVE_OUT)
        )
        if on_receipt and plays:
            return self.settle(1)
        self.expect([address], f"answer:{inbound}")
        if on_receipt or what not in ("valid", "misspelt", "add"):
            return self.settle(0)
        complete, waiting = self.complete_sets(turn.number + 1)
        if what == "valid":
            assert complete.get(seat), f"{seat}'s legal orders were not filed whole"
        everyone = bool(owing) and all(complete.get(s) for s in owing)
        self.settle(int(everyone and not waiting and not self.paused))

    def body(self, turn: Turn, seat: str, pick: int, what: str) -> str:
        state = self.rules.load(turn.state)
        legal = list(self.rules.legal_orders(state, seat)) if not self.over else []
        if not legal:
            return "HELP" if what == "join" else "FIGHT 12"
        orders = legal[pick % len(legal)]
        text = self.rules.orders_text(orders) or thermopyles_text(orders)
        if what == "misspelt":
            return f"{text}\n{MISSPELT[self.kind]}"
        if what == "chat" or (what == "add" and self.kind != "2demayo"):
            return "Thanks, see you next turn!"
        if what == "add":
            return "ADD\n" + text.splitlines()[-1]
        if what == "wait":
            return "WAIT"
        if what in ("join", "resign"):
            return what.upper()
        return text

    def resign(self, seat: str) -> None:
        self.step_clock()
        inbound = self.deliver(self.seats[seat], self.reply[seat], "RESIGN")
        self.ending.add(inbound)
        self.resigner = self.seats[seat]
        self.expect([self.seats[seat]], f"answer:{inbound}")
        others = [r for r in self.readers() if r != self.seats[seat]]
        self.expect([self.seats[seat]], "over")
        self.expect(
            others if "resign-others" not in LEAVE_OUT else [r for r in others if r == self.gm],
            "over",
        )
        self.settle(0, ended="resign")

    def vacation(self, pick: int) -> None:
        """VACATION OFF, or a vacation until today or a few days on (as ``pick`` says)."""
        seat = sorted(self.seats)[pick % len(self.seats)]
        days = [None, 0, 1, 3][pick // 7 % 4]
        until = (self.clock.now + timedelta(days=days or 0)).date().isoformat()
        self.step_clock()
        inbound = self.deliver(
            self.seats[seat],
            self.reply[seat],
            "VACATION OFF" if days is None else f"VACATION UNTIL {until}",
        )
        self.expect([self.seats[seat]], f"answer:{inbound}")
        self.settle(0)

    # The game master's mail.

    @precondition(lambda self: self.gm is not None)
    @rule()
    def pause_or_resume(self) -> None:
        """PAUSE, or RESUME a paused game: a rule of its own, so that much happens while paused."""
        self.game_master("RESUME" if self.paused else "PAUSE", 0, 0)

    @precondition(lambda self: self.gm is not None)
    @rule(
        command=st.sampled_from(COMMANDS),
        hours=st.sampled_from([0, 1, 24]),
        pick=st.integers(0, 10),
    )
    def game_master(self, command: str, hours: int, pick: int) -> None:
        assert self.gm is not None
        if command == "EXTEND" and hours == 0 and "extend0" in LEAVE_OUT:
            hours = 1
        seat = sorted(self.seats)[pick % len(self.seats)]
        newcomer = f"new{self.newcomers}@example.org"
        lines = {
            "EXTEND": f"EXTEND {hours}h",
            "ROLLBACK2": "ROLLBACK first\nROLLBACK second",
            "REPLACE": f"REPLACE {seat} {newcomer}",
        }.get(command, command)
        self.step_clock()
        inbound = self.deliver(self.gm, self.reply_of(self.gm), lines)
        self.expect([self.gm], f"answer:{inbound}")
        if self.over:
            return self.settle(0)
        self.gm_effect(command, hours, seat, newcomer)

    def gm_effect(self, command: str, hours: int, seat: str, newcomer: str) -> None:
        players = list(self.seats.values())
        if command == "PAUSE" and not self.paused:
            self.paused = True
            self.expect(players, "paused")
        elif command == "RESUME" and self.paused:
            self.paused = False
            self.expect(players, "resumed")
        elif command == "EXTEND" and hours > 0:
            self.expect(players, "moved")
            self.moving = True
        elif command == "PROCESS NOW":
            return self.settle(1)
        elif command.startswith("ROLLBACK"):
            back = min(self.turns, 2 if command == "ROLLBACK2" else 1)
            for number in range(self.turns, self.turns - back, -1):
                self.expect(players, f"rolledback:{number}")
            self.turns -= back
        elif command == "REPLACE":
            self.newcomers += 1
            self.seats[seat] = newcomer
            self.expect(list(self.seats.values()), "replaced")
            self.settle(0)
            self.reply[seat] = self.reply_of(newcomer)
            return None
        elif command == "END":
            self.expect(players, "over")
            return self.settle(0, ended="gm")
        self.settle(0)

    # The clock and the tick.

    @precondition(lambda self: self.kind != "thermopyles")
    @rule(when=st.sampled_from(["soon", "reminder", "past"]), minutes=st.integers(1, 180))
    def tick(self, when: str, minutes: int) -> None:
        game, turn, owing = self.row()
        now, deadline = self.clock.now, game.deadline
        target = now + timedelta(minutes=minutes)
        if deadline is not None and when == "past":
            target = max(now, deadline) + timedelta(seconds=1)
        elif deadline is not None and when == "reminder":
            halfway = self.opened[0] + (deadline - self.opened[0]) / 2
            target = max(deadline - LEAD, halfway, now) + timedelta(minutes=1)
        self.clock.now = target
        due = not self.over and not self.paused and deadline is not None and deadline <= target
        if not due and not self.over and not self.paused and deadline is not None:
            self.expect_reminders(game, turn, owing, deadline)
        ticks.tick(self.runtime)
        drain(self.runtime)
        self.settle(int(due))

    def expect_reminders(
        self, game: Game, turn: Turn, owing: list[str], deadline: datetime
    ) -> None:
        """A reminder to each seat that owes and has nothing on file, once per deadline, within
        the lead time before it, not on vacation, and never in the first half of the time since
        the last mail that told the seat its deadline (its start, a turn report or a notice): a
        reminder just after it tells nothing new. Where the lead covers that whole time, the
        later half may bring one or not."""
        now, sequence = self.clock.now, game.deadline_sequence
        if now < deadline - LEAD:
            return
        # A game resolved on receipt has nothing on file for a decision still owed: an answer
        # plays it at once. A set stored for that number is a rolled-back version's, and after
        # a ROLLBACK the seat owes the decision again (the service reads none on file there).
        on_receipt = self.rules.resolves_on_receipt
        complete = {} if on_receipt else self.complete_sets(turn.number + 1)[0]
        with self.runtime.db.session() as session:
            for seat in session.query(Seat).filter(Seat.game_id == self.game_id):
                told = self.told_at(session, seat.player.address) or self.opened[0]
                if now < reminders.remind_at(deadline, LEAD, told) and (
                    "mp-reminder" not in LEAVE_OUT
                ):
                    continue
                if (
                    seat.seat in owing
                    and seat.seat not in complete
                    and (seat.seat, sequence) not in self.reminded
                    and not preferences.on_vacation(seat.player, now)
                ):
                    self.reminded.add((seat.seat, sequence))
                    short = deadline - told <= LEAD and "mp-reminder" not in LEAVE_OUT
                    counts = self.optional if short else self.expected
                    counts[(seat.player.address, "reminder")] += 1

    def told_at(self, session: Session, address: str) -> datetime | None:
        """When the service last mailed ``address`` a mail that tells the deadline."""
        return session.scalar(
            select(func.max(OutboxMessage.created_at)).where(
                OutboxMessage.game_id == self.game_id,
                OutboxMessage.to_address == address,
                OutboxMessage.kind.in_(("start", "report", "notice")),
            )
        )


@pytest.fixture
def service(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> tuple[Runtime, Clock]:
    clock = Clock()
    read_by_the_service(clock, monkeypatch)
    # Many commands an hour from one game master: the flood guard is no part of this model.
    lifted = replace(runtime.config, sender_limit_per_hour=0)
    return Runtime(lifted, runtime.db, enqueue=runtime.enqueue), clock


def test_every_reader_is_told_what_happened(service: tuple[Runtime, Clock]) -> None:
    runtime, clock = service
    run_state_machine_as_test(lambda: GameLife(runtime, clock), settings=SETTINGS)
