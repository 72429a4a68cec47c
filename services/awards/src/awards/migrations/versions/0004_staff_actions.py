"""Staff actions on the awards: publications asked for by an arbiter or operator (audited).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "staff_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_code", sa.String(100), nullable=False),
        sa.Column("section_id", sa.String(100), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(120), nullable=False),
        sa.Column("revision", sa.Integer, nullable=True),
        sa.Column("published", sa.Boolean, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_staff_actions_section", "staff_actions", ["event_code", "section_id"])


def downgrade() -> None:
    op.drop_index("ix_staff_actions_section", table_name="staff_actions")
    op.drop_table("staff_actions")
