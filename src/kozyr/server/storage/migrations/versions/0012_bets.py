"""Spectators' bets (B4): one row per bet, next to its ledger transaction.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "bets",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("market_id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("outcome", sa.String(32), nullable=False),
        sa.Column("chips", sa.BigInteger, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.CheckConstraint("chips >= 1", name="ck_bets_chips"),
        sa.UniqueConstraint("user_id", "key", name="uq_bets_user_key"),
    )
    op.create_index("ix_bets_table_market", "bets", ["table_id", "market_id"])


def downgrade() -> None:
    op.drop_index("ix_bets_table_market", "bets")
    op.drop_table("bets")
