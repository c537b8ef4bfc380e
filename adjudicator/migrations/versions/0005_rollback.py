"""rollback: a rolled-back turn stays on record; one live turn per number

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 21:14:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("rolled_back_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch_op:
        batch_op.add_column(sa.Column("rolled_back_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("rollback_note", sa.Text(), nullable=False, server_default=""))
    if op.get_bind().dialect.name == "sqlite":
        # SQLite keeps the unnamed UNIQUE inside CREATE TABLE: the table is copied without it,
        # the naming convention giving the reflected constraint a name to drop.
        convention = {"uq": "uq_%(table_name)s_%(column_0_name)s"}
        with op.batch_alter_table("turns", naming_convention=convention, recreate="always") as batch_op:
            batch_op.drop_constraint("uq_turns_game_id", type_="unique")
    else:
        op.drop_constraint("turns_game_id_number_key", "turns", type_="unique")
    op.create_index(
        "uq_turns_live_number",
        "turns",
        ["game_id", "number"],
        unique=True,
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )


def downgrade() -> None:
    op.drop_index("uq_turns_live_number", table_name="turns")
    with op.batch_alter_table("turns") as batch_op:
        batch_op.create_unique_constraint("turns_game_id_number_key", ["game_id", "number"])
        batch_op.drop_column("rollback_note")
        batch_op.drop_column("rolled_back_at")
