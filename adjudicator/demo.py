"""The demo: a 2 de Mayo game between two scripted players who mail real orders over SMTP.

They play as people would, only faster: each turn, after a short pause, each picks a legal order
set at random, writes it out as text and mails it to its seat's reply address through the SMTP
listener, so every turn goes through the whole service and lands in the outbox and the archive.
"""

from __future__ import annotations

import logging
import random
import smtplib
import threading
import time
from email.message import EmailMessage
from email.utils import make_msgid

from sqlalchemy import select

from adjudicator.core.refusal import Refusal
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.turns.lifecycle import GameSettings
from adjudicator.statuses import GameStatus

log = logging.getLogger(__name__)

PLAYERS = {"france": "murat@example.com", "spain": "daoiz@example.com"}
GAME_MASTER = "godoy@example.com"


def start_game(runtime: Runtime) -> int | None:
    """The demo game, made as a game master would (once; None if one already exists)."""
    with runtime.db.session() as session:
        if session.scalar(select(Game.id).where(Game.game_key == "2demayo")) is not None:
            return None
        game = lifecycle.start_game(
            session,
            runtime,
            GameSettings("2demayo", PLAYERS, {}, "5m", "Europe/Madrid", gm_address=GAME_MASTER),
        )
        if isinstance(game, Refusal):
            log.error("the demo game could not start: %s", game.reason)
            return None
        return game.id


class ScriptedPlayers(threading.Thread):
    """Both seats of one game, each mailing a legal order set a few seconds into every turn."""

    def __init__(self, runtime: Runtime, game_id: int, pace: float, seed: int | None = None):
        super().__init__(name="demo-players", daemon=True)
        self.runtime, self.game_id, self.pace = runtime, game_id, pace
        self.choices = random.Random(seed)  # the players' whims, not the game's dice
        self.stop = threading.Event()
        self.due: dict[tuple[int, str], float] = {}
        self.sent: set[tuple[int, str]] = set()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                if not self.step():
                    return
            except Exception:  # a demo must not take the service down
                log.exception("demo players")
            self.stop.wait(0.5)

    def step(self) -> bool:
        """Mail whatever orders are due now; False once the game is over."""
        mails: list[tuple[str, str, str]] = []
        with self.runtime.db.session() as session:
            game = session.get(Game, self.game_id)
            if game is None or game.status != GameStatus.ACTIVE:
                return game is not None and game.status == GameStatus.FORMING
            rules = play.rules_for(game)
            turn = play.latest_turn(session, game.id)
            state = rules.load(turn.state)
            for seat in game.seats:
                key = (turn.number + 1, seat.seat)
                if key in self.sent or seat.seat not in rules.pending(state):
                    continue
                wake = self.due.setdefault(
                    key, time.monotonic() + self.choices.uniform(0.3, 1) * self.pace
                )
                if time.monotonic() < wake:
                    continue
                orders = self.choices.choice(list(rules.legal_orders(state, seat.seat)))
                text = rules.orders_text(orders)
                if text is not None:
                    address = play.seat_address(self.runtime, game, seat)
                    mails.append((seat.player.address, address, text))
                    self.sent.add(key)
        for sender, address, text in mails:
            self.mail(sender, address, text)
        return True

    def mail(self, sender: str, to: str, text: str) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, to, "Re: orders"
        message["Message-ID"] = make_msgid(domain="example.com")
        message.set_content(f"My orders:\n\n{text}\n\n-- \n{sender.split('@')[0].title()}\n")
        config = self.runtime.config
        with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=30) as client:
            client.send_message(message)
