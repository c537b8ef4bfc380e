"""game_events: the changes in a game's life that its players were told of; when a game last
rolled a turn back

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # Games before it have no events on record: their history shows their turns alone.
    op.create_table(
        "game_events",
        sa.Column("id", ID, primary_key=True),
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("by", sa.String(32), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_events_game_id", "game_events", ["game_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rolled_back_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rolled_back_at")
    op.drop_index("ix_game_events_game_id", "game_events")
    op.drop_table("game_events")
