"""EVT-7: the arbiters' exceptions letting an over-the-board game progress before its round's
scheduled start (who allowed it, when, why, and the start it was allowed before).

A frozen copy of ``early_start_table`` as this revision creates it.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "early_starts",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("allowed_by", sa.String(length=64), nullable=False),
        sa.Column("allowed_ms", sa.BigInteger(), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("early_starts")
