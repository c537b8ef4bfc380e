"""Receiving mail: store the raw bytes first, answer at once, process later."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from email.parser import BytesHeaderParser

from sqlalchemy import Select, insert, select
from sqlalchemy.exc import IntegrityError

from adjudicator.core.refusal import Refusal
from adjudicator.mail import addresses, reading
from adjudicator.mail.header_bounds import short_headers
from adjudicator.models import Game, InboundMessage
from adjudicator.services.record.runtime import Runtime, Task
from adjudicator.statuses import InboundStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Stored:
    id: int
    duplicate: bool


def routed_game(runtime: Runtime, raw: bytes, envelope_to: Sequence[str]) -> int | None:
    """The game a message is for, from its orders+ address, known before it is read in full.

    Lets adjudication find a game's waiting mail by an indexed column instead of reading
    every waiting message."""
    recipients = list(envelope_to)
    if not recipients:
        try:
            headers = BytesHeaderParser(policy=reading.POLICY).parsebytes(
                short_headers(raw[:65536])
            )
            fields = ("To", "Cc", "Delivered-To", "X-Original-To")
            recipients = [str(a) for name in fields for a in headers.get_all(name, [])]
        except Exception:  # not a mail: no game
            return None
    config = runtime.config
    for field in recipients:
        for address in field.split(","):
            route = addresses.route(
                address, config.mail_domain, config.secret_key, config.previous_keys
            )
            if isinstance(route, addresses.SeatRoute):
                return route.game_id
    return None


def dedupe_key(raw: bytes) -> str:
    """The Message-ID when there is one (a resent copy collapses), else a hash of the bytes."""
    try:
        headers = BytesHeaderParser(policy=reading.POLICY).parsebytes(short_headers(raw[:65536]))
        message_id = str(headers.get("Message-ID", "") or "").strip()
    except Exception:  # not a mail at all: the hash still identifies it
        message_id = ""
    if message_id and len(message_id) < 390:
        return "mid:" + message_id
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def storable(text: str) -> str:
    """The text as every database can keep it, "?" for what it cannot: a lone surrogate (a
    webhook's JSON can spell \\ud800, which no UTF-8 holds) and NUL (not in PostgreSQL's text
    or JSON). Refusing the message for it would only have the provider retry it."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "?")


def known_game(game_id: int) -> Select[int]:
    """The game's id if this database has the game."""
    return select(Game.id).where(Game.id == game_id)


def store(
    runtime: Runtime,
    raw: bytes,
    source: str,
    envelope_from: str = "",
    envelope_to: Sequence[str] = (),
) -> Stored | Refusal:
    """Keep the message exactly as it came and queue it for processing."""
    if len(raw) > runtime.config.max_message_bytes:
        return Refusal(
            f"message is {len(raw)} bytes; the limit is {runtime.config.max_message_bytes}"
        )
    envelope_from = storable(envelope_from)
    envelope_to = [storable(address) for address in envelope_to]
    key = dedupe_key(raw)
    game_id = routed_game(runtime, raw, envelope_to)
    row = {
        "dedupe_key": key,
        "source": source,
        "envelope_from": envelope_from,
        "envelope_to": [address.lower() for address in envelope_to],
        "raw": raw,
        "size": len(raw),
        # The game's id only if this database has the game (a token can name one it has not),
        # asked within the INSERT itself: the whole row is not needed here.
        "game_id": None if game_id is None else known_game(game_id).scalar_subquery(),
    }
    try:
        with runtime.db.session() as session:
            stored = session.execute(
                insert(InboundMessage)
                .values(row)
                .returning(InboundMessage.id, InboundMessage.game_id)
            ).one()
            runtime.later(session, Task.PROCESS_INBOUND, stored.id)
            ids = {
                "inbound_id": stored.id,
                "game_id": stored.game_id,
                "status": InboundStatus.RECEIVED,
            }
            log.info("inbound %s stored from %s", stored.id, source, extra=ids)
            return Stored(stored.id, duplicate=False)
    except IntegrityError:
        with runtime.db.session() as session:
            existing = session.scalar(
                select(InboundMessage.id).where(InboundMessage.dedupe_key == key)
            )
        if existing is None:  # lost a race with a delete that never happens; be loud
            raise
        return Stored(existing, duplicate=True)
