"""Issue 32: each rating-list row keeps its place in its period's list and its name's initial,
so a search by initial reads only the rows found (bench.history_page), not the whole list.
Existing rows are filled as the code ranks a list (rating, highest first; person id on a tie),
row by row: the lists are computed again on the next rated result anyway.

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
    # the lists stored so far, ranked as the code ranks them (both databases: no dialect SQL)
    lists = sa.table(
        "rating_lists",
        sa.column("organisation"),
        sa.column("period"),
        sa.column("person_id"),
        sa.column("name"),
        sa.column("rating"),
        sa.column("rank"),
        sa.column("initial"),
    )
    bind = op.get_bind()
    t = lists.c
    order = (t.organisation, t.period, t.rating.desc(), t.person_id)
    place, key = 0, None
    for row in bind.execute(sa.select(t.organisation, t.period, t.person_id, t.name).order_by(*order)).all():
        place = place + 1 if key == (row.organisation, row.period) else 1
        key = (row.organisation, row.period)
        where = (t.organisation == row.organisation, t.period == row.period, t.person_id == row.person_id)
        initial = (row.name or "").strip()[:1].casefold()
        bind.execute(sa.update(lists).where(*where).values(rank=place, initial=initial))
    with op.batch_alter_table("rating_lists") as batch:
        batch.alter_column("rank", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("initial", existing_type=sa.String(length=8), nullable=False)
    op.create_index("ix_rating_lists_rank", "rating_lists", ["organisation", "period", "rank"])
    op.create_index("ix_rating_lists_initial", "rating_lists", ["organisation", "period", "initial", "rank"])


def downgrade() -> None:
    op.drop_index("ix_rating_lists_initial", table_name="rating_lists")
    op.drop_index("ix_rating_lists_rank", table_name="rating_lists")
    with op.batch_alter_table("rating_lists") as batch:
        batch.drop_column("initial")
        batch.drop_column("rank")
