"""Issue 32: the federation's record of results — each individual section's final places as
awards published them (awards.published), per event person, and the revision recorded.

Revision ID: 0020
Revises: 0019
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "record_sections",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("cancelled", sa.Boolean, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "record_places",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("person_id", sa.String(100), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("section_name", sa.String(200), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("edition_on", sa.Date, nullable=False),
        sa.Column("title", sa.String(20), nullable=True),
    )
    op.create_index("ix_record_places_organisation", "record_places", ["organisation"])


def downgrade() -> None:
    op.drop_index("ix_record_places_organisation", table_name="record_places")
    op.drop_table("record_places")
    op.drop_table("record_sections")
