"""Issue 34: a delegation's documents (the stamped entry form, ID-card and insurance scans, the
payment's screenshot): the unit that sent one and the person it is about, beside an entry's.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("documents", sa.Column("unit_id", sa.String(100), nullable=True))
    op.add_column("documents", sa.Column("person_id", sa.String(200), nullable=True))
    op.create_index("ix_documents_unit_id", "documents", ["unit_id"])


def downgrade() -> None:
    op.drop_index("ix_documents_unit_id", table_name="documents")
    op.drop_column("documents", "person_id")
    op.drop_column("documents", "unit_id")
