"""Issue 32: the latest rating list awards published for each organisation (ratings.published),
to seed the entries of its events by rating.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_publications",
        sa.Column("organisation", sa.String(64), primary_key=True),
        sa.Column("period", sa.String(7), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "published_ratings",
        sa.Column("organisation", sa.String(64), primary_key=True),
        sa.Column("registry_id", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("provisional", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("published_ratings")
    op.drop_table("rating_publications")
