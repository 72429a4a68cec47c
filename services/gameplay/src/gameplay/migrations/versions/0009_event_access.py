"""Issue 29: who owns each event and which partner apps may run its games (the shared
``event_access`` table, kept from ``event.access_changed``), and the person behind a result slip
and an early start (their stable id and display name beside the credential's id).

Frozen copies of ``gomoku_shared.event_access.event_access_table`` and of the new columns as
this revision creates them.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_access",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=True),
        sa.Column("changed_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("event_code"),
    )
    op.add_column("result_slips", sa.Column("entered_by_id", sa.String(length=64), nullable=True))
    op.add_column("result_slips", sa.Column("entered_by_name", sa.String(length=200), nullable=True))
    op.add_column("early_starts", sa.Column("allowed_by_id", sa.String(length=64), nullable=True))
    op.add_column("early_starts", sa.Column("allowed_by_name", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("early_starts") as batch:
        batch.drop_column("allowed_by_name")
        batch.drop_column("allowed_by_id")
    with op.batch_alter_table("result_slips") as batch:
        batch.drop_column("entered_by_name")
        batch.drop_column("entered_by_id")
    op.drop_table("event_access")
