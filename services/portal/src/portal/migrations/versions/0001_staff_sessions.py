"""Staff sign-in sessions, shared by every portal replica (docs/adr/0009-portal-sessions-shared.md).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "staff_sessions",
        sa.Column("session_id", sa.String(64), primary_key=True),
        sa.Column("sealed_key", sa.Text, nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_staff_sessions_expires_at", "staff_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_staff_sessions_expires_at", table_name="staff_sessions")
    op.drop_table("staff_sessions")
