"""Web sessions, on SQLite and PostgreSQL: the panel's login link cannot be posted by another
site (login CSRF), a GET never logs out, and every private page (one whose address is a secret,
or whose content is someone's) sends Cache-Control: no-store and a Referrer-Policy that keeps
its address on this site. The URL map is walked, so a new private page cannot be left out."""

from __future__ import annotations

import re

from dos_de_mayo_by_mail import GM, start_dos_de_mayo
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from test_panel import csrf_of, logged_in, page, press_open, started, words
from werkzeug.test import TestResponse

from adjudicator.mail import addresses
from adjudicator.models import PanelLink, Seat
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app, privacy

SITE = "http://localhost"  # the test client's own origin
ELSEWHERE = "https://elsewhere.example"
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
FOREIGN = "This form was sent from another site's page, so nothing was done."


def token_of(markup: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', markup)
    assert found, markup
    return found.group(1)


def spent_links(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return len(session.scalars(select(PanelLink).where(PanelLink.used_at.is_not(None))).all())


def assert_private(response: TestResponse, what: str) -> None:
    for name, value in PRIVATE.items():
        assert response.headers.get(name) == value, (what, name, dict(response.headers))


def test_another_site_cannot_log_a_browser_in_with_its_own_link(runtime: Runtime) -> None:
    """Login CSRF: a page elsewhere posts the panel link it holds, to log the victim's browser
    in to a game it runs. Without the token of the link's own page, or from a foreign origin,
    the post opens nothing and spends nothing."""
    game_id, _, link = started(runtime)
    victim = create_app(runtime).test_client()
    # A bare cross-site post, as a hidden auto-submitting form makes it: no token.
    bare = victim.post(link, headers={"Origin": ELSEWHERE})
    assert bare.status_code == 403 and FOREIGN in words(bare.get_data(as_text=True))
    # Without Origin or Referer (stripped by a proxy) the missing token still refuses it.
    for data in ({}, {"csrf_token": "guessed"}):
        refused = victim.post(link, data=data)
        assert refused.status_code == 400, refused.get_data(as_text=True)
        assert "has expired or came from another site" in refused.get_data(as_text=True)
    # Even with this browser's genuine token, a foreign origin, a sandboxed frame ("null") or a
    # foreign Referer is refused with a page that says why.
    token = token_of(victim.get(link).get_data(as_text=True))
    for headers in (
        {"Origin": ELSEWHERE},
        {"Origin": "null"},
        {"Origin": "http://localhost:8081"},  # another port is another origin
        {"Referer": f"{ELSEWHERE}/page"},
    ):
        refused = victim.post(link, data={"csrf_token": token}, headers=headers)
        assert refused.status_code == 403, headers
        assert FOREIGN in words(refused.get_data(as_text=True))
        assert_private(refused, "a refused login")
        assert "Set-Cookie" not in refused.headers  # no session was made
    assert victim.get(f"/games/{game_id}/manage").status_code == 302  # not logged in
    assert spent_links(runtime) == 0
    # The game master's own press of the button, from the site itself, opens the panel.
    opened = victim.post(
        link, data={"csrf_token": token}, headers={"Origin": SITE, "Referer": f"{SITE}{link}"}
    )
    assert opened.status_code == 302 and spent_links(runtime) == 1
    cookie = opened.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "game master" in page(victim, game_id)


def test_a_get_never_logs_out(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    shown = page(client, game_id)
    # The panel's logout is a button posting a form with the session's token, not a link.
    assert re.search(
        rf'<form id="logout" class="logout" method="post" action="/games/{game_id}/manage/logout">'
        r'\s*<input type="hidden" name="csrf_token" value="[^"]+">\s*'
        r'<button type="submit">Log out</button>',
        shown,
    ), shown
    assert f'href="/games/{game_id}/manage/logout"' not in shown
    life = client.get(f"/games/{game_id}/manage/life").get_data(as_text=True)
    assert '<form id="logout"' in life
    # A GET (a link, a prefetch, another site's <img>) shows the button and ends nothing.
    asked = client.get(f"/games/{game_id}/manage/logout")
    assert asked.status_code == 200
    assert '<form id="logout"' in asked.get_data(as_text=True)
    assert_private(asked, "the logout page")
    assert client.get(f"/games/{game_id}/manage").status_code == 200
    # A post without the token, or from another site, ends nothing either.
    assert client.post(f"/games/{game_id}/manage/logout").status_code == 400
    token = csrf_of(client, game_id)
    foreign = client.post(
        f"/games/{game_id}/manage/logout", data={"csrf_token": token}, headers={"Origin": ELSEWHERE}
    )
    assert foreign.status_code == 403
    assert client.get(f"/games/{game_id}/manage").status_code == 200
    # The button itself logs out, and says so.
    out = client.post(
        f"/games/{game_id}/manage/logout", data={"csrf_token": token}, headers={"Origin": SITE}
    )
    assert out.status_code == 302 and out.headers["Location"] == f"/gm?game={game_id}"
    told = client.get(out.headers["Location"]).get_data(as_text=True)
    assert "You have logged out of the game-master panel." in told
    assert client.get(f"/games/{game_id}/manage").status_code == 302


def test_a_seats_checker_and_its_players_games_are_private(runtime: Runtime) -> None:
    game_id, _ = start_dos_de_mayo(runtime, gm_address=GM)
    config = runtime.config
    with runtime.db.session() as session:
        seat = session.scalars(
            select(Seat).where(Seat.game_id == game_id, Seat.seat == "france")
        ).one()
        signature = addresses.check_signature(
            config.secret_key, game_id, "france", seat.key_version
        )
        player = addresses.player_token(config.secret_key, seat.player_id)
    client = create_app(runtime).test_client()
    checker = f"/games/{game_id}/check/france/{signature}"
    shown = client.get(checker)
    assert shown.status_code == 200
    assert_private(shown, "the private checker")
    checked = client.post(
        checker, data={"orders": "DRAW", "csrf_token": token_of(shown.get_data(as_text=True))}
    )
    assert checked.status_code == 200 and "DRAW" in checked.get_data(as_text=True)
    assert_private(checked, "the private checker's answer")
    # From another site, with the page's token, the checker refuses to read anything.
    foreign = client.post(
        checker,
        data={"orders": "DRAW", "csrf_token": token_of(shown.get_data(as_text=True))},
        headers={"Origin": ELSEWHERE},
    )
    assert foreign.status_code == 403 and FOREIGN in words(foreign.get_data(as_text=True))
    mine = client.get(f"/games/{game_id}/mine/france/{signature}")
    assert mine.status_code == 303
    assert_private(mine, "the way to my games")
    listed = client.get(f"/?player={player}")
    assert listed.status_code == 200 and "Your games" in listed.get_data(as_text=True)
    assert_private(listed, "my games")
    assert_private(client.get("/?player=1-forged"), "my games, refused")
    assert_private(client.get(f"/games/{game_id}/check/france/{'0' * 16}"), "a wrong signature")
    # The public pages stay cacheable: the headers mark private pages, not every page.
    for public in ("/", f"/games/{game_id}", "/help", "/help/2demayo/check"):
        answer = client.get(public)
        assert answer.status_code == 200, public
        assert "no-store" not in answer.headers.get("Cache-Control", ""), public
        assert "Referrer-Policy" not in answer.headers, public


# Every argument a page address takes, sorted by whether it is a secret. An address with a new
# argument fails test_every_private_address_sends_the_headers until it is sorted here.
SECRET_ARGUMENTS = {"token", "signature"}
PLAIN_ARGUMENTS = {
    "game_id": 1,
    "number": 1,
    "digest": "0" * 16,
    "lang": "es",
    "key": "2demayo",
    "name": "none",
    "seat": "france",
    "action": "pause",
    "size": "@2x",
    "filename": "fairness.js",
}
# Addresses under these are private whatever their arguments: the panel and the operator's page.
PRIVATE_PATHS = re.compile(r"^/gm(/|$)|/manage(/|$)|^/ops$")


def rules_of(app: Flask) -> list[tuple[str, str, str]]:
    """(endpoint, method, address) for every page address, with sample values filled in."""
    adapter = app.url_map.bind("localhost")
    found = []
    for rule in app.url_map.iter_rules():
        unknown = rule.arguments - SECRET_ARGUMENTS - set(PLAIN_ARGUMENTS)
        assert not unknown, f"sort {unknown} of {rule.rule} into SECRET or PLAIN_ARGUMENTS"
        values = {name: PLAIN_ARGUMENTS.get(name, "not-a-secret") for name in rule.arguments}
        address = adapter.build(rule.endpoint, {**(rule.defaults or {}), **values})
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            found.append((rule.endpoint, method, address))
    return found


def private_rule(app: Flask, endpoint: str) -> bool:
    return any(
        rule.arguments & SECRET_ARGUMENTS or PRIVATE_PATHS.search(rule.rule)
        for rule in app.url_map.iter_rules(endpoint)
    )


def test_every_private_address_sends_the_headers(runtime: Runtime) -> None:
    """Walks the URL map: each address keyed by a secret, or under the panel or /ops, answers
    with the headers, whatever the answer (a page, a redirect, a refusal, a 404), to a GET and a
    POST alike; and the list in web.privacy names exactly these, plus the front page with a
    player's token."""
    app = create_app(runtime)
    client: FlaskClient = app.test_client()
    walked = rules_of(app)
    private = {endpoint for endpoint, _, _ in walked if private_rule(app, endpoint)}
    assert {"panel.login", "panel.manage", "help.private_check", "archive.my_games"} <= private
    assert {"operations.ops", "panel.logout"} <= private
    for endpoint, method, address in walked:
        assert privacy.is_private(endpoint, {}) == (endpoint in private), endpoint
        if endpoint in private:
            answer = client.open(address, method=method)
            assert_private(answer, f"{method} {address} ({answer.status_code})")
    # The one page private by its query: the front page listing a player's own games.
    assert privacy.is_private("archive.index", {"player": "1-abc"})
    assert not privacy.is_private("archive.index", {"game": "2demayo"})
    assert_private(client.get("/?player=1-abc&status=active"), "the front page with a token")


def test_the_walk_can_fail(runtime: Runtime) -> None:
    """A page keyed by a secret that web.privacy does not list is caught by the walk's rule."""
    app = create_app(runtime)

    @app.get("/games/<int:game_id>/notes/<signature>")
    def notes(game_id: int, signature: str) -> str:
        return "private notes"

    assert private_rule(app, "notes") and not privacy.is_private("notes", {})
    answer = app.test_client().get("/games/1/notes/abc")
    assert answer.status_code == 200 and "Cache-Control" not in answer.headers


def test_a_session_opened_by_the_button_survives_its_own_forms(runtime: Runtime) -> None:
    """The origin check passes the site's own forms: the panel's posts with this site's Origin
    and with none at all (a proxy stripping it) both change the game."""
    game_id, _, link = started(runtime)
    client = create_app(runtime).test_client()
    assert press_open(client, link).status_code == 302
    for headers in ({"Origin": SITE}, {}, {"Referer": f"{SITE}/games/{game_id}/manage"}):
        token = csrf_of(client, game_id)
        paused = client.post(
            f"/games/{game_id}/manage/pause", data={"csrf_token": token}, headers=headers
        )
        assert paused.status_code == 302, (headers, paused.get_data(as_text=True))
        resumed = client.post(
            f"/games/{game_id}/manage/resume", data={"csrf_token": token}, headers=headers
        )
        assert resumed.status_code == 302, headers
