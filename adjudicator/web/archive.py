"""The public archive: games, every turn's picture and results, feeds, fairness, charts.

Every page reads through ``services.reading.queries``, which gives only what the public may see.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.mail import addresses
from adjudicator.services.outbound import settings_shown, turn_pictures
from adjudicator.services.reading import listing, queries, verification
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus
from adjudicator.web import charts, fairness_words, feeds, languages, pictures

blueprint = Blueprint("archive", __name__)


@blueprint.app_template_filter("ended")
def ended(game: Any) -> str:
    """How a game ended, in the page's language (``play.shown_result``)."""
    return play.shown_result(game)


# A picture at the address of what it shows never changes; a chart or a feed changes with each
# new turn.
FOREVER = {"Cache-Control": "public, max-age=31536000, immutable"}
BRIEFLY = {"Cache-Control": "public, max-age=60"}


def _runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


def in_zone(moment: datetime, zone: str) -> str | None:
    """The moment on the game's own clock, for readers without JavaScript; None for UTC games."""
    if not zone or zone == "UTC":
        return None
    try:
        local = moment.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):  # checked when the game was made; never fail a page
        return None
    if languages.current() == i18n.SOURCE:
        return f"{local:%a %d %b %Y %H:%M} {local.tzname()} ({zone})"
    shown = format_datetime(local, "EEE d MMM y HH:mm", locale=i18n.locale(languages.current()))
    return f"{shown} {local.tzname()} ({zone})"


def _player(token: str | None) -> int | Refusal | None:
    """The player a "my games" link names; None without one; a refusal for a forged one."""
    if not token:
        return None
    config = _runtime().config
    found = addresses.player_from_token(token, config.secret_key, config.previous_keys)
    return found if found is not None else Refusal("this link to a player's games is not valid")


def _from_now() -> Callable[[datetime], str]:
    """How long from now a moment is ("in 2 days"), for pages; one clock for the whole page."""
    now = datetime.now(UTC)
    return lambda moment: languages.from_now(moment, now)


@blueprint.get("/")
def index() -> ResponseReturnValue:
    filters = listing.read_filters(request.args.get("game"), request.args.get("status"))
    player = _player(request.args.get("player"))
    if isinstance(filters, Refusal) or isinstance(player, Refusal):
        refused = filters if isinstance(filters, Refusal) else player
        assert isinstance(refused, Refusal)
        return render_template("error.html", message=said.anew(refused.reason)), 400
    filters = dataclasses.replace(filters, player_id=player)
    token = request.args.get("player") if player is not None else None
    with _runtime().db.session() as session:
        rows = listing.game_rows(session, filters)
        counts = listing.game_counts(session, filters)
    return render_template(
        "index.html",
        games=rows,
        counts=counts,
        filters=filters,
        player=token,
        from_now=_from_now(),
        kinds=list(registry.games().values()),
        statuses=list(listing.STATUS_FILTERS),
    )


@blueprint.get("/games/<int:game_id>/mine/<seat>/<signature>")
def my_games(game_id: int, seat: str, signature: str) -> ResponseReturnValue:
    """From a seat's private checker link to the list of its player's games: the same signature
    proves the link, and the list's own link is signed for the player, not the seat."""
    config = _runtime().config
    with _runtime().db.session() as session:
        holder = queries.seat_holder(session, game_id, seat)
    if holder is None or not addresses.check_signature_ok(
        config.secret_key, game_id, seat, holder[1], signature, config.previous_keys
    ):
        abort(404)  # the same answer for a wrong game, seat or signature
    token = addresses.player_token(config.secret_key, holder[0])
    return redirect(url_for("archive.index", player=token), code=303)


@blueprint.get("/games/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            abort(404)
        strength = page.strength
        deadline = page.game.deadline if page.game.status == GameStatus.ACTIVE else None
        return render_template(
            "game.html",
            page=page,
            game=page.game,
            deadline=deadline,
            deadline_local=in_zone(deadline, page.game.timezone) if deadline else None,
            from_now=_from_now(),
            strength_alt=charts.strength_alt(strength) if strength else None,
            # Each option with what it means, in the page's language (core.said sentences).
            settings=settings_shown.shown(page.game),
        )


@blueprint.get("/games/<int:game_id>/turns/<count:number>")
def turn_page(game_id: int, number: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        found = queries.turn_versions(session, game_id, number)
        if found is None:
            abort(404)
        return render_template("turn.html", found=found, page=found.page, game=found.page.game)


# A turn's picture at the address of what it shows (``turn_pictures``): the stored one, its
# double, and each in another language. Each address names one picture for ever.
TURN = "/games/<int:game_id>/turns/<count:number>/<digest:digest>"


@blueprint.get(f"{TURN}.png")
def turn_picture(game_id: int, number: int, digest: str) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        found = turn_pictures.version(session, game_id, number, digest)
        png = turn_pictures.stored(session, found) if found else None
    if png is None:
        abort(404)
    return Response(png, mimetype="image/png", headers=FOREVER)


@blueprint.get(f"{TURN}@2x.png")
def turn_picture_2x(game_id: int, number: int, digest: str) -> ResponseReturnValue:
    """The turn's picture at twice the size, for zooming: drawn on request from the same public
    view as the stored one (``web.pictures``)."""
    return _drawn(game_id, number, digest, (i18n.SOURCE, pictures.ZOOM))


@blueprint.get(f"{TURN}.<language:lang>.png")
def turn_picture_in(game_id: int, number: int, digest: str, lang: str) -> ResponseReturnValue:
    """The turn's picture in another language than the stored one's (a page in that language
    shows it), drawn on request from the same public view."""
    return _drawn(game_id, number, digest, (lang, 1))


@blueprint.get(f"{TURN}.<language:lang>@2x.png")
def turn_picture_in_2x(game_id: int, number: int, digest: str, lang: str) -> ResponseReturnValue:
    return _drawn(game_id, number, digest, (lang, pictures.ZOOM))


def _drawn(game_id: int, number: int, digest: str, how: tuple[str, int]) -> ResponseReturnValue:
    lang, scale = how
    with _runtime().db.session() as session:
        found = turn_pictures.version(session, game_id, number, digest)
    png = pictures.turn_picture(found.game_key, found.view, lang, scale) if found else None
    if png is None:
        abort(404)
    return Response(png, mimetype="image/png", headers=FOREVER)


# The addresses a turn's picture had by its number alone, in mail and pages from before: they
# name whichever version is live now, so they lead to its own address and are not kept.
@blueprint.get("/games/<int:game_id>/turns/<count:number>.png")
@blueprint.get("/games/<int:game_id>/turns/<count:number>@2x.png", defaults={"size": "@2x"})
@blueprint.get("/games/<int:game_id>/turns/<count:number>.<language:lang>.png")
@blueprint.get(
    "/games/<int:game_id>/turns/<count:number>.<language:lang>@2x.png", defaults={"size": "@2x"}
)
def turn_picture_by_number(
    game_id: int, number: int, lang: str = "", size: str = ""
) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        live = turn_pictures.live_path(session, game_id, number)
    if live is None:
        abort(404)
    suffix = f".{lang}" if lang else ""
    response = redirect(f"{live}{suffix}{size}.png", code=302)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get("/games/<int:game_id>/feed.atom")
def game_feed(game_id: int) -> ResponseReturnValue:
    config = _runtime().config
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            abort(404)
        body = feeds.game_feed(page, config.base_url, config.mail_domain)
    return Response(body, mimetype="application/atom+xml", headers=BRIEFLY)


@blueprint.get("/games/<int:game_id>/strength.png")
def strength_chart(game_id: int) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        data = queries.side_strength(session, game_id)
    if data is None:
        abort(404)
    return Response(charts.strength_chart(data), mimetype="image/png", headers=BRIEFLY)


@blueprint.get("/games/<int:game_id>/fairness")
def fairness_page(game_id: int) -> ResponseReturnValue:
    verified = verification.verify_game(_runtime(), game_id)
    # The page shows why nothing can be checked yet, or every check.
    result = verified.reason if isinstance(verified, Refusal) else verified
    with _runtime().db.session() as session:
        page = queries.game_page(session, game_id)
        if page is None:
            abort(404)
        seed = page.game.seed.hex() if page.revealed else None
        # The sentences of the page's own check (fairness.js), in the page's language.
        said_by_script = (
            None
            if isinstance(result, str)
            else fairness_words.words(
                len(result.checks), len(page.game.contributions), page.game.chance_scheme
            )
        )
        return render_template(
            "fairness.html",
            page=page,
            game=page.game,
            result=result,
            seed=seed,
            script_words=said_by_script,
        )


@blueprint.get("/games/<int:game_id>/verify")
def verify_page(game_id: int) -> ResponseReturnValue:
    # The address mailed to players before the fairness page existed; it must keep working.
    return redirect(url_for("archive.fairness_page", game_id=game_id), code=301)


@blueprint.get("/challenges/<name>")
def challenge_page(name: str) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        board = queries.challenge_leaderboard(session, name)
        if board is None:
            abort(404)
        has_chart = charts.has_leaderboard_chart(board)
        return render_template(
            "challenge.html",
            challenge=board.challenge,
            board=board,
            chart_alt=charts.leaderboard_alt(board) if has_chart else None,
        )


@blueprint.get("/challenges/<name>/chart.png")
def challenge_chart(name: str) -> ResponseReturnValue:
    with _runtime().db.session() as session:
        board = queries.challenge_leaderboard(session, name)
        png = charts.leaderboard_chart(board) if board else None
    if png is None:
        abort(404)
    return Response(png, mimetype="image/png", headers=BRIEFLY)
