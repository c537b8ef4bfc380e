"""POST /inbound/mime: the raw RFC 5322 message as the body, stored before anything else."""

from __future__ import annotations

import hmac

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from adjudicator.core.refusal import Refusal
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime

blueprint = Blueprint("inbound", __name__)


@blueprint.post("/inbound/mime")
def mime() -> ResponseReturnValue:
    runtime: Runtime = current_app.extensions["pbem"]
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {runtime.config.inbound_token}"
    if not hmac.compare_digest(given.encode(), expected.encode()):
        return jsonify(error="a bearer token is required"), 401
    limit = runtime.config.max_message_bytes
    if request.content_length is not None and request.content_length > limit:
        return jsonify(error=f"message larger than {limit} bytes"), 413
    raw = request.get_data(cache=False)
    if not raw:
        return jsonify(error="empty body: send the raw message"), 400
    recipients = request.args.getlist("rcpt") or request.headers.getlist("X-Envelope-To")
    result = inbox.store(
        runtime,
        raw,
        source="http",
        envelope_from=request.args.get("from", ""),
        envelope_to=recipients,
    )
    if isinstance(result, Refusal):
        return jsonify(error=result.reason), 413
    # 202: stored and queued; the reply, if any, comes by mail.
    return jsonify(id=result.id, duplicate=result.duplicate), 202
