"""Table leases: which server process owns a live table, with a fencing token.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
