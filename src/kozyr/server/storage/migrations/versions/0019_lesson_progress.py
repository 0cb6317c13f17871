"""The lessons a player has finished (#29): kept per account; a guest keeps them in the
browser.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision: str | None = "0018"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("lesson", sa.String(40), primary_key=True),
        sa.Column("done_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
