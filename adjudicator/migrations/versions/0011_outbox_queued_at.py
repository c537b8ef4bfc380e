"""outbox queued at: when the tick last queued an outbox mail again

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 04:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from adjudicator.models import UTCDateTime

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("queued_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("queued_at")
