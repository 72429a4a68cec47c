"""Issue 32: each rating-list row keeps its place in its period's list and its name's initial,
so a search by initial reads only the rows found (bench.history_page), not the whole list.
Existing rows are filled as the lists are ranked (rating, highest first; person id on a tie).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rating_lists", sa.Column("rank", sa.Integer(), nullable=True))
    op.add_column("rating_lists", sa.Column("initial", sa.String(length=8), nullable=True))
    op.execute(
        "UPDATE rating_lists AS r SET rank = ranked.place, initial = lower(left(btrim(r.name), 1)) "
        "FROM (SELECT organisation, period, person_id, row_number() OVER "
        "(PARTITION BY organisation, period ORDER BY rating DESC, person_id) AS place FROM rating_lists) AS ranked "
        "WHERE r.organisation = ranked.organisation AND r.period = ranked.period AND r.person_id = ranked.person_id"
    )
    op.alter_column("rating_lists", "rank", nullable=False)
    op.alter_column("rating_lists", "initial", nullable=False)
    op.create_index("ix_rating_lists_rank", "rating_lists", ["organisation", "period", "rank"])
    op.create_index("ix_rating_lists_initial", "rating_lists", ["organisation", "period", "initial", "rank"])


def downgrade() -> None:
    op.drop_index("ix_rating_lists_initial", table_name="rating_lists")
    op.drop_index("ix_rating_lists_rank", table_name="rating_lists")
    op.drop_column("rating_lists", "initial")
    op.drop_column("rating_lists", "rank")
