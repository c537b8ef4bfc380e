"""Order-syntax help pages and the order checker, public and per seat.

``/help`` lists the games; ``/help/<key>`` gives a game's board (``/help/<key>/board.png``, the
opening position as the game draws it; ``board@2x.png`` twice the size, for zooming;
``board.es.png`` and ``board.es@2x.png`` in another language, for a page in it), order
syntax, examples (the game's own examples.toml, each checked against the parser by the tests),
its cards and the mail commands.
``/help/<key>/check`` reads orders against a public opening position; the private
``/games/<id>/check/<seat>/<sig>`` reads them against a real game's current position for one
seat. Both answer with the receipt the mail would give (``services.reading.checker``) and the orders
drawn on the map, and store nothing.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, abort, current_app, make_response, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from adjudicator import i18n
from adjudicator.core.contract import Game as Rules
from adjudicator.games import registry
from adjudicator.services.reading import checker
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus
from adjudicator.templating import in_language, text_environment
from adjudicator.web import csrf, languages, pictures

blueprint = Blueprint("help", __name__)

# Form encoding may triple a text (%XX per byte); the text itself is held to LIMIT_BYTES below.
_FORM_LIMIT = 3 * checker.LIMIT_BYTES + 4096


def _runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


def _commands_text() -> str:
    # The mail's own command list (templates/email/_commands.txt): one wording for mail and web.
    # In the page's language, as the mail gives it in its reader's.
    words = in_language(languages.current())
    return text_environment().get_template("email/_commands.txt").render(words).strip("\n")


def _rules(key: str) -> Rules[Any]:
    rules = registry.get(key)
    if rules is None:
        abort(404)
    return rules


@blueprint.before_request
def limit_posts() -> None:
    # The app takes large bodies (inbound mail); this blueprint's forms never need more than this,
    # and the limit must be set before anything reads the form.
    if request.method == "POST":
        request.max_content_length = _FORM_LIMIT


# The checker's forms, like the panel's, are refused when another site's page sent them.
blueprint.before_request(csrf.refuse_foreign)


@blueprint.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
    message = languages.gettext(
        "That is more than the checker reads (%(size)s KB). An order set is a few lines: paste "
        "only your orders, without quoted mail.",
        size=checker.LIMIT_BYTES // 1000,
    )
    return render_template("error.html", message=message), 413


@blueprint.get("/help")
@blueprint.get("/help/<key>")
def help_page(key: str | None = None) -> ResponseReturnValue:
    rules = _rules(key) if key else None
    return render_template(
        "help.html",
        games=list(registry.games().values()),
        game=rules,
        examples=checker.samples(rules).examples if rules else (),
        cards=list(rules.card_texts()) if rules else [],
        board_words=_board_words(rules.key, languages.current()) if rules else "",
        commands_text=_commands_text(),
        domain=_runtime().config.mail_domain,
    )


@functools.cache
def _board_words(key: str, lang: str) -> str:
    """The opening picture in words, for its alt text, in ``lang`` (the page's: the games write
    it in the current reader's language)."""
    rules = _rules(key)
    return rules.describe(rules.view(checker.opening(rules), None))


@blueprint.get("/help/<key>/board.png")
@blueprint.get("/help/<key>/board.<language:lang>.png")
def board(key: str, lang: str = i18n.SOURCE) -> ResponseReturnValue:
    """The opening position's picture, drawn by the game's own renderer: the numbered areas (or
    the labelled hexes) every order is written in; in English, or in the language the address
    names (each has its own address: a browser keeps the picture an hour)."""
    return _picture(_board(_rules(key).key, 1, lang))


@blueprint.get("/help/<key>/board@2x.png")
@blueprint.get("/help/<key>/board.<language:lang>@2x.png")
def board_2x(key: str, lang: str = i18n.SOURCE) -> ResponseReturnValue:
    """The same picture at twice the size, for zooming on a phone."""
    return _picture(_board(_rules(key).key, pictures.ZOOM, lang))


def _picture(png: bytes) -> ResponseReturnValue:
    response = make_response(png)
    response.mimetype = "image/png"
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


@functools.cache
def _board(key: str, scale: int, lang: str) -> bytes:
    # The public opening is fixed (a public seed), so its picture is drawn once a process,
    # scale and language: a handful of games at two scales in a few languages.
    rules = _rules(key)
    with i18n.speaking(lang):
        return rules.render(rules.view(checker.opening(rules), None), None, scale)


@blueprint.route("/help/<key>/check", methods=["GET", "POST"])
def public_check(key: str) -> ResponseReturnValue:
    rules = _rules(key)
    chosen = request.values.get("seat", rules.seats[0])
    if chosen not in rules.seats:
        chosen = rules.seats[0]
    state = checker.opening(rules)
    return _checker_page(
        rules,
        state,
        chosen,
        earlier=None,
        context={
            "private": None,
            "seats": rules.seats,
            "examples": checker.samples(rules).examples,
        },
    )


@blueprint.route("/games/<int:game_id>/check/<seat>/<signature>", methods=["GET", "POST"])
def private_check(game_id: int, seat: str, signature: str) -> ResponseReturnValue:
    found = checker.seat_check(_runtime(), game_id, seat, signature)
    if found is None:
        # The same answer for a wrong game, seat or signature: the page says nothing about which.
        abort(404)
    rules = _rules(found.game_key)
    context = {"private": found, "seats": (found.seat,), "examples": ()}
    if found.status != GameStatus.ACTIVE:
        return render_template("check.html", game=rules, result=None, text="", seat=seat, **context)
    return _checker_page(rules, found.state, found.seat, found.earlier, context)


def _checker_page(
    rules: Rules[Any], state: Any, seat: str, earlier: str | None, context: dict[str, Any]
) -> ResponseReturnValue:
    text = request.args.get("orders", "")[: checker.LIMIT_BYTES]  # a prefilled example
    result = None
    if request.method == "POST":
        if not csrf.check():
            message = languages.gettext(
                "This form has expired or came from another site: reload it and try again."
            )
            return render_template("error.html", message=message), 400
        text = request.form.get("orders", "")
        if len(text.encode("utf-8")) > checker.LIMIT_BYTES:
            raise RequestEntityTooLarge()
        # The private checker draws the seat's own view; the public one the public view.
        viewer = seat if context["private"] else None
        result = checker.check(rules, state, seat, text, earlier, viewer)
    return render_template(
        "check.html",
        game=rules,
        seat=seat,
        text=text,
        result=result,
        prompt=checker.prompt(rules, state, seat),
        caption=checker.samples(rules).preview_caption,
        limit=checker.LIMIT_BYTES,
        csrf_field=csrf.FIELD,
        csrf_token=csrf.token(),
        **context,
    )
