"""The SMTP listener: accept mail for our domain, store the raw bytes, answer 250 at once."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from adjudicator.services import inbox
from adjudicator.services.runtime import Runtime

log = logging.getLogger(__name__)


class InboundHandler:
    """aiosmtpd handler: refuses relaying, stores accepted messages before saying 250."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.domain = runtime.config.mail_domain.lower()

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if not address.lower().endswith("@" + self.domain):
            return f"550 5.7.1 this server only accepts mail for {self.domain}"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            # 250 is only said once the mail is stored; the write runs on a thread so a slow
            # database (SQLite waiting for its lock) never stalls the other SMTP sessions.
            result = await asyncio.to_thread(
                inbox.store,
                self.runtime,
                raw,
                "smtp",
                envelope.mail_from or "",
                list(envelope.rcpt_tos),
            )
        except Exception:
            log.exception("could not store an inbound message")
            return "451 4.3.0 temporary failure storing the message; please retry"
        if isinstance(result, inbox.Refused):
            return f"552 5.3.4 {result.reason}"
        return f"250 2.0.0 Message accepted as {result.id}"


def controller(runtime: Runtime, host: str | None = None, port: int | None = None) -> Controller:
    """A started-on-demand listener in its own thread (call .start() and .stop())."""
    config = runtime.config
    kwargs: dict[str, Any] = {
        "hostname": host or config.smtp_host,
        "port": config.smtp_port if port is None else port,
        "data_size_limit": config.max_message_bytes,
        "decode_data": False,
        "server_hostname": config.mail_domain,
        "ready_timeout": 10,
    }
    return Controller(InboundHandler(runtime), **kwargs)
