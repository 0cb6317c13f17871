"""Initial schema: users, sessions, tables, seats taken, the action log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=True),
        sa.Column("join_order", sa.Text, nullable=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turn_timeout", sa.Float, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=True),
        sa.Column("finished_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "table_players",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_index("ix_table_players_user", "table_players", ["user_id"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action_text", sa.String(32), nullable=False),
        sa.Column("client_action_id", sa.String(64), nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("table_id", "seat", "client_action_id", name="uq_actions_client_id"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_table_players_user", "table_players")
    op.drop_table("table_players")
    op.drop_index("ix_game_tables_status", "game_tables")
    op.drop_table("game_tables")
    op.drop_table("sessions")
    op.drop_table("users")
