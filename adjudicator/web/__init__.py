"""The Flask app factory: inbound webhook, public archive and order-syntax help."""

from __future__ import annotations

from flask import Flask

from adjudicator.services.runtime import Runtime
from adjudicator.templating import TEMPLATES


def create_app(runtime: Runtime) -> Flask:
    app = Flask(__name__, template_folder=str(TEMPLATES / "web"))
    app.config.update(SECRET_KEY=runtime.config.secret_key, MAX_CONTENT_LENGTH=None)
    app.extensions["pbem"] = runtime

    from adjudicator.web import api, archive, inbound, providers, ses

    app.register_blueprint(inbound.blueprint)
    app.register_blueprint(providers.blueprint)
    app.register_blueprint(ses.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(archive.blueprint)
    return app
