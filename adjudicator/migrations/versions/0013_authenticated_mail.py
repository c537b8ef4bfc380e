"""authenticated mail: inbound mail a seat's own player sent, exempt from the sender limits

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 16:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        # Mail already stored counts as unauthenticated: the limits only look back an hour.
        batch_op.add_column(
            sa.Column("authenticated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index(
            batch_op.f("ix_inbound_messages_received_at"), ["received_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_inbound_messages_received_at"))
        batch_op.drop_column("authenticated")
