"""Test helpers: compose mail as a player would, run queued work, read what the service sent."""

from __future__ import annotations

import smtplib
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from adjudicator.models import Base, Game, OutboxMessage, utcnow
from adjudicator.services.game_master import gm
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.outbound import delivery
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines


def compose(
    sender: str,
    to: str,
    body: str,
    subject: str = "orders",
    headers: dict[str, str] | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = make_msgid(domain="example.com")
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(body + "\n")
    return message.as_bytes()


def drain(runtime: Runtime) -> None:
    """Run everything the services queued, in order, as a worker would."""
    queue = runtime.enqueue
    items: list[tuple[str, int]] = queue.items  # type: ignore[attr-defined]
    while items:
        task, record_id = items.pop(0)
        if task == "process_inbound":
            pipeline.process(runtime, record_id)
        elif task == "send_outbox":
            delivery.deliver(runtime, record_id)
        elif task == "adjudicate":
            deadlines.adjudicate(runtime, record_id)
        elif task == "force":
            deadlines.adjudicate(runtime, record_id, force=True)
        else:
            raise AssertionError(f"unexpected task {task}")


def deliver_mail(runtime: Runtime, raw: bytes, to: list[str] | None = None) -> int:
    stored = inbox.store(runtime, raw, source="test", envelope_to=to or [])
    assert isinstance(stored, inbox.Stored)
    drain(runtime)
    return stored.id


def solo_game_by_mail(runtime: Runtime, player: str, body: str) -> tuple[int, str]:
    """A game ``player`` starts alone with a NEW mail (``body``): its id, and the address the
    player's orders go to."""
    deliver_mail(runtime, compose(player, "new@pbem.localhost", body))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        return game.id, play.seat_address(runtime, game, game.seats[0])


def unsent_welcome(runtime: Runtime, player: str = "a@example.com") -> int:
    """A NEW mail processed by a caller that does not send its mail itself, so that one welcome to
    ``player`` waits in the outbox, pending and never tried, with a send_outbox task queued for it
    (as mail written outside a worker's task is). The welcome's outbox id."""
    return _welcome(runtime, player, Runtime, "sent_here", lambda self, session: [])


def claimed_welcome(runtime: Runtime, player: str = "a@example.com") -> int:
    """A NEW mail processed, and the worker gone between the processing's commit and its sending
    of the welcome: the welcome waits in the outbox claimed for that worker. Its outbox id."""
    return _welcome(runtime, player, delivery, "deliver_written", lambda runtime, written: [])


def _welcome(runtime: Runtime, player: str, where: object, name: str, instead: object) -> int:
    """A NEW mail from ``player`` processed with ``where.name`` replaced by ``instead``; the id
    of the one mail it wrote."""
    stored = inbox.store(runtime, compose(player, "new@pbem.localhost", "NEW THERMOPYLES"), "test")
    assert isinstance(stored, inbox.Stored)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(where, name, instead)
        pipeline.process(runtime, stored.id)
    with runtime.db.session() as session:
        return session.scalars(select(OutboxMessage.id)).one()


def mail_by_smtp(port: int, sender: str, to: str, body: str, **options: Any) -> None:
    """A player's mail, as ``compose`` writes it, handed to the SMTP server on localhost ``port``
    (a running service's, for the tests of whole processes)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.sendmail(sender, [to], compose(sender, to, body, **options))


def outbox_files(outbox_dir: Path) -> list[Path]:
    """The mail files of an outbox Maildir, oldest first (by the outbox id in each file's name)."""
    folder = outbox_dir / "new"
    if not folder.is_dir():
        return []
    return sorted(folder.iterdir(), key=lambda p: int(p.name.split(".pbem")[1].split(".")[0]))


def outbox_file(outbox_dir: Path, count: int, timeout: float = 30) -> Path:
    """The ``count``-th mail file of an outbox Maildir, once a running service has written it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        paths = outbox_files(outbox_dir)
        if len(paths) >= count:
            return paths[count - 1]
        time.sleep(0.05)
    raise AssertionError(f"mail {count} never arrived; outbox has {len(outbox_files(outbox_dir))}")


def parsed(path: Path) -> EmailMessage:
    """A mail file read as the player's mail program would."""
    message: EmailMessage = BytesParser(policy=policy.default).parsebytes(path.read_bytes())  # type: ignore[assignment]
    return message


def sent(runtime: Runtime, since: int = 0) -> list[EmailMessage]:
    """Every mail in the outbox Maildir, oldest first (by outbox id in the file name); with
    ``since``, only those after the first ``since`` (long games need not re-read them all)."""
    return [parsed(path) for path in outbox_files(runtime.config.outbox_dir)[since:]]


def sent_count(runtime: Runtime) -> int:
    folder = runtime.config.outbox_dir / "new"
    return sum(1 for _ in folder.iterdir()) if folder.is_dir() else 0


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def html_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("html",))
    assert body is not None
    return str(body.get_content())


def last_mail_to(runtime: Runtime, address: str) -> EmailMessage:
    """The last mail sent to ``address``; there must be one."""
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return mails[-1]


def reply_to(runtime: Runtime, address: str) -> str:
    """The Reply-To of the last mail sent to ``address``: where that player's answer goes."""
    return next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == address)


def reply_addresses(runtime: Runtime, since: int = 0) -> dict[str, str]:
    """Each recipient's Reply-To, from the last mail to them after the first ``since``."""
    return {str(m["To"]): str(m["Reply-To"]) for m in sent(runtime, since) if m["Reply-To"]}


def gm_command(runtime: Runtime, game_id: int, line: str) -> str:
    """One game-master command line, as the panel runs it, and then the work it queued; it must
    be done. Returns what the game master is told."""
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        [result] = gm.run(session, runtime, game, [line], f"test:{line}", utcnow())
        assert result.done, result.message
    drain(runtime)
    return result.message


def row_count(runtime: Runtime, table: type[Base]) -> int:
    """How many rows ``table`` (a model: OutboxMessage, InboundMessage, …) holds."""
    with runtime.db.session() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)
