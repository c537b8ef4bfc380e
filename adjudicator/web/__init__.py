"""The Flask app factory: inbound webhook, public archive and order-syntax help."""

from __future__ import annotations

from flask import Flask

from adjudicator.services.record.runtime import Runtime
from adjudicator.templating import TEMPLATES
from adjudicator.web import converters, languages, privacy


def create_app(runtime: Runtime) -> Flask:
    # Each request in its reader's language (web.languages).
    app = languages.Site(__name__, template_folder=str(TEMPLATES / "web"))
    languages.install(app)
    privacy.install(app)
    app.config.update(
        SECRET_KEY=runtime.config.secret_key,
        # Sessions signed before a rotation stay valid while the old key is listed.
        SECRET_KEY_FALLBACKS=list(runtime.config.previous_keys),
        MAX_CONTENT_LENGTH=None,
    )
    # The session cookie carries the game-master panel's login: out of scripts' reach, and not
    # sent on cross-site posts; over HTTPS only when the site is served so.
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=runtime.config.base_url.startswith("https://"),
    )
    app.extensions["pbem"] = runtime
    # Before any rule is added: rules take their converters when they are added.
    app.url_map.converters.update(converters.CONVERTERS)

    from adjudicator.web import api, archive, help, inbound, providers, ses

    app.register_blueprint(inbound.blueprint)
    app.register_blueprint(providers.blueprint)
    app.register_blueprint(ses.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(archive.blueprint)
    app.register_blueprint(help.blueprint)
    from adjudicator.web import panel

    app.register_blueprint(panel.blueprint)
    from adjudicator.web import health, operations

    app.register_blueprint(health.blueprint)
    app.register_blueprint(operations.blueprint)
    return app
