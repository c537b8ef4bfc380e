"""The public archive: games, every turn's picture and results, help, verification, leaderboards."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template
from flask.typing import ResponseReturnValue

from adjudicator.core import registry
from adjudicator.services import queries, verification
from adjudicator.services.runtime import Runtime

blueprint = Blueprint("archive", __name__)


def _runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


@blueprint.get("/")
def index() -> ResponseReturnValue:
    with _runtime().db.session() as session:
        rows = queries.game_rows(session)
    return render_template("index.html", games=rows)


@blueprint.get("/games/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            abort(404)
        return render_template("game.html", page=page, game=page.game)


@blueprint.get("/games/<int:game_id>/turns/<int:number>.png")
def turn_picture(game_id: int, number: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        png = queries.turn_picture(session, game_id, number)
    if png is None:
        abort(404)
    # A stored turn never changes, so its picture may be cached for good.
    headers = {"Cache-Control": "public, max-age=31536000, immutable"}
    return Response(png, mimetype="image/png", headers=headers)


@blueprint.get("/games/<int:game_id>/verify")
def verify_page(game_id: int) -> ResponseReturnValue:
    result = verification.verify_game(_runtime(), game_id)
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            abort(404)
        seed = page.game.seed.hex() if page.revealed else None
        return render_template("verify.html", game=page.game, result=result, seed=seed)


@blueprint.get("/challenges/<name>")
def challenge_page(name: str) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        found = queries.challenge_games(session, name)
        if found is None:
            abort(404)
        challenge, games = found
        return render_template("challenge.html", challenge=challenge, games=games)


@blueprint.get("/help")
@blueprint.get("/help/<key>")
def help_page(key: str | None = None) -> ResponseReturnValue:
    rules = registry.get(key) if key else None
    if key and rules is None:
        abort(404)
    return render_template(
        "help.html",
        games=list(registry.games().values()),
        game=rules,
        domain=_runtime().config.mail_domain,
    )
