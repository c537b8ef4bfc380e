"""GET /ops: the operator's page, the same figures as `pbem ops status`, behind ops_token.

With no ops_token configured the page does not exist (404). The token comes as
``Authorization: Bearer <token>`` or, for a browser, ``?token=<token>``; a wrong or missing one
is refused with 403. The page shows counts, ages and record ids, never an address. It is private
(web.privacy): the token may be in its address.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from adjudicator.services.reading import operations
from adjudicator.services.record.runtime import Runtime

blueprint = Blueprint("operations", __name__)


def _given_token() -> str:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[len("Bearer ") :].strip()
    return request.args.get("token", "")


@blueprint.get("/ops")
def ops() -> ResponseReturnValue:
    runtime: Runtime = current_app.extensions["pbem"]
    expected = runtime.config.ops_token
    if not expected:
        abort(404)
    if not hmac.compare_digest(_given_token().encode(), expected.encode()):
        abort(403)
    found = operations.report(runtime)
    # 200 even when something is down: the page did its job, which is to say so.
    return render_template("ops.html", report=found, summary=found.to_json())
