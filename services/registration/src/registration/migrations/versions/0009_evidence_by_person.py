"""An index on the evidence records by (event, person): a submission reads its players' records,
which otherwise scanned every record of the event (a bulk import grew with the square of its size).

Revision ID: 0009
Revises: 0008
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_evidence_event_person", "evidence", ["event_code", "person_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_evidence_event_person", table_name="evidence")
