"""A game's result may be ``double_forfeit`` (both absent, PLAY-7): the column grows to 16.

0002 (frozen with the shape a new database had when the revisions were frozen) already has this
width; this revision brings a database created before that to the same shape.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":  # SQLite does not enforce lengths
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(16)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE games SET result = 'draw' WHERE result = 'double_forfeit'")
        op.execute("ALTER TABLE games ALTER COLUMN result TYPE VARCHAR(8)")
