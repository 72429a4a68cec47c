"""Outbox and inbox tables of the partners service.

A frozen copy of gomoku_shared's outbox and inbox declarations (``outbox_table``,
``inbox_table``) as this revision creates them: a later change there needs a new revision here.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("consumer", sa.String(length=200), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("processed_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("consumer", "message_id"),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=64), nullable=False),
        sa.Column("routing_key", sa.String(length=255), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("created_at", TS, server_default=sa.func.now(), nullable=False),
        sa.Column("published_at", TS, nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id"),
    )
    op.create_index(
        "ix_outbox_pending",
        "outbox",
        ["id"],
        unique=False,
        postgresql_where=sa.text("published_at IS NULL"),
        sqlite_where=sa.text("published_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_table("inbox")
    op.drop_table("outbox")
