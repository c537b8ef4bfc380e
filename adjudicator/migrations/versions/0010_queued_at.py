"""queued at: when the tick last queued a game's turn or an inbound message again

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 02:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from adjudicator.models import UTCDateTime

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("queued_at", UTCDateTime(), nullable=True))
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("queued_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.drop_column("queued_at")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("queued_at")
