"""Stakes (B5): a table's stake terms, and one top-up claim per person and UTC day.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        # {"kind": ..., "chips": S} as JSON text; NULL: a table without stakes
        batch.add_column(sa.Column("stake", sa.Text, nullable=True))
    op.create_table(
        "wallet_top_ups",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        # the UTC day, YYYY-MM-DD: the key makes "once a day" a database fact
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("client_key", sa.String(200), nullable=False),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("user_id", "client_key", name="uq_wallet_top_ups_key"),
    )


def downgrade() -> None:
    op.drop_table("wallet_top_ups")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("stake")
