"""Appeals to the arbitration committee (AWD-10): one row per appeal, lodged → upheld | rejected.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "appeals",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("appeal_id", sa.String(length=96), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("pairing_id", sa.String(length=64), nullable=True),
        sa.Column("unit_id", sa.String(length=160), nullable=True),
        sa.Column("unit_name", sa.String(length=200), nullable=True),
        sa.Column("signatory_role", sa.String(length=16), nullable=False),
        sa.Column("signatory_name", sa.String(length=200), nullable=False),
        sa.Column("grounds", sa.Text(), nullable=False),
        sa.Column("fee_fen", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("payment_reference", sa.String(length=120), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("lodged_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lodged_by", sa.String(length=64), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(length=64), nullable=True),
        sa.Column("reasons", sa.Text(), nullable=True),
        sa.Column("refund_fen", sa.BigInteger(), nullable=True),
        sa.Column("result_before", sa.String(length=8), nullable=True),
        sa.Column("result_after", sa.String(length=8), nullable=True),
        sa.PrimaryKeyConstraint("event_code", "section_id", "appeal_id"),
    )


def downgrade() -> None:
    op.drop_table("appeals")
