"""The creator's address with each unfinished table, and indexes to count the open tables
per account and per address over every process (cluster mode).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("creator_address", sa.String(64), nullable=True))
    op.create_index("ix_game_tables_creator", "game_tables", ["creator_id"])
    op.create_index("ix_game_tables_creator_address", "game_tables", ["creator_address"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_creator_address", "game_tables")
    op.drop_index("ix_game_tables_creator", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("creator_address")
