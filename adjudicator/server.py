"""`pbem serve`: web, SMTP listener, Celery worker and scheduler as threads of one process."""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from email.message import EmailMessage
from email.utils import make_msgid
from functools import partial
from typing import TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from adjudicator import demo, smtp
from adjudicator.models import Game, InboundMessage, Seat
from adjudicator.services.inbound import inbox
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import InboundStatus
from adjudicator.web import create_app

log = logging.getLogger(__name__)
T = TypeVar("T")

SAMPLE_PLAYER = "leonidas@example.com"
SAMPLE_ACTIONS = ("RETREAT", "STATUS")


def serve(runtime: Runtime, sample: bool = True) -> None:
    from workers.embedded import scheduler_thread, worker_thread

    config = runtime.config
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    with ExitStack() as stack:
        if config.embedded_broker:
            stack.enter_context(worker_thread())
            stack.enter_context(scheduler_thread(config.tick_seconds))
        for listener in smtp.listeners(runtime):
            listener.start()
            stack.callback(listener.stop)
        web = make_server(config.web_host, config.web_port, create_app(runtime), threaded=True)
        threading.Thread(target=web.serve_forever, name="web", daemon=True).start()
        stack.callback(web.shutdown)
        game_line = start_sample(runtime) if sample else ""
        if sample:
            game_line += start_demo(runtime, stack)
        print(banner(runtime, game_line), flush=True)
        stop.wait()
        print("stopping…", flush=True)


def serve_smtp(runtime: Runtime) -> None:
    config = runtime.config
    listeners = smtp.listeners(runtime)
    for listener in listeners:
        listener.start()
    print(f"SMTP listener on {config.smtp_host}:{config.smtp_port}", flush=True)
    if config.lmtp_port:
        print(f"LMTP listener on {config.smtp_host}:{config.lmtp_port}", flush=True)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    for listener in listeners:
        listener.stop()


def start_demo(runtime: Runtime, stack: ExitStack) -> str:
    """The 2 de Mayo demo game and its scripted players, who mail orders to the listener."""
    game_id = demo.start_game(runtime)
    if game_id is None:
        return ""
    players = demo.ScriptedPlayers(runtime, game_id, runtime.config.demo_pace_seconds)
    players.start()
    stack.callback(players.stop.set)
    return (
        f"\n  demo game    #{game_id}, 2 de Mayo: two scripted players mail orders over SMTP;"
        f"\n               watch {runtime.config.base_url}/games/{game_id} and the outbox"
    )


def banner(runtime: Runtime, game_line: str) -> str:
    config = runtime.config
    lmtp = f"; LMTP {config.smtp_host}:{config.lmtp_port}" if config.lmtp_port else ""
    return f"""
pbem is running ({"embedded default" if config.embedded_broker else config.broker_url})
  archive      {config.base_url}/
  outbox       {config.outbox_dir.resolve()}/new  (every mail the service sends lands here)
  mail in      SMTP {config.smtp_host}:{config.smtp_port} for @{config.mail_domain}{lmtp}
  start a game pbem mail send --from you@example.com --to new@{config.mail_domain} "NEW THERMOPYLES"
  read replies pbem mail read --to you@example.com --wait 5
{game_line}
Stop with Ctrl-C.
"""


def _mail(sender: str, recipient: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, recipient, "orders"
    message["Message-ID"] = make_msgid(domain="example.com")
    message.set_content(body + "\n")
    return message.as_bytes()


def start_sample(runtime: Runtime, timeout: float = 30.0) -> str:
    """A sample game under way, played through the real mail path, unless games already exist."""
    domain = runtime.config.mail_domain
    with runtime.db.session() as session:
        if session.scalar(select(func.count()).select_from(Game)):
            return "  (games already exist; no sample started)"
    inbox.store(runtime, _mail(SAMPLE_PLAYER, f"new@{domain}", "NEW THERMOPYLES"), "sample")
    game_id = _wait_for(runtime, lambda s: s.scalar(select(func.min(Game.id))), timeout)
    if game_id is None:
        return "  (the sample game did not start; see `pbem mail list`)"
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        seat = session.scalar(select(Seat).where(Seat.game_id == game_id))
        assert seat is not None
        address = play.seat_address(runtime, game, seat)
    for action in SAMPLE_ACTIONS:
        # One at a time, as a player reads each reply before writing the next mail.
        stored = inbox.store(runtime, _mail(SAMPLE_PLAYER, address, action), "sample")
        if isinstance(stored, inbox.Stored):
            inbound_id = stored.id
            _wait_for(runtime, partial(_processed, inbound_id=inbound_id), timeout)
    return (
        f"  sample game  #{game_id}, played by {SAMPLE_PLAYER}; its reply address:\n"
        f"               {address}\n"
        f"  its archive  {runtime.config.base_url}/games/{game_id}"
    )


def _processed(session: Session, inbound_id: int) -> bool | None:
    status = session.scalar(select(InboundMessage.status).where(InboundMessage.id == inbound_id))
    return None if status == InboundStatus.RECEIVED else True


def _wait_for(runtime: Runtime, probe: Callable[[Session], T | None], timeout: float) -> T | None:
    """Poll the database until ``probe`` answers something other than None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with runtime.db.session() as session:
            value = probe(session)
        if value is not None:
            return value
        time.sleep(0.2)
    return None
