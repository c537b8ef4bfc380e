"""chance scheme: the players' own contributions to a game's chance

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 23:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Games stored before keep the scheme they were dealt with: "v1", the seed alone.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("chance_scheme", sa.String(8), nullable=False, server_default="v1")
        )
        batch.add_column(sa.Column("contributions", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(
            sa.Column("sides_by_lot", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sides_by_lot")
        batch.drop_column("contributions")
        batch.drop_column("chance_scheme")
