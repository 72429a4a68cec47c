"""Games, their action logs, stream events and idempotency keys.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from gameplay.adapters.orm import game_tables

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    md = sa.MetaData()
    game_tables(md)
    md.create_all(op.get_bind())


def downgrade() -> None:
    for name in ("idempotency_keys", "game_events", "game_actions", "games"):
        op.drop_table(name)
