"""EVT-7: the rounds an arbiter delayed (from pairing's ``round.rescheduled``), so that the
published schedule and its calendars show the new start.

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
        "round_delays",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=100), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("previous_starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "round"),
    )


def downgrade() -> None:
    op.drop_table("round_delays")
