"""Fair dealing and names: a table's 256-bit secret seed (hex) and its dealing scheme; a
user name's confusable skeleton, so look-alike names can be refused.

Tables from before this revision keep their small integer ``seed`` and have
``dealing`` NULL (the legacy Mersenne Twister deals, which their records still replay).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("seed_hex", sa.String(64), nullable=True))
        batch.add_column(sa.Column("dealing", sa.String(32), nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(200), nullable=True))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"])


def downgrade() -> None:
    op.drop_index("ix_users_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("dealing")
        batch.drop_column("seed_hex")
