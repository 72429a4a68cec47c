"""Offboarding and retries: a partner's last suspension, who disabled a subscription, and the
Idempotency-Keys of the service's POSTs.

``partners.suspended_at`` is when the partner was last suspended (kept after a resumption: the
verifiers refuse every token issued before it). ``webhook_subscriptions.disabled_by`` names the
operator who disabled a subscription (NULL: disabled after failed attempts, which the partner may
enable again). ``idempotency_keys`` is a frozen copy of gomoku_shared's ``idempotency_table``.

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
    op.add_column("partners", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("webhook_subscriptions", sa.Column("disabled_by", sa.String(length=200), nullable=True))
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
    op.drop_index("ix_idempotency_keys_created", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("webhook_subscriptions") as batch:
        batch.drop_column("disabled_by")
    with op.batch_alter_table("partners") as batch:
        batch.drop_column("suspended_at")
