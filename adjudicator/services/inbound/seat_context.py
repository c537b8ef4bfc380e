"""What the steps of a mail to a reply address share (``SeatMail``): the mail and its stored row,
the route its address names, and what each step has found out for the steps after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import OrderReport
from adjudicator.mail import addresses, extract
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, InboundMessage, Seat, Turn
from adjudicator.services.outbound import replies
from adjudicator.services.outbound.mailer import Reply
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.record.verdict import Verdict
from adjudicator.services.words import commands, orders


@dataclass
class SeatMail:
    """One mail to a reply address on its way through ``seat_mail.STEPS``: what came in, and what
    the steps so far have found out. A field is set by the step named beside it."""

    session: Session
    runtime: Runtime
    mail: MailIn
    record: InboundMessage
    route: addresses.SeatRoute
    game: Game = field(init=False)  # 1
    seat: Seat = field(init=False)  # 2
    own: extract.OwnText = field(init=False)  # 5
    reading: commands.Reading = field(init=False)  # 6
    subject_only: bool = False  # 6
    sections: commands.Sections = field(default_factory=commands.Sections)  # 6
    turn: Turn = field(init=False)  # 11: the latest turn; orders are for the one after it
    earlier: str | None = None  # 11: the set on file for that turn, if any
    got: orders.OrderSet = field(init=False)  # 11
    filed: bool = False  # 12

    @property
    def reply(self) -> Reply:
        return Reply(self.session, self.runtime, self.mail, self.record.id)

    def problem(self, kind: str, details: dict[str, Any]) -> None:
        """Answer the sender with a problem reply of this kind."""
        replies.problem(self.reply, kind, details)

    def rules(self) -> Rules[Any]:
        return play.rules_for(self.game)

    @property
    def report(self) -> OrderReport:
        assert self.got.report is not None  # step 11 ends the way of a mail without orders
        return self.got.report


Step = Callable[[SeatMail], Verdict | None]
