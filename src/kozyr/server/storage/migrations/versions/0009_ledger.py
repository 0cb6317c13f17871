"""The chip ledger (B5): accounts with cached balances, transactions with idempotency keys,
and entries; the journal is append-only (triggers refuse UPDATE and DELETE).

Revision ID: 0009
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

_JOURNAL = ("ledger_transactions", "ledger_entries")


def upgrade() -> None:
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.CheckConstraint(
            "kind = 'house' OR balance >= 0", name="ck_ledger_accounts_not_negative"
        ),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("memo", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("ledger_accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("balance_after", sa.BigInteger, nullable=False),
        sa.CheckConstraint("amount <> 0", name="ck_ledger_entries_amount"),
    )
    op.create_index("ix_ledger_entries_account", "ledger_entries", ["account_id", "id"])
    op.create_index("ix_ledger_entries_tx", "ledger_entries", ["tx_id"])
    dialect = op.get_bind().dialect.name
    for table in _JOURNAL:
        if dialect == "sqlite":
            for verb in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )
        elif dialect == "postgresql":
            op.execute(
                "CREATE OR REPLACE FUNCTION kozyr_append_only() RETURNS trigger AS $$ "
                "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$ "
                "LANGUAGE plpgsql"
            )
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION kozyr_append_only()"
            )


def downgrade() -> None:
    op.drop_table("ledger_entries")
    op.drop_table("ledger_transactions")
    op.drop_table("ledger_accounts")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS kozyr_append_only()")
