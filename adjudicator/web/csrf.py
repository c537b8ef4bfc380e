"""CSRF protection for the site's few POST forms (order checker, game-master panel).

A synchronizer token kept in Flask's signed session cookie: ``token()`` gives the value a form
carries in a hidden field named ``FIELD``; ``check()`` compares the posted value with the
session's. A cross-site page can make a browser post, but cannot read our cookie or our page, so
it cannot know the token. Flask signs the session with ``app.config["SECRET_KEY"]``.

Besides the token, ``foreign()`` reads where the browser says the post came from (Origin, else
Referer): a form posted from another site's page is refused before its token is even read.

Use::

    <input type="hidden" name="{{ csrf_field }}" value="{{ csrf_token }}">   # template
    blueprint.before_request(csrf.refuse_foreign)                              # before the views
    if not csrf.check(): abort(400)                                            # view, on POST
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import current_app, render_template, request, session
from flask.typing import ResponseReturnValue

from adjudicator.web import languages

FIELD = "csrf_token"
_SESSION_KEY = "csrf"


def token() -> str:
    """This browser session's token, minted on first use and then stable for the session."""
    value = session.get(_SESSION_KEY)
    if not isinstance(value, str) or not value:
        value = secrets.token_urlsafe(32)
        session[_SESSION_KEY] = value
    return value


def check(submitted: str | None = None) -> bool:
    """True when the posted token (form field FIELD, or ``submitted``) matches the session's.

    False when either is missing: a session without a token never issued a form, so nothing
    posted against it can be genuine.
    """
    expected = session.get(_SESSION_KEY)
    given = submitted if submitted is not None else request.form.get(FIELD, "")
    if not isinstance(expected, str) or not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


_DEFAULT_PORTS = {"http": "80", "https": "443"}


def origin_of(address: str) -> str:
    """``scheme://host[:port]`` of an address, as a browser writes an Origin header (lowercase,
    no default port); "" for what names no origin ("null", a path, garbage)."""
    parts = urlsplit(address.strip())
    scheme, host = parts.scheme.lower(), parts.netloc.lower().rpartition("@")[2]
    if scheme not in _DEFAULT_PORTS or not host:
        return ""
    return f"{scheme}://{host.removesuffix(':' + _DEFAULT_PORTS[scheme])}"


def foreign() -> bool:
    """True when the browser says this post came from a page of another origin than this site.

    Every current browser names the posting page's origin in Origin on a POST; an older one may
    give only Referer. "null" is foreign: a sandboxed frame or a page hiding its origin sends it,
    while this site's pages send their origin (web.privacy keeps Referrer-Policy same-origin).
    A post naming neither passes here: some proxies strip both, and the token still decides.
    The site is the address it is served at (base_url) or the host the request was sent to, so
    a proxy that ends HTTPS before the app still matches.
    """
    given = request.headers.get("Origin")
    if given is None:
        referer = request.headers.get("Referer")
        if not referer:
            return False
        given = referer
    own = {origin_of(request.host_url), origin_of(current_app.extensions["pbem"].config.base_url)}
    found = origin_of(given)
    return not found or found not in own


def refuse_foreign() -> ResponseReturnValue | None:
    """A before-request hook: a 403 page for a POST another site's page sent, else None."""
    if request.method != "POST" or not foreign():
        return None
    message = languages.gettext(
        "This form was sent from another site's page, so nothing was done. Open the page on this "
        "site and send the form from there."
    )
    return render_template("error.html", message=message), 403
