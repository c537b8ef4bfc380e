"""The SMTP and LMTP listeners: accept mail for our domain, store the raw bytes, answer 250 at once.

LMTP (RFC 2033) is for a Postfix in front of the service: Postfix keeps the queue and retries, and
hands each mail for our domain to the LMTP listener through a transport (lmtp:inet:host:port).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, AnyStr

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

from adjudicator.core.refusal import Refusal
from adjudicator.mail import recipients
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime

log = logging.getLogger(__name__)


class InboundHandler:
    """aiosmtpd handler: refuses relaying and addresses nobody uses, stores accepted messages
    before saying 250."""

    def __init__(self, runtime: Runtime, source: str = "smtp") -> None:
        self.runtime = runtime
        self.source = source  # how the message came, as recorded on it
        self.domain = runtime.config.mail_domain.lower()

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        # Refused here, not after the data: the sending server then tells its own user, and
        # no reply of ours ever goes to a From line that may be forged.
        found = recipients.check(address, self.domain, self.runtime.config.from_address)
        if isinstance(found, recipients.Refused):
            return f"550 {found.status} {found.reason}"
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
                self.source,
                envelope.mail_from or "",
                list(envelope.rcpt_tos),
            )
        except Exception:
            log.exception("could not store an inbound message")
            return "451 4.3.0 temporary failure storing the message; please retry"
        if isinstance(result, Refusal):
            return f"552 5.3.4 {result.reason}"
        return f"250 2.0.0 Message accepted as {result.id}"


class InboundLMTP(LMTP):
    """LMTP as RFC 2033 4.2 has it: after the data, one reply for each accepted recipient.

    aiosmtpd's LMTP answers the data once, as SMTP does, which leaves a client with several
    recipients waiting for replies that never come. The message is stored once for all of them,
    so every recipient gets the same reply, whichever path (stored, refused, too big) gave it.
    """

    _replies_due = 0

    async def push(self, status: AnyStr) -> None:
        if self._replies_due:
            due, self._replies_due = self._replies_due, 0
            for _ in range(due):
                await super().push(status)
            return
        await super().push(status)
        code = status[:4] if isinstance(status, str) else status[:4].decode("ascii", "replace")
        if code == "354 " and self.envelope is not None:
            # From here on the next reply is the data's; RCPT only listed accepted recipients.
            self._replies_due = len(self.envelope.rcpt_tos)


class LMTPController(Controller):
    """A Controller whose sessions speak LMTP."""

    def factory(self) -> SMTP:
        return InboundLMTP(self.handler, **self.SMTP_kwargs)


def _listener_options(runtime: Runtime, host: str | None, port: int) -> dict[str, Any]:
    config = runtime.config
    return {
        "hostname": host or config.smtp_host,
        "port": port,
        "data_size_limit": config.max_message_bytes,
        "decode_data": False,
        "server_hostname": config.mail_domain,
        "ready_timeout": 10,
    }


def controller(runtime: Runtime, host: str | None = None, port: int | None = None) -> Controller:
    """A started-on-demand listener in its own thread (call .start() and .stop())."""
    port = runtime.config.smtp_port if port is None else port
    return Controller(InboundHandler(runtime), **_listener_options(runtime, host, port))


def lmtp_controller(
    runtime: Runtime, host: str | None = None, port: int | None = None
) -> LMTPController:
    """The LMTP listener, on smtp_host:lmtp_port unless told otherwise (call .start(), .stop())."""
    port = runtime.config.lmtp_port if port is None else port
    handler = InboundHandler(runtime, source="lmtp")
    return LMTPController(handler, **_listener_options(runtime, host, port))


def listeners(runtime: Runtime) -> list[Controller]:
    """What `pbem serve` and `pbem smtp` start: SMTP, and LMTP when lmtp_port is set."""
    found = [controller(runtime)]
    if runtime.config.lmtp_port:
        found.append(lmtp_controller(runtime))
    return found
