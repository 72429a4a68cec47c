"""Honours (AWD-9, NY 十一(三)): the organiser's honorary awards of an event.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "honours",
        sa.Column("event_code", sa.String(100), primary_key=True),
        sa.Column("honour_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("recipient_kind", sa.String(10), nullable=False),
        sa.Column("recipient_id", sa.String(200), nullable=True),
        sa.Column("recipient_name", sa.String(300), nullable=False),
        sa.Column("unit_name", sa.String(300), nullable=True),
        sa.Column("section_id", sa.String(100), nullable=True),
        sa.Column("citation", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("awarded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("awarded_by", sa.String(64), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(64), nullable=True),
        sa.Column("revoked_reason", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("honours")
