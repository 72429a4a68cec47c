"""Arbiter decisions from pairing (result.decided), and room for the ``double_forfeit`` result.

0002 (frozen with the shape a new database had when the revisions were frozen) already has the
wider result column; this revision brings a database created before that to the same shape.

``arbiter_decisions`` is a frozen copy of its declaration (``decision_table``) as this revision
creates it.

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
    op.create_table(
        "arbiter_decisions",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.String(length=120), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=24), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("decided_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "stage", "section_id", "round", "pairing_id"),
    )
    if op.get_bind().dialect.name == "postgresql":  # SQLite does not enforce lengths
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(16)")


def downgrade() -> None:
    op.drop_table("arbiter_decisions")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE games SET result = 'draw' WHERE result = 'double_forfeit'")
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(8)")
