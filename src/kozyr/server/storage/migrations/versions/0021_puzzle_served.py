"""Which puzzles each person was served (#43): an answer counts only from a person who was
shown the puzzle first (docs/puzzles.md, "Who may answer").

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision: str | None = "0020"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_served",
        # a mark that means nothing once its person is gone: removed with him
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("served_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_served")
