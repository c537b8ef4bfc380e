"""Inbound mail from hosted providers' webhooks: Mailgun, SendGrid and Postmark (SES: ses.py).

Each view checks that the request is the provider's, stores the raw message with inbox.store
and answers with the status code the provider documents for "done", "give up" or "try again":
a refused request must not be retried for days, and a message we failed to store must be.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from adjudicator import jsondata
from adjudicator.config import Config
from adjudicator.core import numbers
from adjudicator.core.refusal import Refusal
from adjudicator.services.access import webhook_tokens
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import formdata

blueprint = Blueprint("providers", __name__)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Codes:
    """A provider's documented answers (every one of them retries on a 5xx)."""

    ok: int
    give_up: int
    retry: int = 503


# Mailgun retries anything but 200 and 406 for 8 hours.
MAILGUN = Codes(ok=200, give_up=406)
# SendGrid retries only 5xx (for 3 days); any 4xx ends it.
SENDGRID = Codes(ok=200, give_up=413)
# Postmark retries anything but 200 ten times over 10 hours, except 403.
POSTMARK = Codes(ok=200, give_up=403)


@dataclass(frozen=True)
class StoreFailed:
    reason: str


def current_runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


def wrapper_limit(config: Config) -> int:
    # The message arrives wrapped (form fields, JSON escaping, base64, parsed copies beside
    # the raw one), so the request may be several times its size; inbox.store applies the
    # exact limit to the message itself.
    return config.max_message_bytes * 4 + 65536


def read_body(runtime: Runtime) -> bytes | None:
    """The request body, or None when it is larger than any acceptable message could make it.

    A declared Content-Length is judged before a byte is read; a chunked body is cut off by
    the same limit as it is read."""
    limit = wrapper_limit(runtime.config)
    if request.content_length is not None and request.content_length > limit:
        return None
    request.max_content_length = limit
    try:
        return request.get_data(cache=True)
    except RequestEntityTooLarge:
        return None


def too_large(runtime: Runtime, codes: Codes) -> ResponseReturnValue:
    limit = runtime.config.max_message_bytes
    return jsonify(error=f"request too large for a message of at most {limit} bytes"), (
        codes.give_up
    )


def store(
    runtime: Runtime, raw: bytes, source: str, sender: str, recipients: Sequence[str]
) -> inbox.Stored | Refusal | StoreFailed:
    try:
        return inbox.store(
            runtime,
            raw,
            source=source,
            envelope_from=sender.strip().strip("<>")[:320],
            envelope_to=[address.strip() for address in recipients if address.strip()],
        )
    except Exception as error:  # database down or full: the provider must try again later
        log.exception("could not store a message from %s", source)
        return StoreFailed(f"could not store the message ({type(error).__name__})")


def reply(result: inbox.Stored | Refusal | StoreFailed, codes: Codes) -> ResponseReturnValue:
    if isinstance(result, StoreFailed):
        return jsonify(error=result.reason + "; try again later"), codes.retry
    if isinstance(result, Refusal):
        return jsonify(error=result.reason), codes.give_up
    return jsonify(id=result.id, duplicate=result.duplicate), codes.ok


def basic_auth(user: str, password: str) -> bool | None:
    """Whether the request carries these credentials; None when it carries none at all."""
    given = request.authorization
    if given is None or given.type != "basic":
        return None
    same_user = hmac.compare_digest((given.username or "").encode(), user.encode())
    same_password = hmac.compare_digest((given.password or "").encode(), password.encode())
    return same_user and same_password


def challenge(message: str) -> ResponseReturnValue:
    # Answered only when no credentials came at all, so a client that sends them only when
    # challenged (as URL credentials often are) can still get in.
    return jsonify(error=message), 401, {"WWW-Authenticate": 'Basic realm="pbem inbound"'}


def form(body: bytes) -> dict[str, bytes] | None:
    boundary = request.mimetype_params.get("boundary", "")
    if request.mimetype != "multipart/form-data" or not boundary:
        return None
    return formdata.parts(body, boundary)


def as_list(value: object) -> list[object]:
    """A JSON field documented as a list: a lone string is a list of one, any other shape none."""
    if isinstance(value, str):
        return [value] if value else []
    return value if isinstance(value, list) else []


def disabled() -> ResponseReturnValue:
    return jsonify(error="this provider is not configured"), 404


@blueprint.post("/inbound/mailgun/mime")
def mailgun() -> ResponseReturnValue:
    """A Mailgun route's forward() to a URL ending in "mime": the message posted as body-mime."""
    runtime = current_runtime()
    config = runtime.config
    if not config.mailgun_signing_key:
        return disabled()
    body = read_body(runtime)
    if body is None:
        return too_large(runtime, MAILGUN)
    fields = form(body)
    if fields is None:
        return jsonify(error="expected multipart/form-data"), MAILGUN.give_up
    timestamp, token = formdata.text(fields, "timestamp"), formdata.text(fields, "token")
    expected = hmac.new(
        config.mailgun_signing_key.encode(), (timestamp + token).encode(), hashlib.sha256
    ).hexdigest()
    if not token or not hmac.compare_digest(expected, formdata.text(fields, "signature")):
        return jsonify(error="the Mailgun signature does not match"), MAILGUN.give_up
    # The signature covers only timestamp and token, not the message: a captured request is
    # good for another body, so it must be recent and its token used once.
    stamp = numbers.whole(timestamp)
    if stamp is None or abs(time.time() - stamp) > config.webhook_max_age_seconds:
        return jsonify(error="the Mailgun timestamp is too old or in the future"), MAILGUN.give_up
    raw = fields.get("body-mime")
    if not raw:
        message = "no body-mime: the route's forward() URL must end in mime"
        return jsonify(error=message), MAILGUN.give_up
    try:
        fresh = webhook_tokens.claim(runtime, "mailgun", token)
    except Exception:  # the database is down: nothing was stored, so ask for the retry
        log.exception("could not record a Mailgun token")
        return jsonify(error="could not store the message; try again later"), MAILGUN.retry
    if not fresh:
        return jsonify(error="this Mailgun token was already used"), MAILGUN.give_up
    recipients = formdata.text(fields, "recipient").split(",")
    result = store(runtime, raw, "mailgun", formdata.text(fields, "sender"), recipients)
    if isinstance(result, StoreFailed):
        try:
            webhook_tokens.release(runtime, "mailgun", token)
        except Exception:  # the database is down; the retry may be refused as a replay
            log.exception("could not release Mailgun token after a failed store")
    return reply(result, MAILGUN)


def sendgrid_signature_problem(config: Config, body: bytes) -> str | None:
    """SendGrid's signed-webhook check: ECDSA (P-256, SHA-256) over timestamp + raw body.

    No age check: the signature covers the whole body, so a replay can only bring back the
    same message, which is stored once; and SendGrid may retry a post for days."""
    signature = request.headers.get("X-Twilio-Email-Event-Webhook-Signature", "")
    timestamp = request.headers.get("X-Twilio-Email-Event-Webhook-Timestamp", "")
    if not signature or not timestamp:
        return "the SendGrid signature headers are missing"
    key_text = config.sendgrid_public_key.strip()
    try:
        # The settings page shows the key as base64 DER without PEM armour; accept both.
        if "BEGIN PUBLIC KEY" in key_text:
            key = serialization.load_pem_public_key(key_text.encode())
        else:
            key = serialization.load_der_public_key(base64.b64decode(key_text))
        decoded = base64.b64decode(signature, validate=True)
    except (ValueError, binascii.Error):
        return "the SendGrid signature or the configured public key is not readable"
    if not isinstance(key, ec.EllipticCurvePublicKey):
        return "sendgrid_public_key is not an elliptic-curve key"
    try:
        key.verify(decoded, timestamp.encode() + body, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return "the SendGrid signature does not match"
    return None


@blueprint.post("/inbound/sendgrid")
def sendgrid() -> ResponseReturnValue:
    """SendGrid Inbound Parse with "POST the raw, full MIME message": the message as email."""
    runtime = current_runtime()
    config = runtime.config
    # Either check switches the endpoint on; each one configured is enforced.
    if not (config.sendgrid_password or config.sendgrid_public_key):
        return disabled()
    if config.sendgrid_password:
        authorised = basic_auth(config.sendgrid_user, config.sendgrid_password)
        if authorised is None:
            return challenge("credentials required: put them in the Inbound Parse URL")
        if not authorised:
            return jsonify(error="wrong credentials"), 401
    body = read_body(runtime)
    if body is None:
        return too_large(runtime, SENDGRID)
    if config.sendgrid_public_key:
        problem = sendgrid_signature_problem(config, body)
        if problem:
            return jsonify(error=problem), 403
    fields = form(body)
    if fields is None:
        return jsonify(error="expected multipart/form-data"), 400
    raw = fields.get("email")
    if not raw:
        return jsonify(error='no "email" field: turn on "POST the raw, full MIME message"'), 400
    envelope = jsondata.loads(fields.get("envelope", b"{}"))
    if not isinstance(envelope, dict):
        return jsonify(error="envelope is not a JSON object"), 400
    recipients = as_list(envelope.get("to"))
    sender = str(envelope.get("from") or "")
    return reply(store(runtime, raw, "sendgrid", sender, [str(r) for r in recipients]), SENDGRID)


@blueprint.post("/inbound/postmark")
def postmark() -> ResponseReturnValue:
    """Postmark's inbound webhook with "Include raw email content": the message as RawEmail."""
    runtime = current_runtime()
    config = runtime.config
    if not config.postmark_password:
        return disabled()
    authorised = basic_auth(config.postmark_user, config.postmark_password)
    if authorised is None:
        return challenge("credentials required: put them in the inbound webhook URL")
    if not authorised:
        # 403, not 401: it stops Postmark's retries, and a message held back by a wrong
        # password can still be retried by hand from Postmark's activity page.
        return jsonify(error="wrong credentials"), POSTMARK.give_up
    body = read_body(runtime)
    if body is None:
        return too_large(runtime, POSTMARK)
    payload = jsondata.loads(body)
    if not isinstance(payload, dict):
        return jsonify(error="expected Postmark's inbound JSON"), POSTMARK.give_up
    raw = payload.get("RawEmail")
    if not isinstance(raw, str) or not raw:
        message = 'no RawEmail: turn on "Include raw email content in JSON payload"'
        return jsonify(error=message), POSTMARK.give_up
    try:
        data = raw.encode("utf-8")
    except UnicodeEncodeError:  # JSON spelt a lone surrogate (\ud800): no mail Postmark sends
        return jsonify(error="RawEmail is not text"), POSTMARK.give_up
    recipients = [str(payload.get("OriginalRecipient") or "")]
    if not recipients[0]:
        listed = as_list(payload.get("ToFull"))
        recipients = [str(r.get("Email", "")) for r in listed if isinstance(r, dict)]
    sender = ""
    for header in as_list(payload.get("Headers")):
        if isinstance(header, dict) and str(header.get("Name", "")).lower() == "return-path":
            sender = str(header.get("Value", ""))
    result = store(runtime, data, "postmark", sender, recipients)
    return reply(result, POSTMARK)
