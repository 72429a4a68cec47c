"""Tournaments, entrants, rounds, pairings, game results, byes, withdrawals, ties, audit, idempotency.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from pairing.adapters.orm import pairing_tables

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    md = sa.MetaData()
    pairing_tables(md)
    md.create_all(op.get_bind())


def downgrade() -> None:
    md = sa.MetaData()
    for table in reversed(list(pairing_tables(md).values())):
        op.drop_table(table.name)
