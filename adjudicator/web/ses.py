"""POST /inbound/ses: Amazon SES receiving, its receipt rule's SNS action posting through SNS.

SNS retries a delivery only on a 5xx (or no answer), so a refused message gets a 4xx and a
message we could not store or check just now gets a 503.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from adjudicator import jsondata
from adjudicator.core.refusal import Refusal
from adjudicator.mail import sns
from adjudicator.web.providers import (
    Codes,
    current_runtime,
    disabled,
    read_body,
    reply,
    store,
    too_large,
)

blueprint = Blueprint("ses", __name__)

SES = Codes(ok=200, give_up=413)


@dataclass(frozen=True)
class ReceivedMail:
    raw: bytes
    sender: str
    recipients: list[str]


@dataclass(frozen=True)
class Unusable:
    reason: str
    # A genuine notification that simply carries no mail (a sending event on a shared topic):
    # acknowledged so SNS does not count it as a failed delivery.
    ignore: bool = False


def verifier() -> sns.Verifier:
    # One per app, so a signing certificate is fetched once per process.
    found: sns.Verifier = current_app.extensions.setdefault("pbem.sns", sns.Verifier())
    return found


def received_mail(message: str) -> ReceivedMail | Unusable:
    """The mail inside an SES receipt notification (the SNS Message field)."""
    notification: Any = jsondata.loads(message)
    if isinstance(notification, Refusal):
        return Unusable(f"the SNS Message is {notification.reason}")
    if not isinstance(notification, dict):
        return Unusable("the SNS Message is not an SES notification")
    if notification.get("notificationType") != "Received":
        return Unusable("not a received-mail notification", ignore=True)
    receipt = notification.get("receipt") or {}
    mail = notification.get("mail") or {}
    content = notification.get("content")
    if not isinstance(content, str) or not isinstance(receipt, dict) or not isinstance(mail, dict):
        return Unusable("no content: the receipt rule must use the SNS action")
    action = receipt.get("action") or {}
    encoding = str(action.get("encoding", "UTF8") if isinstance(action, dict) else "UTF8")
    if encoding.upper() == "BASE64":
        try:
            raw = base64.b64decode(content, validate=True)
        except (binascii.Error, ValueError):
            return Unusable("content is not base64 as the receipt says")
    else:
        # UTF-8 encoding may already have altered 8-bit mail; BASE64 keeps it exact.
        raw = content.encode("utf-8")
    listed = receipt.get("recipients")
    # Anything but a list of addresses (a number, true) names no recipient.
    recipients = [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []
    return ReceivedMail(raw, str(mail.get("source") or ""), recipients)


@blueprint.post("/inbound/ses")
def ses() -> ResponseReturnValue:
    runtime = current_runtime()
    topics = frozenset(t.strip() for t in runtime.config.ses_topic_arns.split(",") if t.strip())
    if not topics:
        return disabled()
    body = read_body(runtime)
    if body is None:
        return too_large(runtime, SES)
    message: Any = jsondata.loads(body)
    kind = request.headers.get("x-amz-sns-message-type", "")
    if not isinstance(message, dict) or message.get("Type") != kind:
        return jsonify(error="not an SNS message"), 400
    # Signed over every field used below, so nothing is read from a forged message. No age
    # check: a replayed notification can only bring back a message that is stored once.
    checked = verifier().verify(message, topics)
    if isinstance(checked, sns.Invalid):
        return jsonify(error=checked.reason), 503 if checked.retry else 403
    if kind == "SubscriptionConfirmation":
        problem = verifier().confirm(str(message.get("SubscribeURL", "")))
        if problem is not None:
            return jsonify(error=problem.reason), 503 if problem.retry else 403
        return jsonify(subscribed=checked.topic_arn), 200
    if kind != "Notification":
        return jsonify(ignored=kind), 200
    mail = received_mail(str(message.get("Message", "")))
    if isinstance(mail, Unusable):
        if mail.ignore:
            return jsonify(ignored=mail.reason), 200
        return jsonify(error=mail.reason), 400
    return reply(store(runtime, mail.raw, "ses", mail.sender, mail.recipients), SES)
