"""Bring a database's schema up to date with the Alembic migrations shipped in the package."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig

from adjudicator.db import Database

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(database: Database) -> None:
    config = alembic_config(database.url)
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def revision(database: Database, message: str) -> None:
    """Autogenerate a new migration from the models (a developer's tool)."""
    config = alembic_config(database.url)
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.revision(config, message=message, autogenerate=True)
