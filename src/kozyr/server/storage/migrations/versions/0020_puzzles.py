"""Puzzles from real deals (#29): the positions, each person's attempts, puzzle ratings,
the puzzle of each day and the games already read for puzzles (docs/puzzles.md).

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision: str | None = "0019"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False, unique=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=True),
        sa.Column("bot_seed", sa.Integer, nullable=True),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("action_index", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("best", sa.String(8), nullable=False),
        sa.Column("played", sa.String(8), nullable=False),
        sa.Column("card_values", sa.Text, nullable=False),
        sa.Column("margin", sa.Float, nullable=False),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_puzzles_game_mu", "puzzles", ["game", "mu"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("card", sa.String(8), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=True),
        sa.Column("rating_after", sa.Integer, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("user_id", "puzzle_id", "number", name="uq_puzzle_attempts_number"),
    )
    op.create_index("ix_puzzle_attempts_user", "puzzle_attempts", ["user_id", "id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("last_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "puzzle_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), nullable=False),
    )
    op.create_table(
        "puzzle_sources",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("positions", sa.Integer, nullable=False),
        sa.Column("found", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_sources")
    op.drop_table("puzzle_days")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzles")
