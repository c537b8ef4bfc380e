"""pictures stored uncompressed: a turn's PNG is compressed already

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 16:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # PostgreSQL tries to compress every large value before moving it out of line; a PNG does
    # not compress, so the attempt is wasted work on each turn written. EXTERNAL: out of line,
    # as is. SQLite has no such setting.
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE turns ALTER COLUMN public_png SET STORAGE EXTERNAL")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE turns ALTER COLUMN public_png SET STORAGE EXTENDED")
