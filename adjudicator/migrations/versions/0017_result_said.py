"""result_said: how a game's rules ended it, as a sentence each reader's page writes anew

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL for every game ended before (and any the service ended): its result reads as stored.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("result_said", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("result_said")
