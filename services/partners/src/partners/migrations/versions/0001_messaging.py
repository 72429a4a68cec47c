"""Outbox and inbox tables of the partners service.

Revision ID: 0001
Revises:
"""

from gomoku_shared.alembic_env import create_messaging_tables, drop_messaging_tables

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_messaging_tables()


def downgrade() -> None:
    drop_messaging_tables()
