"""Over-the-board games (PLAY-9, PLAY-10): the games' mode, result slips, entered and recorded
game records with their flags, and the per-game recorder credentials.

A frozen copy of ``over_the_board_tables`` and the ``mode`` column as this revision creates them.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("mode", sa.String(length=8), server_default="online", nullable=False))
    op.create_table(
        "result_slips",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("confirms", sa.Integer(), nullable=True),
        sa.Column("entered_by", sa.String(length=64), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("entered_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "idx"),
    )
    op.create_table(
        "record_entries",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("opening", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("flags", sa.JSON(), nullable=False),
        sa.Column("entered_by", sa.String(length=64), nullable=False),
        sa.Column("entered_ms", sa.BigInteger(), nullable=False),
        sa.Column("decided_note", sa.String(length=500), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "idx"),
    )
    op.create_index("ix_record_entries_event", "record_entries", ["event_code", "status"])
    op.create_table(
        "recorders",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("issued_by", sa.String(length=64), nullable=False),
        sa.Column("issued_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("recorders")
    op.drop_index("ix_record_entries_event", table_name="record_entries")
    op.drop_table("record_entries")
    op.drop_table("result_slips")
    op.drop_column("games", "mode")
