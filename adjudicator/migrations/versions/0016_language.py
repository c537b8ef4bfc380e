"""language: the language a player's mail is written in, and a game's default

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 07:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # "": not chosen (a player then reads the game's language; a game without one, English).
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=False, server_default=""))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("language")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
