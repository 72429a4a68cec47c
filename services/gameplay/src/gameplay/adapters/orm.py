"""Tables of the gameplay service (its own database; no other service reads them).

Times are integer epoch milliseconds from the service clock: exact, comparable on SQLite and
PostgreSQL alike, and the unit the clocks compute in.
"""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, Column, Index, Integer, MetaData, String, Table, UniqueConstraint

from gomoku_shared.event_access import event_access_table
from gomoku_shared.idempotency import idempotency_table
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)


def game_tables(schema: MetaData) -> tuple[Table, Table, Table, Table]:
    """The four tables on ``schema`` (the revisions restate them frozen: migrations import nothing live)."""
    return _games(schema), _actions(schema), _events(schema), idempotency_table(schema)


def _games(schema: MetaData) -> Table:
    games = Table(
        "games",
        schema,
        Column("game_id", String(200), primary_key=True),
        Column("event_code", String(64), nullable=False),
        Column("stage", String(64), nullable=False),
        Column("section_id", String(64), nullable=False),
        Column("round", Integer, nullable=False),
        Column("pairing_id", String(120), nullable=False),
        Column("game_no", Integer, nullable=False),
        #: single | two_game | playoff: how the pairing continues after this game
        Column("unit_kind", String(16), nullable=False),
        Column("playoff_id", String(120)),
        #: pairing players: "a" moves first in game 1 (the pairing's first)
        Column("player_a", String(120), nullable=False),
        Column("player_b", String(120), nullable=False),
        Column("partner_a", String(120)),
        Column("partner_b", String(120)),
        #: this game's first mover (black / tentative black) and second
        Column("first_id", String(120), nullable=False),
        Column("second_id", String(120), nullable=False),
        Column("black", String(120), nullable=False),
        Column("white", String(120), nullable=False),
        Column("rules", JSON, nullable=False),
        Column("clock_spec", JSON, nullable=False),
        #: the pairing spec (for game 2 / playoff continuation)
        Column("spec", JSON, nullable=False),
        Column("status", String(16), nullable=False),  # waiting | active | finished
        Column("phase", String(16), nullable=False),
        Column("to_act", String(120)),
        Column("version", Integer, nullable=False, default=1),
        Column("seq", Integer, nullable=False, default=0),
        Column("n_actions", Integer, nullable=False, default=0),
        Column("joined_first", Boolean, nullable=False, default=False),
        Column("joined_second", Boolean, nullable=False, default=False),
        Column("draw_offer_by", String(120)),
        Column("clock_first_ms", BigInteger, nullable=False),
        Column("clock_second_ms", BigInteger, nullable=False),
        Column("increment_ms", BigInteger, nullable=False, default=0),
        Column("clock_running", String(8)),
        Column("clock_since_ms", BigInteger),
        #: when the running side's flag falls; when a never-joined player forfeits (PLAY-7)
        Column("flag_due_ms", BigInteger),
        Column("no_show_due_ms", BigInteger),
        #: black | white | draw | double_forfeit (both absent, or so decided: 0:0)
        Column("result", String(16)),
        Column("reason", String(16)),
        Column("foul", String(16)),
        Column("winner", String(120)),
        Column("outcome", JSON),
        Column("created_ms", BigInteger, nullable=False),
        Column("finished_ms", BigInteger),
        #: EVT-7: the round's scheduled start (no move before it; clock and no-show run from it)
        Column("starts_ms", BigInteger),
        #: PLAY-9: online | offline (played over the board: slips, records, a recorder; no clock)
        Column("mode", String(8), nullable=False, server_default="online"),
        postgresql_with={"fillfactor": 70},
    )
    Index("ix_games_round", games.c.event_code, games.c.section_id, games.c.round)
    # The sweep looks for due flags among the games not finished. No index may contain a column
    # a move changes (flag_due_ms, clocks, seq, version): then PostgreSQL updates the row in
    # place (HOT, room left by the fill factor) without writing any index entry.
    Index(
        "ix_games_live",
        games.c.game_id,
        postgresql_where=games.c.status != "finished",
        sqlite_where=games.c.status != "finished",
    )
    Index("ix_games_no_show_due", games.c.no_show_due_ms)
    return games


def _actions(schema: MetaData) -> Table:
    return Table(
        "game_actions",
        schema,
        Column("game_id", String(200), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("kind", String(16), nullable=False),
        Column("role", String(8)),
        Column("player_id", String(120)),
        Column("data", JSON, nullable=False),
        Column("at_ms", BigInteger, nullable=False),
        Column("think_ms", BigInteger),
        #: remaining ms per player after the action
        Column("clock", JSON),
    )


def _events(schema: MetaData) -> Table:
    events = Table(
        "game_events",
        schema,
        Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
        Column("game_id", String(200), nullable=False),
        Column("seq", Integer, nullable=False),
        Column("round_key", String(200), nullable=False),
        Column("kind", String(24), nullable=False),
        Column("data", JSON, nullable=False),
        Column("at_ms", BigInteger, nullable=False),
        UniqueConstraint("game_id", "seq", name="uq_game_events_seq"),
    )
    Index("ix_game_events_round", events.c.round_key, events.c.id)
    return events


def decision_table(schema: MetaData) -> Table:
    """The arbiter's result of each round pairing (result.decided from pairing): the latest
    ``sequence`` wins; games created after it arrived start closed with it."""
    return Table(
        "arbiter_decisions",
        schema,
        Column("event_code", String(64), primary_key=True),
        Column("stage", String(64), primary_key=True),
        Column("section_id", String(64), primary_key=True),
        Column("round", Integer, primary_key=True),
        Column("pairing_id", String(120), primary_key=True),
        Column("sequence", Integer, nullable=False),
        #: the pairing's outcome from player a's side (contracts DecidedOutcome)
        Column("outcome", String(24), nullable=False),
        Column("reason", String(16), nullable=False),
        Column("note", String(1000), nullable=False, default=""),
        Column("decided_ms", BigInteger, nullable=False),
    )


def over_the_board_tables(schema: MetaData) -> tuple[Table, Table, Table]:
    """PLAY-9 / PLAY-10: result slips (double entry), entered or recorded game records with the
    engine's flags, and the per-game recorder credentials (a hash, never the secret)."""
    slips = Table(
        "result_slips",
        schema,
        Column("game_id", String(200), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("result", String(16), nullable=False),
        Column("reason", String(16), nullable=False),
        #: pending | confirmed | mismatch | disputed (domain.over_the_board.Slip)
        Column("status", String(16), nullable=False),
        Column("confirms", Integer),
        Column("entered_by", String(64), nullable=False),
        Column("note", String(500), nullable=False, default=""),
        Column("entered_ms", BigInteger, nullable=False),
        #: issue 29: who entered it: the person's stable id (``acct:<account>``, or the API key's
        #: id) and display name; null on slips entered before staff accounts
        Column("entered_by_id", String(64)),
        Column("entered_by_name", String(200)),
    )
    records = Table(
        "record_entries",
        schema,
        Column("game_id", String(200), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("event_code", String(64), nullable=False),
        #: entered (after the game) | recorder (a step the live recorder entered)
        Column("source", String(16), nullable=False),
        Column("moves", JSON, nullable=False),
        Column("opening", JSON),
        #: valid | flagged | accepted (a flagged one the arbiter accepted) | superseded | corrected
        Column("status", String(16), nullable=False),
        Column("flags", JSON, nullable=False),
        Column("entered_by", String(64), nullable=False),
        Column("entered_ms", BigInteger, nullable=False),
        Column("decided_note", String(500)),
    )
    Index("ix_record_entries_event", records.c.event_code, records.c.status)
    recorders = Table(
        "recorders",
        schema,
        Column("game_id", String(200), primary_key=True),
        #: SHA-256 of the recorder's secret (hex)
        Column("secret_hash", String(64), nullable=False),
        Column("issued_by", String(64), nullable=False),
        Column("issued_ms", BigInteger, nullable=False),
    )
    return slips, records, recorders


def early_start_table(schema: MetaData) -> Table:
    """EVT-7: the arbiters' exceptions letting an over-the-board game progress before its round's
    scheduled start, one per game: who allowed it, when, why (the audit) and the start it was
    allowed before."""
    return Table(
        "early_starts",
        schema,
        Column("game_id", String(200), primary_key=True),
        Column("reason", String(500), nullable=False),
        Column("allowed_by", String(64), nullable=False),
        Column("allowed_ms", BigInteger, nullable=False),
        Column("starts_ms", BigInteger, nullable=False),
        #: issue 29: the person who allowed it (stable id and display name); null before staff accounts
        Column("allowed_by_id", String(64)),
        Column("allowed_by_name", String(200)),
    )


games, game_actions, game_events, idempotency_keys = game_tables(metadata)
arbiter_decisions = decision_table(metadata)
result_slips, record_entries, recorders = over_the_board_tables(metadata)
early_starts = early_start_table(metadata)
#: issue 29: each event's organisation and chosen partner apps (event.access_changed)
event_access = event_access_table(metadata)
