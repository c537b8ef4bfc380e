"""WSGI entry point for gunicorn at scale: `gunicorn adjudicator.wsgi:app`."""

from adjudicator import bootstrap
from adjudicator.web import create_app

app = create_app(bootstrap.runtime(upgrade=False))
