"""Fees announced later (REG-14; NY, NT 十一: 食宿标准另行通知): the organiser's announcements of
a fee item's amount, with the instant each applies from, and the fee clerk's "paid in full"
confirmations of an entry's item while its amount is not announced. Both append-only.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fee_announcements",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("item", sa.String(length=100), nullable=False),
        sa.Column("amount_fen", sa.BigInteger(), nullable=False),
        sa.Column("applies_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("announced_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("announced_by", sa.String(length=100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_code", "seq", name="uq_fee_announcement_seq"),
    )
    op.create_index("ix_fee_announcements_event_code", "fee_announcements", ["event_code"])
    op.create_table(
        "fee_confirmations",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.String(length=200), nullable=False),
        sa.Column("item", sa.String(length=100), nullable=False),
        sa.Column("paid_in_full", sa.Boolean(), nullable=False),
        sa.Column("as_of", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("partner_id", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_code", "seq", name="uq_fee_confirmation_seq"),
    )
    op.create_index("ix_fee_confirmations_event_code", "fee_confirmations", ["event_code"])


def downgrade() -> None:
    op.drop_index("ix_fee_confirmations_event_code", table_name="fee_confirmations")
    op.drop_table("fee_confirmations")
    op.drop_index("ix_fee_announcements_event_code", table_name="fee_announcements")
    op.drop_table("fee_announcements")
