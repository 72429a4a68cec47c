"""Tournaments, entrants, rounds, pairings, game results, byes, withdrawals, ties, audit, idempotency.

A frozen copy of the table declarations (``pairing_tables``) as a new database gets them from this
revision: a database created before it was frozen has been brought to the same shape by 0003-0004.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "audit",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("at", TS, nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("key_id", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_section", "audit", ["event_code", "section_id", "id"], unique=False)
    op.create_table(
        "bye_requests",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("start_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("by", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "round", "start_no"),
    )
    op.create_table(
        "byes",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("start_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("code", sa.String(length=2), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "round", "start_no"),
    )
    op.create_table(
        "entrants",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("start_no", sa.Integer(), nullable=False),
        sa.Column("entrant_id", sa.String(length=160), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("entry_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("event_code", "section_id", "start_no"),
        sa.UniqueConstraint("event_code", "section_id", "entrant_id", name="uq_entrants_entrant"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.String(length=64), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("playoff_id", sa.String(length=160), nullable=False),
        sa.Column("game_id", sa.String(length=240), nullable=False),
        sa.Column("winner", sa.String(length=160), nullable=True),
        sa.Column("result", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=24), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("double_forfeit", sa.Boolean(), nullable=False),
        sa.Column("recorded_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_code", "section_id", "playoff_id", "pairing_id", "game_no", name="uq_games_game"),
    )
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
    op.create_table(
        "pairings",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("pairing_id", sa.String(length=64), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("first_no", sa.Integer(), nullable=False),
        sa.Column("second_no", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.String(length=160), nullable=False),
        sa.Column("second_id", sa.String(length=160), nullable=False),
        sa.Column("first_team", sa.String(length=160), nullable=True),
        sa.Column("second_team", sa.String(length=160), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.Column("first_points", sa.Float(), nullable=True),
        sa.Column("second_points", sa.Float(), nullable=True),
        sa.Column("result_source", sa.String(length=16), nullable=True),
        sa.Column("result_at", TS, nullable=True),
        sa.PrimaryKeyConstraint("event_code", "section_id", "round", "pairing_id"),
    )
    op.create_table(
        "rounds",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("paired_at", TS, nullable=False),
        sa.Column("published_at", TS, nullable=True),
        sa.Column("starts_at", TS, nullable=True),
        sa.Column("completed_at", TS, nullable=True),
        sa.Column("paired_by", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "round"),
    )
    op.create_table(
        "ties",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("tie_id", sa.String(length=64), nullable=False),
        sa.Column("gender", sa.String(length=16), nullable=True),
        sa.Column("place_from", sa.Integer(), nullable=False),
        sa.Column("place_to", sa.Integer(), nullable=False),
        sa.Column("entrant_ids", sa.JSON(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("playoff", sa.JSON(), nullable=False),
        sa.Column("decision", sa.JSON(), nullable=True),
        sa.Column("decided_by", sa.String(length=16), nullable=True),
        sa.Column("decided_at", TS, nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "tie_id"),
    )
    op.create_table(
        "tournaments",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("stage", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("rounds_planned", sa.Integer(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("event_seq", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("closed", sa.JSON(), nullable=False),
        sa.Column("hold", sa.Boolean(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("completed_at", TS, nullable=True),
        sa.Column("final", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("event_code", "section_id"),
    )
    op.create_table(
        "withdrawals",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("section_id", sa.String(length=64), nullable=False),
        sa.Column("start_no", sa.Integer(), nullable=False),
        sa.Column("after_round", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("by", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("event_code", "section_id", "start_no"),
    )


def downgrade() -> None:
    for name in (
        "idempotency_keys",
        "audit",
        "ties",
        "withdrawals",
        "bye_requests",
        "byes",
        "games",
        "pairings",
        "rounds",
        "entrants",
        "tournaments",
    ):
        op.drop_table(name)
