"""The game-master panel: a mailed, signed, single-use link opens a session for one game.

No passwords: the game master proves who they are by reading their mail. The session cookie
(Flask's signed session; HttpOnly, SameSite=Lax) names the game and the link that opened it, and
the link's row decides on every request whether the session still holds. Every POST carries a
CSRF token, is refused when the browser says another site's page sent it, and is counted against a
per-session rate limit; every change runs through the same game-master command as by mail. The
login and the logout are POSTs too: a GET here never opens or ends a session.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue

from adjudicator.core import numbers, said
from adjudicator.core.refusal import Refusal
from adjudicator.services.access import panel_links
from adjudicator.services.game_master import game_life, panel
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import csrf, languages
from adjudicator.web.converters import ID_MAX

blueprint = Blueprint("panel", __name__)
SESSION_KEY = "panel"
CONFIRMED = "confirmed"  # the field only a question page's "yes" form carries


def _runtime() -> Runtime:
    runtime: Runtime = current_app.extensions["pbem"]
    return runtime


# Every POST here opens, changes or ends a session: one sent from another site's page (a planted
# login, a forged change) is refused whatever it carries.
blueprint.before_request(csrf.refuse_foreign)


def _link_page(why: str | None, status: int, game_id: int | None = None) -> ResponseReturnValue:
    return (
        render_template(
            "manage_link.html",
            why=said.anew(why),
            game_id=game_id,
            hours=_runtime().config.panel_link_hours,
        ),
        status,
    )


@blueprint.get("/gm")
def get_link() -> ResponseReturnValue:
    """How to get a login link: there is no other way in."""
    game = request.args.get("game", "")
    number = numbers.whole(game)
    # An id no record can have (past 64 bits) names no game: never a database error.
    return _link_page(None, 200, number if number is not None and number <= ID_MAX else None)


@blueprint.get("/gm/<token>")
def login_page(token: str) -> ResponseReturnValue:
    """The mailed link only shows a button: mail scanners (Outlook's Safe Links and others)
    fetch links before the reader does, and a GET that spent the link would lock the game master
    out. The POST behind the button spends it."""
    checked = panel_links.open_link(_runtime(), token, spend=False)
    if isinstance(checked, Refusal):
        return _link_page(checked.reason, 403)
    page = render_template(
        "manage_open.html",
        token=token,
        game_id=checked.game_id,
        csrf_field=csrf.FIELD,
        csrf_token=csrf.token(),
    )
    return page, 200


@blueprint.post("/gm/<token>")
def login(token: str) -> ResponseReturnValue:
    # Only the button of the page above, in this browser, opens the session: a post without its
    # token (another site logging this browser in to a game of its own) spends nothing.
    if not csrf.check():
        return _expired()
    opened = panel_links.open_link(_runtime(), token)
    if isinstance(opened, Refusal):
        return _link_page(opened.reason, 403)
    # A fresh session: nothing from before the login (a planted CSRF token) carries over.
    session.clear()
    session[SESSION_KEY] = {"game": opened.game_id, "link": opened.nonce}
    return redirect(url_for("panel.manage", game_id=opened.game_id))


def _gate(game_id: int) -> ResponseReturnValue | None:
    """None when this browser's session may run ``game_id``; else the answer to give."""
    held = session.get(SESSION_KEY)
    if not isinstance(held, dict) or not isinstance(held.get("link"), str):
        return redirect(url_for("panel.get_link", game=game_id))
    if held.get("game") != game_id:
        return (
            render_template(
                "error.html",
                message=languages.gettext("Your game-master session is for another game."),
            ),
            403,
        )
    refused = panel_links.check_session(_runtime(), game_id, held["link"])
    if refused is not None:
        session.pop(SESSION_KEY, None)
        flash(said.anew(refused.reason), "bad")
        return redirect(url_for("panel.get_link", game=game_id))
    return None


def _nonce() -> str:
    held: dict[str, Any] = session[SESSION_KEY]
    return str(held["link"])


@blueprint.get("/games/<int:game_id>/manage")
def manage(game_id: int) -> ResponseReturnValue:
    stop = _gate(game_id)
    if stop is not None:
        return stop
    shown = panel.view(_runtime(), game_id)
    if shown is None:
        abort(404)
    return render_template(
        "manage.html", panel=shown, csrf_field=csrf.FIELD, csrf_token=csrf.token()
    )


@blueprint.get("/games/<int:game_id>/manage/life")
def life(game_id: int) -> ResponseReturnValue:
    """The game's changes so far, who was told of each and when, and what comes next."""
    stop = _gate(game_id)
    if stop is not None:
        return stop
    shown = game_life.view(_runtime(), game_id)
    if shown is None:
        abort(404)
    return render_template(
        "manage_life.html", life=shown, csrf_field=csrf.FIELD, csrf_token=csrf.token()
    )


def _guard_post(game_id: int) -> ResponseReturnValue | panel.Panel:
    """The checks every POST passes, in order: session, CSRF, rate limit, game still open."""
    stop = _gate(game_id)
    if stop is not None:
        return stop
    if not csrf.check():
        message = languages.gettext("The form had expired: reload the panel.")
        return render_template("error.html", message=message), 400
    wait = panel_links.count_post(_runtime(), _nonce())
    if wait:
        message = languages.gettext(
            "Too many changes in a minute: wait %(wait)s s, then reload the panel.", wait=wait
        )
        return render_template("error.html", message=message), 429, {"Retry-After": str(wait)}
    shown = panel.view(_runtime(), game_id)
    if shown is None:
        abort(404)
    if shown.read_only:
        status = languages.status_word(shown.status)
        flash(
            languages.gettext("The game is %(status)s: the panel is read-only.", status=status),
            "bad",
        )
        return redirect(url_for("panel.manage", game_id=game_id))
    return shown


def _line_or_back(action: str, shown: panel.Panel) -> str | ResponseReturnValue:
    form = {name: request.form.get(name, "") for name in ("date", "time", "zone", "hours", "seat")}
    form.update(address=request.form.get("address", ""), reason=request.form.get("reason", ""))
    line = panel.command_line(action, form, [seat.seat for seat in shown.seats])
    if isinstance(line, panel.Invalid):
        flash(languages.gettext("Not done: %(why)s.", why=said.anew(line.why)), "bad")
        return redirect(url_for("panel.manage", game_id=shown.game_id))
    return line


def _run(game_id: int, line: str) -> ResponseReturnValue:
    key = f"panel:{game_id}:{secrets.token_hex(8)}"
    result = panel.act(_runtime(), game_id, line, key)
    verdict = languages.gettext("done") if result.done else languages.gettext("not done")
    message = said.anew(result.message)
    flash(f"{result.line}: {verdict} — {message}", "ok" if result.done else "bad")
    return redirect(url_for("panel.manage", game_id=game_id))


@blueprint.post("/games/<int:game_id>/manage/<action>")
def change(game_id: int, action: str) -> ResponseReturnValue:
    if action not in panel.ACTIONS:
        abort(404)
    guarded = _guard_post(game_id)
    if not isinstance(guarded, panel.Panel):
        return guarded
    line = _line_or_back(action, guarded)
    if not isinstance(line, str):
        return line
    if action in panel.CONFIRM and request.form.get(CONFIRMED) != "yes":
        # Nothing runs yet: the page asks, and only its own form (carrying this session's CSRF
        # token, so no other site can post it) says yes. Plain HTML, so it works without scripts.
        return render_template(
            "manage_confirm.html",
            action=action,
            panel=guarded,
            reason=line.removeprefix("ROLLBACK").strip() if action == "rollback" else "",
            confirmed=CONFIRMED,
            csrf_field=csrf.FIELD,
            csrf_token=csrf.token(),
        )
    return _run(game_id, line)


@blueprint.get("/games/<int:game_id>/manage/logout")
def logout_page(game_id: int) -> ResponseReturnValue:
    """A GET changes nothing (a link, a prefetch or an image would otherwise log out): the page
    only shows the button that posts the logout."""
    return render_template(
        "manage_logout.html", game_id=game_id, csrf_field=csrf.FIELD, csrf_token=csrf.token()
    )


@blueprint.post("/games/<int:game_id>/manage/logout")
def logout(game_id: int) -> ResponseReturnValue:
    if not csrf.check():
        return _expired()
    held = session.get(SESSION_KEY)
    if isinstance(held, dict) and isinstance(held.get("link"), str):
        panel_links.end_session(_runtime(), held["link"])
    session.clear()
    flash(languages.gettext("You have logged out of the game-master panel."), "ok")
    return redirect(url_for("panel.get_link", game=game_id))


def _expired() -> ResponseReturnValue:
    message = languages.gettext(
        "This form has expired or came from another site: reload it and try again."
    )
    return render_template("error.html", message=message), 400
