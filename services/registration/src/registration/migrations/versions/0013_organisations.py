"""Issue 29: every event belongs to an organisation (existing events: the default one), the
shared ``event_access`` table (each event's owner and the partner apps its organiser chose), the
audit of partner choices (``partner_choices``), and audit columns wide enough for a person's name with their account id.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

#: (table, column, nullable): who acted, now "<name> (acct:<account>)" for a person
AUDIT_COLUMNS = (
    ("events", "created_by", False),
    ("evidence", "reviewed_by", True),
    ("withdrawals", "requested_by", False),
    ("change_requests", "decided_by", True),
    ("ledger_lines", "recorded_by", False),
    ("refund_requests", "requested_by", False),
    ("refund_requests", "decided_by", True),
    ("fee_announcements", "announced_by", False),
    ("fee_confirmations", "recorded_by", False),
    ("exemption_lists", "loaded_by", False),
)


def upgrade() -> None:
    op.add_column("events", sa.Column("organisation", sa.String(64), nullable=False, server_default="default"))
    op.create_table(
        "event_access",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("partners", sa.JSON, nullable=True),
        sa.Column("changed_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "partner_choices",
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("partners", sa.JSON, nullable=True),
        sa.Column("chosen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chosen_by", sa.String(300), nullable=False),
    )
    _resize(sa.String(100), sa.String(300))


def _resize(old: sa.String, new: sa.String) -> None:
    """The audit columns from ``old`` to ``new`` (in batches: SQLite rebuilds the table)."""
    for table in dict.fromkeys(t for t, _, _ in AUDIT_COLUMNS):
        with op.batch_alter_table(table) as batch:
            for _, column, nullable in (c for c in AUDIT_COLUMNS if c[0] == table):
                batch.alter_column(column, type_=new, existing_type=old, existing_nullable=nullable)


def downgrade() -> None:
    _resize(sa.String(300), sa.String(100))
    op.drop_table("partner_choices")
    op.drop_table("event_access")
    op.drop_column("events", "organisation")
