"""Reviews under way, in the database so that every server process sees them (#15).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "review_jobs",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("level", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("error", sa.String(40), nullable=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("heartbeat_ms", sa.BigInteger, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_review_jobs_user_id", "review_jobs", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_review_jobs_user_id", table_name="review_jobs")
    op.drop_table("review_jobs")
