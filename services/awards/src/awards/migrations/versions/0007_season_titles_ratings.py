"""Issue 32 (ADR 0012): the season — title grants by registry person, rated games, the rating
list of each period and each organisation's title ladder.

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
    op.create_table(
        "title_grants",
        sa.Column("event_code", sa.String(length=100), primary_key=True),
        sa.Column("section_id", sa.String(length=100), primary_key=True),
        sa.Column("person_id", sa.String(length=64), primary_key=True),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=20), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("granted_on", sa.Date(), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
    )
    op.create_index("ix_title_grants_person", "title_grants", ["organisation", "person_id"])
    op.create_table(
        "rated_games",
        sa.Column("event_code", sa.String(length=100), primary_key=True),
        sa.Column("section_id", sa.String(length=100), primary_key=True),
        sa.Column("pairing_id", sa.String(length=64), primary_key=True),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.String(length=64), nullable=False),
        sa.Column("second_id", sa.String(length=64), nullable=False),
        sa.Column("first_name", sa.String(length=300), nullable=False),
        sa.Column("second_name", sa.String(length=300), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
    )
    op.create_index("ix_rated_games_org", "rated_games", ["organisation", "played_on"])
    op.create_table(
        "rating_lists",
        sa.Column("organisation", sa.String(length=64), primary_key=True),
        sa.Column("period", sa.String(length=7), primary_key=True),
        sa.Column("person_id", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "title_ladders",
        sa.Column("organisation", sa.String(length=64), primary_key=True),
        sa.Column("titles", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("title_ladders")
    op.drop_table("rating_lists")
    op.drop_index("ix_rated_games_org", table_name="rated_games")
    op.drop_table("rated_games")
    op.drop_index("ix_title_grants_person", table_name="title_grants")
    op.drop_table("title_grants")
