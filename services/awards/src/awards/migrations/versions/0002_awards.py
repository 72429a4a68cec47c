"""Awards tables: event configurations, section results by revision, publications,
team rankings, qualifier selections.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_configs",
        sa.Column("event_code", sa.String(100), primary_key=True),
        sa.Column("name", sa.String(300), nullable=True),
        sa.Column("preset_id", sa.String(100), nullable=True),
        sa.Column("config", sa.Text, nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "section_results",
        sa.Column("event_code", sa.String(100), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("revision", sa.Integer, primary_key=True),
        sa.Column("stage", sa.String(100), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "publications",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_code", sa.String(100), nullable=False),
        sa.Column("section_id", sa.String(100), nullable=False),
        sa.Column("stage", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("supersedes", sa.Integer, nullable=True),
        sa.Column("superseded", sa.Boolean, nullable=False),
        sa.Column("superseded_by", sa.Integer, nullable=True),
        sa.Column("source_revision", sa.Integer, nullable=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_code", "section_id", "revision", name="uq_publication_revision"),
    )
    op.create_index("ix_publications_event", "publications", ["event_code", "section_id"])
    op.create_table(
        "team_rankings",
        sa.Column("event_code", sa.String(100), primary_key=True),
        sa.Column("team_section_id", sa.String(100), primary_key=True),
        sa.Column("unit_id", sa.String(200), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("unit_name", sa.String(300), nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("score", sa.String(40), nullable=True),
        sa.Column("shared_place", sa.Boolean, nullable=False),
        sa.Column("members", sa.Text, nullable=False),
        sa.Column("tiebreaks", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("publication_revision", sa.Integer, nullable=False),
    )
    op.create_table(
        "qualifier_selections",
        sa.Column("event_code", sa.String(100), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("target_section_id", sa.String(100), primary_key=True),
        sa.Column("from_stage", sa.String(100), nullable=False),
        sa.Column("to_stage", sa.String(100), nullable=False),
        sa.Column("gender", sa.String(10), nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("source_revision", sa.Integer, nullable=False),
        sa.Column("complete", sa.Boolean, nullable=False),
        sa.Column("emitted_revision", sa.Integer, nullable=True),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("qualifier_selections")
    op.drop_table("team_rankings")
    op.drop_index("ix_publications_event", table_name="publications")
    op.drop_table("publications")
    op.drop_table("section_results")
    op.drop_table("event_configs")
