"""Issue 32: the event person behind each title grant and each side of a rated game, so that a
split in the registry moves exactly that person's records (rows from before it have none).

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
    op.add_column("title_grants", sa.Column("player_id", sa.String(length=100), nullable=True))
    op.add_column("rated_games", sa.Column("first_player", sa.String(length=100), nullable=True))
    op.add_column("rated_games", sa.Column("second_player", sa.String(length=100), nullable=True))


def downgrade() -> None:
    op.drop_column("rated_games", "second_player")
    op.drop_column("rated_games", "first_player")
    op.drop_column("title_grants", "player_id")
