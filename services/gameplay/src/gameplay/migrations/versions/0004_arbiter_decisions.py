"""Arbiter decisions from pairing (result.decided), and room for the ``double_forfeit`` result.

0002 builds ``games`` from ``game_tables()``, which already has the wider result column on a
new database; this revision brings a database created before it to the same shape.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

from gameplay.adapters.orm import decision_table

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    md = sa.MetaData()
    decision_table(md)
    md.create_all(op.get_bind())
    if op.get_bind().dialect.name == "postgresql":  # SQLite does not enforce lengths
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(16)")


def downgrade() -> None:
    op.drop_table("arbiter_decisions")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE games SET result = 'draw' WHERE result = 'double_forfeit'")
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(8)")
