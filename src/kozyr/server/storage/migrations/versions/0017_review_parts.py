"""The decisions of a review under way, saved as it goes, so that a process taking the
review over resumes it instead of starting again (#15).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "review_parts",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("level", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("decision", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("review_parts")
