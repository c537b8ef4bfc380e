"""Composing outbound mail into the outbox, inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from adjudicator.mail.building import (
    Attachment,
    Headers,
    Picture,
    Thread,
    build,
    mint_message_id,
)
from adjudicator.mail.reading import MailIn
from adjudicator.models import Game, OutboxMessage, Player, utcnow
from adjudicator.services.record.runtime import Runtime, Task, Written
from adjudicator.statuses import OutboxStatus
from adjudicator.templating import render_pair


@dataclass(frozen=True)
class Reply:
    """A mail being answered: the answer goes back to its sender, in its thread, under an outbox
    key made from its stored row's id (so a mail processed twice is answered once)."""

    session: Session
    runtime: Runtime
    mail: MailIn
    inbound_id: int

    @property
    def key(self) -> str:
        return f"inbound:{self.inbound_id}:reply"


@dataclass(frozen=True)
class Letter:
    """One mail to queue: who, what template, and how it threads."""

    key: str  # unique: the same key is never queued twice
    kind: str
    to: str
    subject: str
    template: str
    context: dict[str, object]
    pictures: Sequence[Picture] = ()
    attachments: Sequence[Attachment] = ()
    reply_to: str | None = None
    in_reply_to: str | None = None
    references: Sequence[str] = ()
    message_id: str | None = None
    headers: dict[str, str] | None = None


def thread_headers(game: Game | None, replying_to: str | None) -> tuple[str | None, list[str]]:
    """In-Reply-To and References: the player's mail when answering one, else the game's first."""
    references: list[str] = []
    if game is not None and game.thread_id:
        references.append(game.thread_id)
    if replying_to and replying_to not in references:
        references.append(replying_to)
    in_reply_to = replying_to or (game.thread_id if game is not None and game.thread_id else None)
    return in_reply_to, references


def queue(session: Session, runtime: Runtime, letter: Letter, game: Game | None = None) -> int:
    """Render, build and store the mail; it is sent after the transaction commits."""
    config = runtime.config
    message_id = letter.message_id or mint_message_id(
        ["mail", *letter.key.split(":")], config.mail_domain
    )
    context = {"base_url": config.base_url, "domain": config.mail_domain, **letter.context}
    text, html = render_pair(letter.template, context)
    # FORMAT TEXT: this reader gets the text part alone, and the pictures as attachments.
    chosen = mail_format(session, letter.to)
    raw = build(
        Headers(
            sender=config.from_address,
            to=letter.to,
            subject=letter.subject,
            reply_to=letter.reply_to,
            others={"X-Pbem-Kind": letter.kind, **(letter.headers or {})},
        ),
        Thread(message_id, letter.in_reply_to, letter.references),
        text=text,
        html=None if chosen == "text" else html,
        pictures=letter.pictures,
        attachments=letter.attachments,
    )
    row: dict[str, object] = {
        "key": letter.key,
        "game_id": game.id if game is not None else None,
        "kind": letter.kind,
        "to_address": letter.to,
        "subject": letter.subject,
        "message_id": message_id,
        "raw": raw,
    }
    here = runtime.sending_here(session)
    now = utcnow()
    if here is not None:  # claimed for the caller, who sends it once committed
        row.update(created_at=now, status=OutboxStatus.SENDING, claimed_at=now, attempts=1)
    # One round trip: a mail already queued under this key (its mail processed again) is
    # left as it is, and none is queued twice.
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else postgresql_insert
    added = session.scalar(
        insert(OutboxMessage)
        .values(row)
        .on_conflict_do_nothing(index_elements=[OutboxMessage.key])
        .returning(OutboxMessage.id)
    )
    if added is None:
        existing = session.scalar(select(OutboxMessage.id).where(OutboxMessage.key == letter.key))
        assert existing is not None
        return existing
    if here is None:
        runtime.later(session, Task.SEND_OUTBOX, added)
    else:
        here.append(Written(int(added), raw, letter.to, now, game.id if game else None))
    return int(added)


def mail_format(session: Session, address: str) -> str | None:
    """The FORMAT the player at ``address`` chose, None for no player. A player this
    transaction has read already (the seat's, nearly always) is not read again."""
    for row in session.identity_map.values():
        if isinstance(row, Player) and row.address == address:
            return row.mail_format
    return session.scalar(select(Player.mail_format).where(Player.address == address))
