"""Issue 34: the registrant's secret link of an entry made on the public form (only the token's
hash kept) and the guardian's phone number (encrypted, with its masked form).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registrant_links",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("entry_id", sa.String(200), primary_key=True),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("guardian_phone_enc", sa.Text, nullable=False),
        sa.Column("guardian_phone_masked", sa.String(32), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("issued_by", sa.String(300), nullable=False),
        sa.Column("reissues", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("registrant_links")
