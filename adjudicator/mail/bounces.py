"""VERP return paths and delivery status notifications (RFC 3464) that come back to them.

Every outbound mail leaves with its own envelope sender, bounces+<outbox id>-<mac>@<domain>, so a
bounce names the exact mail that failed without our having to guess from the bounce's free text
(which every MTA words differently). The mac is a short HMAC of the id: nobody can mark someone
else's mail as bounced by mailing a made-up address. The local part is digits and lower-case hex
only, because some MTAs change the case of addresses and others truncate long local parts.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32

from adjudicator.core.refusal import Refusal
from adjudicator.mail.addresses import bare
from adjudicator.mail.reading import bounded

LOCAL_PART = "bounces"
MAC_LENGTH = 10  # hex characters: 40 bits, far beyond what anyone can guess by mailing us
SUMMARY_LIMIT = 500

_TOKEN = re.compile(r"([0-9]{1,18})-([0-9a-f]+)")
_SPACES = re.compile(r"\s+")


def _mac(secret: str, outbox_id: int) -> str:
    # Its own key derivation, so a bounce mac can never stand in for a seat token's or vice versa.
    key = f"{secret}|bounce".encode()
    return hmac.new(key, str(outbox_id).encode(), hashlib.sha256).hexdigest()[:MAC_LENGTH]


def return_path(secret: str, outbox_id: int, domain: str) -> str:
    """The envelope sender of outbox mail outbox_id: bounces+<id>-<mac>@<domain>."""
    if outbox_id < 0:
        raise ValueError("outbox ids are not negative")  # our own database's value: a bug
    return f"{LOCAL_PART}+{outbox_id}-{_mac(secret, outbox_id)}@{domain}"


def is_bounce_address(address: str, domain: str) -> bool:
    """True for any bounces+…@<domain> address, valid or not: such mail is never answered."""
    local, at, address_domain = bare(address).rpartition("@")
    ours = address_domain.rstrip(".") == domain.lower().rstrip(".")
    return bool(at) and ours and local.startswith(LOCAL_PART + "+")


def looks_like_return_path(local: str) -> bool:
    """True when ``local`` (a lower-case local part) has the shape of bounces+<id>-<mac>."""
    prefix = LOCAL_PART + "+"
    return local.startswith(prefix) and _TOKEN.fullmatch(local[len(prefix) :]) is not None


def outbox_id(
    address: str, domain: str, secret: str, previous: Sequence[str] = ()
) -> int | Refusal:
    """The outbox id a return path names, or why it names none (forged, truncated, not ours);
    one signed with a ``previous`` key (retired by a rotation) still names its mail."""
    local, at, address_domain = bare(address).rpartition("@")
    if not at or address_domain.rstrip(".") != domain.lower().rstrip("."):
        return Refusal("not our domain")
    prefix = LOCAL_PART + "+"
    if not local.startswith(prefix):
        return Refusal("not a bounce address")
    found = _TOKEN.fullmatch(local[len(prefix) :])
    if found is None:
        return Refusal("malformed bounce address")
    number, mac = int(found.group(1)), found.group(2)
    if not any(hmac.compare_digest(mac, _mac(key, number)) for key in (secret, *previous)):
        return Refusal("bounce address does not check out (forged or truncated?)")
    return number


@dataclass(frozen=True)
class RecipientStatus:
    """One per-recipient block of a delivery status notification."""

    recipient: str  # the Final-Recipient address, bare
    action: str  # failed | delayed | delivered | relayed | expanded, lower-cased
    status: str  # the enhanced status code, e.g. "5.1.1"
    diagnostic: str  # what the remote server said, on one line, without the "smtp;" type


@dataclass(frozen=True)
class DeliveryReport:
    """What a delivery status notification says about each recipient it reports on."""

    recipients: tuple[RecipientStatus, ...]

    def first(self, action: str) -> RecipientStatus | None:
        return next((r for r in self.recipients if r.action == action), None)


def read_report(raw: bytes) -> DeliveryReport | Refusal:
    """The delivery report in a multipart/report message, or why there is none. Never raises."""
    try:
        # compat32 leaves header values as the text that came, which is all a DSN field needs;
        # it also never chokes on the odd header MTAs write.
        # Read as far as an inbound mail is (``reading.bounded``): no deeper than its parts go.
        message = BytesParser(policy=compat32).parsebytes(bounded(raw))
    except Exception as error:  # the promise is "never raise": a parser bug becomes a reason
        return Refusal(f"could not parse the message ({type(error).__name__})")
    if message.get_content_type() != "multipart/report":
        return Refusal("not a multipart/report")
    report_type = str(message.get_param("report-type", "") or "").lower()
    if report_type != "delivery-status":
        return Refusal(f"a report of type {report_type or 'none'}, not delivery-status")
    part = next(
        (p for p in message.walk() if p.get_content_type() == "message/delivery-status"), None
    )
    if part is None:
        return Refusal("no message/delivery-status part")
    blocks = part.get_payload()
    if not isinstance(blocks, list) or len(blocks) < 2:
        return Refusal("the delivery-status part reports on no recipient")
    # The first block is about the message as a whole (Reporting-MTA); each later one is about
    # one recipient.
    recipients = tuple(_recipient(block) for block in blocks[1:] if isinstance(block, Message))
    recipients = tuple(r for r in recipients if r.action)
    if not recipients:
        return Refusal("the delivery-status part names no action")
    return DeliveryReport(recipients)


def _recipient(block: Message) -> RecipientStatus:
    final = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
    return RecipientStatus(
        recipient=bare(final.partition(";")[2] or final),
        action=_field(block, "Action").lower().split(" ", 1)[0],
        status=_field(block, "Status").split(" ", 1)[0],
        diagnostic=_without_type(_field(block, "Diagnostic-Code")),
    )


def _field(block: Message, name: str) -> str:
    value = block.get(name)
    return "" if value is None else _SPACES.sub(" ", str(value)).strip()


def _without_type(diagnostic: str) -> str:
    # "smtp; 550 5.1.1 …": the type says how to read the rest, which a person reads anyway.
    kind, semicolon, rest = diagnostic.partition(";")
    return rest.strip() if semicolon and " " not in kind.strip() else diagnostic


def summary(status: RecipientStatus) -> str:
    """One line for the outbox row and the logs: the status code, then the server's words."""
    words = status.diagnostic or f"{status.action} for {status.recipient or 'the recipient'}"
    line = f"{status.status or '?'} {words}"
    return line if len(line) <= SUMMARY_LIMIT else line[: SUMMARY_LIMIT - 1] + "…"
