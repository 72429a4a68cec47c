"""Moves update the game row in place: no index on flag_due_ms; a partial index of the games
not finished for the sweep; fill factor 70 leaves room on each page for the new row version.

0002 (frozen with the shape a new database had when the revisions were frozen) already creates
this shape; this revision brings a database created before that to it (hence IF [NOT] EXISTS).

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_games_flag_due")
    op.execute("CREATE INDEX IF NOT EXISTS ix_games_live ON games (game_id) WHERE status <> 'finished'")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games SET (fillfactor = 70)")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_games_live")
    op.execute("CREATE INDEX IF NOT EXISTS ix_games_flag_due ON games (flag_due_ms)")
