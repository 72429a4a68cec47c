"""Issue 34: a registrant's documents, stored encrypted (AES-256-GCM under DATA_KEY) in the
service's own database, with who uploaded them, their review state and when they are deleted.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "documents",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("event_code", sa.String(64), nullable=False),
        sa.Column("entry_id", sa.String(200), nullable=False),
        sa.Column("evidence_id", sa.String(200), nullable=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("media_type", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("ciphertext", sa.LargeBinary, nullable=False),
        sa.Column("uploaded_by_kind", sa.String(20), nullable=False),
        sa.Column("uploaded_by_id", sa.String(200), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review_state", sa.String(20), nullable=False),
        sa.Column("delete_after", sa.Date, nullable=False),
    )
    op.create_index("ix_documents_event_code", "documents", ["event_code"])
    op.create_index("ix_documents_entry_id", "documents", ["entry_id"])
    op.create_index("ix_documents_delete_after", "documents", ["delete_after"])


def downgrade() -> None:
    op.drop_table("documents")
