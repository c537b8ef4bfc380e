"""GET /healthz: can this process reach the database (and Redis, when it is the broker)?

For load balancers and monitors: 200 when it can, 503 when it cannot, with the backlog's counts
and ages. Only counts and states: no address, host name, error text or secret, since anyone who
can reach the site can read it.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from adjudicator.services.reading import operations
from adjudicator.services.record.runtime import Runtime

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz() -> ResponseReturnValue:
    runtime: Runtime = current_app.extensions["pbem"]
    found = operations.report(runtime)
    response = jsonify(found.to_json())
    response.status_code = 200 if found.healthy else 503
    # A cached "ok" would hide an outage from the very monitor asking.
    response.headers["Cache-Control"] = "no-store"
    return response
