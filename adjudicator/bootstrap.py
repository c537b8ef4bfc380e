"""Building a ready runtime from configuration: database migrated, Celery pointed at it."""

from __future__ import annotations

import logging

from adjudicator import config as configuration
from adjudicator import logs
from adjudicator.db import Database
from adjudicator.services.record.runtime import Runtime


def runtime(config: configuration.Config | None = None, upgrade: bool = True) -> Runtime:
    config = config or configuration.load()
    logs.configure(config.log_level, config.log_format)
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        # Per-connection SMTP chatter and per-task Celery lines drown the service's own messages.
        for chatty in ("mail.log", "celery.worker.strategy", "celery.app.trace", "alembic"):
            logging.getLogger(chatty).setLevel(logging.WARNING)
    database = Database(config.database_url)
    if upgrade:
        # Alembic takes half a second to import; a process that only serves (wsgi) needs none.
        from adjudicator import migrate

        migrate.upgrade(database)
    built = Runtime(config, database)
    # Tasks go through Celery's broker; importing here keeps the rules and services free of it.
    from workers.app import configure

    configure(built)
    return built
