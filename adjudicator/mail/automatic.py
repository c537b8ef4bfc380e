"""Recognise mail no person wrote (auto-replies, bounces, list mail, loops) so we never answer it.

Answering a vacation notice or a bounce is how mail loops start, so every check errs towards
"automatic": a missed receipt costs a player one resend, a loop costs every player their inbox.
Each check returns a short reason naming the header, which is logged with the dropped message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from email.message import Message
from email.utils import getaddresses

# RFC 3834 says "no" is the only value a person's mail carries; anything else is a machine.
_PRECEDENCE_AUTOMATIC = frozenset({"bulk", "junk", "list", "auto_reply"})

# Headers whose mere presence marks an auto-responder or a mail loop. X-Auto-Response-Suppress is
# deliberately absent: it *asks* others not to auto-reply (we send it ourselves), and Outlook puts
# it on ordinary mail written by people.
_PRESENCE_HEADERS = (
    "X-Autoreply",
    "X-Autorespond",
    "X-Autoresponder",
    "X-Loop",
    "X-MS-Exchange-Inbox-Rules-Loop",
    "List-Id",
    "List-Unsubscribe",
)

_ROBOT_LOCAL_PARTS = frozenset(
    {
        "mailer-daemon",
        "postmaster",
        "noreply",
        "no-reply",
        "no_reply",
        "donotreply",
        "do-not-reply",
        "do_not_reply",
    }
)

# Subjects that auto-responders and MTAs put on their mail, matched at the start only, in the
# languages our players write in. A person's subject rarely opens like this.
_SUBJECT_AUTOMATIC = re.compile(
    r"""^\s*(?:
        out\ of\ (?:the\ )?office
      | auto(?:matic)?[-\ ]?(?:reply|response)\b
      | auto:
      | undeliverable:
      | undelivered\ mail
      | delivery\ status\ notification
      | delivery\ (?:failure|has\ failed)
      | mail\ delivery\ (?:failed|failure|system|subsystem)
      | returned\ mail\b
      | failure\ notice\b
      | abwesenheitsnotiz
      | automatische\ antwort
      | unzustellbar
      | réponse\ automatique
      | respuesta\ automática
      | автоответ
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def automatic_reason(msg: Message) -> str | None:
    """Why msg looks machine-written (naming the header), or None when a person wrote it."""
    for check in _CHECKS:
        reason = check(msg)
        if reason is not None:
            return reason
    return None


def _values(msg: Message, name: str) -> list[str]:
    """Every value of the header, as plain text; never raises, even on headers the parser chokes
    on. Every one counts: a mail saying "Auto-Submitted: no" and then "Auto-Submitted:
    auto-replied" is a machine's, as the check errs towards "automatic"."""
    try:
        values = [str(value) for value in msg.get_all(name) or []]
    except Exception:  # a malformed header must not stop the check: fall back to the raw text
        values = [str(v) for k, v in msg.raw_items() if k.lower() == name.lower()]
    return values


def _auto_submitted(msg: Message) -> str | None:
    for value in _values(msg, "Auto-Submitted"):
        keyword = value.split(";", 1)[0].strip().lower()
        if keyword not in ("", "no"):
            return f"Auto-Submitted: {keyword}"
    return None


def _precedence(msg: Message) -> str | None:
    for value in _values(msg, "Precedence"):
        if value.strip().lower() in _PRECEDENCE_AUTOMATIC:
            return f"Precedence: {value.strip().lower()}"
    return None


def _presence(msg: Message) -> str | None:
    for name in _PRESENCE_HEADERS:
        if _values(msg, name):
            return f"{name} header present"
    return None


def _empty_return_path(msg: Message) -> str | None:
    # The null reverse-path is what RFC 5321 requires on bounces and other notifications.
    if any(value.strip() in ("<>", "") for value in _values(msg, "Return-Path")):
        return "Return-Path: <> (null sender)"
    return None


def _robot_sender(msg: Message) -> str | None:
    for _, address in getaddresses(_values(msg, "From")):
        local = address.rpartition("@")[0].lower() if "@" in address else address.lower()
        if local in _ROBOT_LOCAL_PARTS:
            return f"From: {local}@ (robot sender)"
    return None


def _report(msg: Message) -> str | None:
    # multipart/report carries delivery status notifications and read receipts (RFC 6522).
    if msg.get_content_type() == "multipart/report":
        report_type = msg.get_param("report-type", "", header="content-type")
        detail = f" ({report_type})" if isinstance(report_type, str) and report_type else ""
        return f"Content-Type: multipart/report{detail}"
    return None


def envelope_reason(envelope_from: str, sender: str, domain: str) -> str | None:
    """Why the envelope or the sender says no person may be answered, beyond the headers: the
    null sender ("<>", RFC 5321 4.5.5: bounces and other notices, which MUST NOT be answered)
    a listener was given, and a From at the service's own domain (forged, or a loop: an answer
    would be mail to itself)."""
    if envelope_from.strip() == "<>":
        return "the null sender <>"
    if sender.lower().endswith("@" + domain.lower()):
        return f"From: {sender}, the service's own domain"
    return None


def auto_reply_reason(msg: Message) -> str | None:
    """An auto-responder's own signs (Auto-Submitted, its subject), whatever its return path:
    what tells an out-of-office sent with the null sender from a bounce."""
    return _auto_submitted(msg) or _subject(msg)


def _subject(msg: Message) -> str | None:
    for value in _values(msg, "Subject"):
        if _SUBJECT_AUTOMATIC.match(value):
            return f"Subject: {' '.join(value.split())[:60].rstrip()}"
    return None


# Auto-reply signs come before the null return path: an out-of-office sent with the null sender
# is named by what it is, not mistaken for a bounce in the logs.
_CHECKS: tuple[Callable[[Message], str | None], ...] = (
    _auto_submitted,
    _precedence,
    _presence,
    _subject,
    _report,
    _robot_sender,
    _empty_return_path,
)
