"""JSON API: stateless adjudication for game masters and tools (nothing is stored)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from adjudicator.core import registry

blueprint = Blueprint("api", __name__, url_prefix="/api")


@blueprint.post("/adjudicate/<key>")
def adjudicate(key: str) -> ResponseReturnValue:
    rules = registry.get(key)
    if rules is None:
        return jsonify(errors=[f"there is no game called {key!r}"]), 404
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return jsonify(errors=["send a JSON object: a position and each side's orders"]), 400
    result = rules.adjudicate_case(data)
    if result is None:
        return jsonify(errors=[f"{rules.title} offers no stateless adjudication"]), 404
    return jsonify(result), 400 if result.get("errors") else 200
