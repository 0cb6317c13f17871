"""Post-game reviews stored with the game, and hints at casual tables (issue #15).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "game_reviews",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("level", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("hints")
