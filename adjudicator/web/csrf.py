"""CSRF protection for the site's few POST forms (order checker, game-master panel).

A synchronizer token kept in Flask's signed session cookie: ``token()`` gives the value a form
carries in a hidden field named ``FIELD``; ``check()`` compares the posted value with the
session's. A cross-site page can make a browser post, but cannot read our cookie or our page, so
it cannot know the token. Flask signs the session with ``app.config["SECRET_KEY"]``.

Use::

    <input type="hidden" name="{{ csrf_field }}" value="{{ csrf_token }}">   # template
    if not csrf.check(): abort(400)                                            # view, on POST
"""

from __future__ import annotations

import hmac
import secrets

from flask import request, session

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
