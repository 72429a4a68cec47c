"""Idempotency keys in the shape every service shares (gomoku_shared.idempotency): bound to the
request's fingerprint (method, path, body digest) and expiring.

The table is dropped and created again: keys are short-lived retry tokens, and rows from before
this revision carry no fingerprint to judge a retry by.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

from gomoku_shared.idempotency import idempotency_table

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("idempotency_keys")
    md = sa.MetaData()
    idempotency_table(md)
    md.create_all(op.get_bind())


def downgrade() -> None:
    op.drop_table("idempotency_keys")
    op.create_table(
        "idempotency_keys",
        sa.Column("principal", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("game_id", sa.String(200), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("response", sa.JSON, nullable=False),
    )
