"""REG-14/15: the fee ledger (append-only lines: payments, refunds, corrections) and refund
requests; REG-10: a change request names the player it replaces, the new player and when the
substitution was applied.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ledger_lines",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("event_code", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("item", sa.String(100), nullable=False),
        sa.Column("amount_fen", sa.BigInteger, nullable=False),
        sa.Column("currency", sa.String(10), nullable=False),
        sa.Column("entry_id", sa.String(200), nullable=True),
        sa.Column("unit_id", sa.String(100), nullable=True),
        sa.Column("received_at", TS, nullable=False),
        sa.Column("recorded_at", TS, nullable=False),
        sa.Column("recorded_by", sa.String(100), nullable=False),
        sa.Column("reference_enc", sa.Text, nullable=True),
        sa.Column("corrects", sa.String(200), nullable=True),
        sa.Column("source", sa.String(200), nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("partner_id", sa.String(100), nullable=True),
        sa.UniqueConstraint("event_code", "seq", name="uq_ledger_seq"),
        sa.UniqueConstraint("event_code", "source", name="uq_ledger_source"),
    )
    op.create_index("ix_ledger_lines_event_code", "ledger_lines", ["event_code"])
    op.create_table(
        "refund_requests",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("event_code", sa.String(64), nullable=False),
        sa.Column("entry_id", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("proof_ref_enc", sa.Text, nullable=True),
        sa.Column("force_majeure_claimed", sa.Boolean, nullable=False),
        sa.Column("requested_at", TS, nullable=False),
        sa.Column("requested_by", sa.String(100), nullable=False),
        sa.Column("partner_id", sa.String(100), nullable=True),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("granted_fen", sa.BigInteger, nullable=True),
        sa.Column("force_majeure_accepted", sa.Boolean, nullable=True),
        sa.Column("decided_by", sa.String(100), nullable=True),
        sa.Column("decided_at", TS, nullable=True),
        sa.Column("decision_note", sa.Text, nullable=True),
        sa.Column("ledger_line_id", sa.String(200), nullable=True),
    )
    op.create_index("ix_refund_requests_event_code", "refund_requests", ["event_code"])
    with op.batch_alter_table("change_requests") as batch:
        batch.add_column(sa.Column("replaces_person_id", sa.String(100), nullable=True))
        batch.add_column(sa.Column("new_person_id", sa.String(100), nullable=True))
        batch.add_column(sa.Column("applied_at", TS, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("change_requests") as batch:
        batch.drop_column("applied_at")
        batch.drop_column("new_person_id")
        batch.drop_column("replaces_person_id")
    op.drop_index("ix_refund_requests_event_code", "refund_requests")
    op.drop_table("refund_requests")
    op.drop_index("ix_ledger_lines_event_code", "ledger_lines")
    op.drop_table("ledger_lines")
