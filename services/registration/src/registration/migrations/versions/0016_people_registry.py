"""Issue 32: the registry of people per organisation (one person across the organisation's events
and partner apps, found by the ID number's keyed hash), the links of event people to it, and the
audit of merges, splits, corrections and exports. People stored before this revision are linked
by the service when it starts (the migrate step has no DATA_KEY; `service_layer.people_registry`).

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registry_people",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("gender", sa.String(10), nullable=False),
        sa.Column("birth_date_enc", sa.Text, nullable=True),
        sa.Column("id_number_enc", sa.Text, nullable=True),
        sa.Column("id_number_index", sa.String(64), nullable=True),
        sa.Column("id_number_masked", sa.String(64), nullable=True),
        sa.Column("merged_into", sa.String(40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("organisation", "id_number_index", name="uq_registry_people_id_number"),
    )
    op.create_index("ix_registry_people_merged_into", "registry_people", ["merged_into"])
    op.create_index("ix_registry_people_organisation_name", "registry_people", ["organisation", "name"])
    op.create_table(
        "registry_links",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(100), primary_key=True),
        sa.Column("registry_id", sa.String(40), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_registry_links_registry_id", "registry_links", ["registry_id"])
    op.create_table(
        "registry_audit",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("person_id", sa.String(40), nullable=False),
        sa.Column("other_id", sa.String(40), nullable=True),
        sa.Column("details", sa.JSON, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(300), nullable=False),
    )
    op.create_index("ix_registry_audit_person_id", "registry_audit", ["person_id"])
    op.create_index("ix_registry_audit_other_id", "registry_audit", ["other_id"])


def downgrade() -> None:
    op.drop_table("registry_audit")
    op.drop_table("registry_links")
    op.drop_table("registry_people")
