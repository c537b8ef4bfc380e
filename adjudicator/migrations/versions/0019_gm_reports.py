"""gm_reports: what a game's game master is mailed of each turn played ("turn" or "none")

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every game made before gets each turn's result too: the game master was never told one.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("gm_reports", sa.String(8), nullable=False, server_default="turn")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("gm_reports")
