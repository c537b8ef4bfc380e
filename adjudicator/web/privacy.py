"""The private pages, listed once, and the headers each of them sends.

A private page's address is a credential (a mailed login link, a seat's signed checker link, a
player's signed "my games" token, the operator's token) or its content is someone's (the players'
addresses on the panel). One hook gives every such answer, its refusals and errors included, the
same headers: never stored by a browser or a proxy, the address never sent to another site in a
Referer, never framed, never indexed. A page is private by being named here, not by each view
remembering to say so; tests/test_sessions.py walks the URL map so a new page keyed by a secret
cannot be left out.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, Response, request

# Every endpoint of these blueprints: the game-master panel (its login link included) and /ops.
BLUEPRINTS = frozenset({"panel", "operations"})
# Single endpoints keyed by a seat's signature.
ENDPOINTS = frozenset({"help.private_check", "archive.my_games"})
# Public pages that turn private when their query names a secret: the front page with a player's
# signed token is that player's own list of games.
WHEN_ASKED = {"archive.index": "player"}

HEADERS = {
    "Cache-Control": "no-store",
    # same-origin rather than no-referrer: under no-referrer a browser sends "Origin: null" with
    # the page's own form posts, and the origin check (web.csrf) could not tell them from another
    # site's. Other sites still get no Referer, so no secret address leaves the site.
    "Referrer-Policy": "same-origin",
    "X-Robots-Tag": "noindex",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
}


def is_private(endpoint: str | None, query: Mapping[str, str]) -> bool:
    """True when the request for ``endpoint`` (with its ``query``) shows a private page."""
    if endpoint is None:
        return False
    blueprint = endpoint.rpartition(".")[0]
    if blueprint in BLUEPRINTS or endpoint in ENDPOINTS:
        return True
    asked = WHEN_ASKED.get(endpoint)
    return asked is not None and bool(query.get(asked))


def _headers(response: Response) -> Response:
    if is_private(request.endpoint, request.args):
        response.headers.update(HEADERS)
    return response


def install(app: Flask) -> None:
    app.after_request(_headers)
