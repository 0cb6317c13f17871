"""Friends, blocks and challenges (#44 items 3 and 4): who follows whom, who blocked whom,
and the challenges of one named person to another (docs/protocol.md, "Friends").

Revision ID: 0023
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision: str | None = "0022"
branch_labels: str | None = None
depends_on: str | None = None


def _person(name: str) -> sa.Column[int]:
    # a list means nothing once its person is gone: removed with him
    return sa.Column(
        name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "follows",
        _person("follower_id"),
        _person("followee_id"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "blocks",
        _person("blocker_id"),
        _person("blocked_id"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "from_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "to_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("stake", sa.Text, nullable=True),
        sa.Column("bots", sa.Text, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
    )
    op.create_index("ix_challenges_from", "challenges", ["from_id", "state"])
    op.create_index("ix_challenges_to", "challenges", ["to_id", "state"])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("blocks")
    op.drop_table("follows")
