"""Table talk (#44): each line said at a table, kept with it and shown with its replay,
and the reports people make of a line, with its context.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision: str | None = "0021"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "table_talk",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("seq_at", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_table_talk_table", "table_talk", ["table_id", "id"])
    op.create_table(
        "talk_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("table_talk.id"), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.String(400), nullable=True),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("message_id", "reporter_id", name="uq_talk_reports_once"),
    )


def downgrade() -> None:
    op.drop_table("talk_reports")
    op.drop_index("ix_table_talk_table", table_name="table_talk")
    op.drop_table("table_talk")
