"""Staff sessions of people signed in with their account (issue 29): their access and refresh
tokens and their roles, sealed with the session secret (NULL for an API key's session).

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
    op.add_column("staff_sessions", sa.Column("sealed_person", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("staff_sessions", "sealed_person")
