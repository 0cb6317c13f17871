"""Why a rated game moved no rating (issue 27: aborted, a shared address, a new account).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("unrated", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("unrated")
