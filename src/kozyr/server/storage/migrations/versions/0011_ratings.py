"""Ratings (issue #13): rated tables, one openskill rating per player and variant with
the change every rated game made, and deleted accounts.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("deleted_ms", sa.BigInteger, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot", sa.Integer, nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("last_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ratings_variant", "ratings", ["variant", "last_ms"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player", "variant", "id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("deleted_ms")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rated")
