"""Issue 32: a person's history reads without scanning the organisation's records — their rated
games from either side and their rating after each period (bench.history_page: 1,000 events).

Revision ID: 0009
Revises: 0008
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_rated_games_first", "rated_games", ["organisation", "first_id"])
    op.create_index("ix_rated_games_second", "rated_games", ["organisation", "second_id"])
    op.create_index("ix_rating_lists_person", "rating_lists", ["organisation", "person_id", "period"])


def downgrade() -> None:
    op.drop_index("ix_rating_lists_person", table_name="rating_lists")
    op.drop_index("ix_rated_games_second", table_name="rated_games")
    op.drop_index("ix_rated_games_first", table_name="rated_games")
