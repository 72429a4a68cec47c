"""Games, their action logs, stream events and idempotency keys.

A frozen copy of the table declarations (``game_tables``) as a new database gets them from this
revision: a database created before it was frozen has been brought to the same shape by 0003-0005.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=True),
        sa.Column("player_id", sa.String(length=120), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("think_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "idx"),
    )
    op.create_table(
        "game_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("round_key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_events_seq"),
    )
    op.create_index("ix_game_events_round", "game_events", ["round_key", "id"], unique=False)
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(length=200), nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.String(length=120), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("unit_kind", sa.String(length=16), nullable=False),
        sa.Column("playoff_id", sa.String(length=120), nullable=True),
        sa.Column("player_a", sa.String(length=120), nullable=False),
        sa.Column("player_b", sa.String(length=120), nullable=False),
        sa.Column("partner_a", sa.String(length=120), nullable=True),
        sa.Column("partner_b", sa.String(length=120), nullable=True),
        sa.Column("first_id", sa.String(length=120), nullable=False),
        sa.Column("second_id", sa.String(length=120), nullable=False),
        sa.Column("black", sa.String(length=120), nullable=False),
        sa.Column("white", sa.String(length=120), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("clock_spec", sa.JSON(), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("to_act", sa.String(length=120), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("n_actions", sa.Integer(), nullable=False),
        sa.Column("joined_first", sa.Boolean(), nullable=False),
        sa.Column("joined_second", sa.Boolean(), nullable=False),
        sa.Column("draw_offer_by", sa.String(length=120), nullable=True),
        sa.Column("clock_first_ms", sa.BigInteger(), nullable=False),
        sa.Column("clock_second_ms", sa.BigInteger(), nullable=False),
        sa.Column("increment_ms", sa.BigInteger(), nullable=False),
        sa.Column("clock_running", sa.String(length=8), nullable=True),
        sa.Column("clock_since_ms", sa.BigInteger(), nullable=True),
        sa.Column("flag_due_ms", sa.BigInteger(), nullable=True),
        sa.Column("no_show_due_ms", sa.BigInteger(), nullable=True),
        sa.Column("result", sa.String(length=16), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=True),
        sa.Column("foul", sa.String(length=16), nullable=True),
        sa.Column("winner", sa.String(length=120), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("game_id"),
        postgresql_with={"fillfactor": 70},
    )
    op.create_index(
        "ix_games_live",
        "games",
        ["game_id"],
        unique=False,
        postgresql_where=sa.text("status != 'finished'"),
        sqlite_where=sa.text("status != 'finished'"),
    )
    op.create_index("ix_games_no_show_due", "games", ["no_show_due_ms"], unique=False)
    op.create_index("ix_games_round", "games", ["event_code", "section_id", "round"], unique=False)
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
    for name in ("idempotency_keys", "game_events", "game_actions", "games"):
        op.drop_table(name)
