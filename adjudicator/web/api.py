"""JSON API: stateless adjudication for game masters and tools (nothing is stored), and the
public archive read-only, with the same data and the same rule as the pages: public only."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from adjudicator import jsondata
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.services.outbound import settings_shown
from adjudicator.services.reading import listing, queries, verification
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus
from adjudicator.web import languages

PREFIX = "/api"
blueprint = Blueprint("api", __name__, url_prefix=PREFIX)
# The API as a contract (OpenAPI 3.1): a data file, read once, served as it is.
DOCUMENT: dict[str, Any] = json.loads(Path(__file__).with_name("openapi.json").read_text("utf-8"))


def _runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


@blueprint.get("/openapi.json")
def document() -> ResponseReturnValue:
    return jsonify(DOCUMENT)


@blueprint.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    """Under /api/ an error is JSON as every answer there is, whatever raised it (an address no
    rule matches, a method a rule does not take); elsewhere Flask's own page, as before."""
    if not (request.path + "/").startswith(PREFIX + "/") or error.code is None:
        return error
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    return jsonify(errors=[error.description or error.name]), error.code, headers


@blueprint.post("/adjudicate/<key>")
def adjudicate(key: str) -> ResponseReturnValue:
    rules = registry.get(key)
    if rules is None:
        return jsonify(errors=[f"there is no game called {key!r}"]), 404
    data = jsondata.loads(request.get_data()) if request.is_json else None
    if isinstance(data, Refusal):
        return jsonify(errors=[f"the request is {data.reason}; send a JSON object"]), 400
    if not isinstance(data, dict):
        return jsonify(errors=["send a JSON object: a position and each side's orders"]), 400
    result = rules.adjudicate_case(data)
    if result is None:
        return jsonify(errors=[f"{rules.title} offers no stateless adjudication"]), 404
    return jsonify(result), 400 if result.get("errors") else 200


def _time(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z") if moment else None


def _row(row: listing.GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game_key,
        "title": row.title,
        "status": row.status,
        "paused": row.paused,
        "result": row.result,
        "turns": row.turns,
        "challenge": row.challenge,
        "last_activity": _time(row.last_activity),
        "deadline": _time(row.deadline),
        "url": f"/api/games/{row.id}",
        "page": f"/games/{row.id}",
    }


@blueprint.get("/games")
def games() -> ResponseReturnValue:
    filters = listing.read_filters(request.args.get("game"), request.args.get("status"))
    if isinstance(filters, Refusal):
        return jsonify(errors=[filters.reason]), 400
    with _runtime().db.session() as session:
        rows = listing.game_rows(session, filters)
        counts = listing.game_counts(session, filters)
    return jsonify(
        games=[_row(row) for row in rows],
        counts={"game": counts.by_game, "status": counts.by_status},
        filters={"game": filters.game_key, "status": filters.status},
    )


# What a turn shows in full beyond its summary: the JSON name and the TurnPage field it reads.
FULL_TURN = {
    "outcomes": "outcomes",
    "combats": "combats",
    "removed": "removed",
    "cards_played": "cards_played",
    "defaulted": "defaulted",
    "report": "description",
    "step_report": "report",
    "view": "view",
}
# A game's own columns shown as they are stored.
GAME_FIELDS = ("status", "paused", "result", "timezone", "schedule", "commitment")


def _turn(game_id: int, turn: queries.TurnPage, full: bool) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "number": turn.number,
        "title": turn.title,
        "reason": turn.reason,
        "created_at": _time(turn.created_at),
        "rolled_back": turn.rolled_back,
        "rollback_note": turn.rollback_note,
        "page": f"/games/{game_id}/turns/{turn.number}",
        # Each version's own, at the address of what it shows: a rolled-back one's stays.
        "picture": f"{turn.picture}.png",
    }
    if full:
        shown.update({name: getattr(turn, field) for name, field in FULL_TURN.items()})
        shown["dice"] = [asdict(die) for die in turn.dice]
    return shown


@blueprint.get("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            return jsonify(errors=[f"there is no game {game_id}"]), 404
        found = page.game
        return jsonify(
            id=found.id,
            game=found.game_key,
            title=page.title,
            **{name: getattr(found, name) for name in GAME_FIELDS},
            created_at=_time(found.created_at),
            finished_at=_time(found.finished_at),
            deadline=_time(found.deadline) if found.status == GameStatus.ACTIVE else None,
            challenge=found.challenge.name if found.challenge else None,
            seed=found.seed.hex() if page.revealed else None,
            positions_shown=page.visible,
            next_turn=page.next_turn,
            seats=[asdict(seat) for seat in page.seats],
            # Each option and setting with its value and meaning, in the language the request
            # asks for (?lang=, Accept-Language); the rest of the API is English.
            settings=settings_shown.json(found, languages.asked()),
            turns=[_turn(found.id, turn, full=False) for turn in page.turns],
            # The game master's changes every player was told of, oldest first.
            changes=[
                {"at": _time(c.at), "kind": c.kind, "turn": c.turn, "note": c.note}
                for c in page.changes
            ],
            feed=f"/games/{found.id}/feed.atom",
            fairness=f"/games/{found.id}/fairness",
            fairness_record=f"/api/games/{found.id}/fairness.json",
        )


@blueprint.get("/games/<int:game_id>/fairness.json")
def fairness(game_id: int) -> ResponseReturnValue:
    """Everything a verifier needs to replay the game's dice without us (docs/fairness-json.md);
    the seed only once it is revealed."""
    found = verification.record(_runtime(), game_id)
    if found is None:
        return jsonify(errors=[f"there is no game {game_id}"]), 404
    # Asked afresh each time: a running game's next turn adds its dice, and the record is what
    # the database holds now, which is the very thing a verifier checks.
    return jsonify(found), 200, {"Cache-Control": "no-cache"}


@blueprint.get("/games/<int:game_id>/turns/<count:number>")
def turn(game_id: int, number: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        found = queries.turn_versions(session, game_id, number)
    if found is None:
        return jsonify(errors=[f"game {game_id} shows no turn {number}"]), 404
    live = [version for version in found.versions if not version.rolled_back]
    return jsonify(
        game_id=game_id,
        number=number,
        turn=_turn(game_id, live[0], full=True) if live else None,
        rolled_back=[_turn(game_id, v, full=True) for v in found.versions if v.rolled_back],
        previous=found.previous,
        next=found.following,
    )
