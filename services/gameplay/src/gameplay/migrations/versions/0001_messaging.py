"""Outbox and inbox tables of the gameplay service.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    md = sa.MetaData()
    outbox_table(md)
    inbox_table(md)
    md.create_all(op.get_bind())


def downgrade() -> None:
    op.drop_table("inbox")
    op.drop_table("outbox")
