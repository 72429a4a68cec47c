"""Idempotency keys in the shape every service shares (gomoku_shared.idempotency): bound to the
request's fingerprint (method, path, body digest) and expiring.

The table is dropped and created again: keys are short-lived retry tokens, and rows from before
this revision were not bound to the same fingerprint.

A frozen copy of gomoku_shared's ``idempotency_table`` as this revision creates it.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("idempotency_keys")
    op.create_table(
        "idempotency_keys",
        sa.Column("principal", sa.String(length=200), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("principal", "key"),
    )
    op.create_index("ix_idempotency_keys_created", "idempotency_keys", ["created_ms"], unique=False)


def downgrade() -> None:
    op.drop_table("idempotency_keys")
    op.create_table(
        "idempotency_keys",
        sa.Column("principal", sa.String(200), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=False),
        sa.Column("response", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
