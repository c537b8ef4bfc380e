"""Test helpers: compose mail as a player would, run queued work, read what the service sent."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid

from adjudicator.services import deadlines, delivery, inbox, pipeline
from adjudicator.services.runtime import Runtime


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


def sent(runtime: Runtime, since: int = 0) -> list[EmailMessage]:
    """Every mail in the outbox Maildir, oldest first (by outbox id in the file name); with
    ``since``, only those after the first ``since`` (long games need not re-read them all)."""
    folder = runtime.config.outbox_dir / "new"
    if not folder.is_dir():
        return []
    paths = sorted(folder.iterdir(), key=lambda p: int(p.name.split(".pbem")[1].split(".")[0]))
    parser = BytesParser(policy=policy.default)
    return [parser.parsebytes(path.read_bytes()) for path in paths[since:]]  # type: ignore[misc]


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
