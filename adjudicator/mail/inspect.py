"""What the pipeline would make of a raw message, as data, without acting on it (for operators)."""

from __future__ import annotations

from collections.abc import Sequence
from email import policy
from email.parser import BytesHeaderParser
from typing import Any

from adjudicator.core.refusal import Refusal
from adjudicator.mail import addresses, dkim, extract
from adjudicator.mail.automatic import auto_reply_reason
from adjudicator.mail.reading import Unreadable, read


def automatic_kind(raw: bytes, sender: str) -> str:
    """Which kind of machine wrote it: a bounce, list mail, or an auto-reply."""
    headers = BytesHeaderParser(policy=policy.default).parsebytes(raw[:65536])
    local = sender.split("@", 1)[0]
    return_path = str(headers.get("Return-Path", "") or "").strip()
    report_type = str(headers.get_param("report-type", "", header="content-type")).lower()
    if report_type == "disposition-notification":
        return "auto-reply"  # a read receipt: the mail arrived and was opened, nothing bounced
    if headers.get_content_type() == "multipart/report" or local in ("mailer-daemon", "postmaster"):
        return "bounce"
    # An out-of-office sent with the null sender (Exchange does) still says what it is: its own
    # signs come before the null return path that bounces share with it.
    if auto_reply_reason(headers) is not None:
        return "auto-reply"
    if return_path == "<>":
        return "bounce"
    if headers.get("List-Id") or str(headers.get("Precedence", "")).lower() in ("list", "bulk"):
        return "list"
    return "auto-reply"


def inspect(
    raw: bytes,
    domain: str,
    secret: str,
    envelope_to: list[str] | None = None,
    previous: Sequence[str] = (),
) -> dict[str, Any]:
    """The message's kind, sender, route and the exact lines the order parser would get."""
    mail = read(raw)
    if isinstance(mail, Unreadable):
        return {"kind": "unreadable", "reason": mail.reason}
    result: dict[str, Any] = {
        "message_id": mail.message_id,
        "sender": mail.sender,
        "subject": mail.subject,
    }
    if mail.automatic:
        return {**result, "kind": automatic_kind(raw, mail.sender), "reason": mail.automatic}
    recipients = envelope_to or list(mail.recipients)
    ours = [address for address in recipients if address.lower().endswith("@" + domain)]
    route: dict[str, Any]
    if not ours:
        route = {"to": None, "problem": f"not addressed to {domain}"}
    else:
        target = ours[0].lower()
        local = target.split("@", 1)[0]
        if local in ("new", "help"):
            route = {"to": target, "service": local}
        else:
            seat = addresses.route(target, domain, secret, previous)
            route = (
                {"to": target, "problem": seat.reason}
                if isinstance(seat, Refusal)
                else {
                    "to": target,
                    "game": seat.game_id,
                    "seat": seat.seat,
                    "version": seat.version,
                }
            )
    lines = [line for line in extract.order_lines(mail.text) if line.strip()]
    if not lines:
        subject = extract.subject_line(mail.subject)
        lines = [subject] if subject else []
    # The same verdict the pipeline records (it may ask DNS for the signer's key).
    verdict = dkim.verify(raw, mail.sender.rsplit("@", 1)[-1])
    return {**result, "kind": "orders/commands", "route": route, "dkim": verdict, "lines": lines}
