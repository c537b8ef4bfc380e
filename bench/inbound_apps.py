"""The two WSGI apps bench_inbound.py compares under the same gunicorn settings."""

from __future__ import annotations

from flask import Flask, request
from sqlalchemy import Column, Integer, LargeBinary, MetaData, Table

from adjudicator import bootstrap
from adjudicator.web import create_app

metadata = MetaData()
rows = Table(
    "bench_rows", metadata, Column("id", Integer, primary_key=True), Column("raw", LargeBinary)
)


def ours() -> Flask:
    """The real service: POST /inbound/mime with its token check, dedupe, storage and queueing."""
    return create_app(bootstrap.runtime(upgrade=False))


def bare() -> Flask:
    """The floor: a Flask endpoint that only inserts the body as one row."""
    runtime = bootstrap.runtime(upgrade=False)
    metadata.create_all(runtime.db.engine)
    app = Flask("bare")

    @app.post("/inbound/mime")
    def insert() -> tuple[str, int]:
        with runtime.db.engine.begin() as connection:
            connection.execute(rows.insert().values(raw=request.get_data()))
        return "", 202

    return app
