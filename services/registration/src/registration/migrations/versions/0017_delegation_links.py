"""Issue 34: a delegation's secret link (only the token's hash kept), its leader's phone number
(encrypted, with its masked form) and the roster as last submitted (no ID numbers: the people
it names are stored as every entry's people are).

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "delegation_links",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("unit_id", sa.String(100), primary_key=True),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("leader_phone_enc", sa.Text, nullable=False),
        sa.Column("leader_phone_masked", sa.String(32), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("issued_by", sa.String(300), nullable=False),
        sa.Column("roster", sa.JSON, nullable=True),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("amendments", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("delegation_links")
