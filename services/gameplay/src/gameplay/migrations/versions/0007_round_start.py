"""EVT-7: a game's scheduled start (``starts_ms``): no move before it, its clock starts there and
its no-show limit counts from it. Null for games that start when they are created (a pairing's
next game, playoffs, rounds without a schedule).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("starts_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "starts_ms")
