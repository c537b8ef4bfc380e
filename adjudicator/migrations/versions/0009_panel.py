"""panel links: the game-master web panel's login links, sessions and rate-limit counters

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from adjudicator.models import UTCDateTime

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "panel_links",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("issued_at", UTCDateTime(), nullable=False),
        sa.Column("used_at", UTCDateTime(), nullable=True),
        sa.Column("ended_at", UTCDateTime(), nullable=True),
        sa.Column("window_start", UTCDateTime(), nullable=True),
        sa.Column("posts", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("nonce"),
    )
    with op.batch_alter_table("panel_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_panel_links_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_panel_links_issued_at"), ["issued_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("panel_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_panel_links_issued_at"))
        batch_op.drop_index(batch_op.f("ix_panel_links_game_id"))
    op.drop_table("panel_links")
