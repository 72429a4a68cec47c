"""Tables of the pairing service (its own database; no other service reads them).

A section's tournament is stored as its inputs (rules, entrants with start numbers) and its
history (rounds → pairings → results, byes): :mod:`pairing.adapters.repository` rebuilds the
immutable domain ``Tournament`` from them by replaying the completed rounds, so a reload is
exact and a corrected past result simply changes the replay (later pairings stay as stored).
Times are timezone-aware datetimes from the service clock.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from gomoku_shared.db import UtcDateTime
from gomoku_shared.event_access import event_access_table
from gomoku_shared.idempotency import idempotency_table
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)
#: issue 29: who owns each event (event.access_changed), for the staff's per-event authorisation
event_access = event_access_table(metadata)

EVENT_CODE = 64  # event code length
SECTION_ID = 64  # section id length
ENTRANT_ID = 160  # entrant / player id length


def _key(columns: list) -> list:
    """The section key every section-scoped table starts with, then ``columns``."""
    return [
        Column("event_code", String(EVENT_CODE), primary_key=True),
        Column("section_id", String(SECTION_ID), primary_key=True),
        *columns,
    ]


# The migrations keep frozen copies of these declarations: a change here needs a new revision.
tournaments = Table(
    "tournaments",
    metadata,
    *_key(
        [
            Column("stage", String(64), nullable=False),
            Column("name", String(200), nullable=False),
            #: running | awaiting_playoff | awaiting_arbiter | completed | cancelled
            Column("status", String(24), nullable=False),
            Column("kind", String(16), nullable=False),
            Column("format", String(16), nullable=False),
            Column("rounds_planned", Integer, nullable=False),
            #: the latest round paired (0 before round 1)
            Column("current_round", Integer, nullable=False, default=0),
            #: section.completed revisions published so far (AWD-8 corrections add one)
            Column("revision", Integer, nullable=False, default=0),
            #: events emitted for this section: their ids are uuid5(section, seq) — deterministic
            Column("event_seq", Integer, nullable=False, default=0),
            #: changes so far: every transaction that locks the section adds one (the reads' ETag)
            Column("version", Integer, nullable=False, default=0, server_default="0"),
            #: SectionRules as JSON; the whole section.closed payload for everything else
            Column("rules", JSON, nullable=False),
            Column("closed", JSON, nullable=False),
            #: pairings wait for an arbiter's publish (PAIR-11 review before the round starts)
            Column("hold", Boolean, nullable=False, default=False),
            #: why the section waits (e.g. no legal pairing: the arbiter pairs the round by hand)
            Column("note", Text),
            Column("created_at", UtcDateTime(), nullable=False),
            Column("completed_at", UtcDateTime()),
            #: the last section.completed payload (JSON), for reads and republication
            Column("final", JSON),
        ]
    ),
)
entrants = Table(
    "entrants",
    metadata,
    *_key(
        [
            #: start number (seeding order: rating, then the order registration listed them)
            Column("start_no", Integer, primary_key=True),
            Column("entrant_id", String(ENTRANT_ID), nullable=False),
            Column("data", JSON, nullable=False),  # the contract Entrant
            Column("entry_round", Integer, nullable=False, default=1),
            Column("withdrawn_after", Integer),
        ]
    ),
    UniqueConstraint("event_code", "section_id", "entrant_id", name="uq_entrants_entrant"),
)
rounds = Table(
    "rounds",
    metadata,
    *_key(
        [
            Column("round", Integer, primary_key=True),
            #: draft (not yet published, may be corrected) | published | complete
            Column("status", String(16), nullable=False),
            Column("paired_at", UtcDateTime(), nullable=False),
            Column("published_at", UtcDateTime()),
            Column("starts_at", UtcDateTime()),
            Column("completed_at", UtcDateTime()),
            #: engine | arbiter (a corrected pairing)
            Column("paired_by", String(16), nullable=False, default="engine"),
        ]
    ),
)
pairings = Table(
    "pairings",
    metadata,
    *_key(
        [
            Column("round", Integer, primary_key=True),
            #: deterministic: r{round}.b{board}; team boards r{round}.m{match}.b{board}
            Column("pairing_id", String(64), primary_key=True),
            #: order of the round (individual: board number; teams: match number)
            Column("match_no", Integer, nullable=False),
            #: team board (PAIR-9); None for individual sections
            Column("board", Integer),
            #: start numbers of the paired competitors (teams: first-listed team, other team)
            Column("first_no", Integer, nullable=False),
            Column("second_no", Integer, nullable=False),
            #: who moves first in game 1 and who second (players; team boards: members)
            Column("first_id", String(ENTRANT_ID), nullable=False),
            Column("second_id", String(ENTRANT_ID), nullable=False),
            Column("first_team", String(ENTRANT_ID)),
            Column("second_team", String(ENTRANT_ID)),
            Column("games", Integer, nullable=False, default=1),
            #: the pairing's outcome from first_id's side (domain Outcome value), None until in
            Column("outcome", String(8)),
            Column("first_points", Float),
            Column("second_points", Float),
            #: game | arbiter
            Column("result_source", String(16)),
            Column("result_at", UtcDateTime()),
            #: who set the result as it stands: the arbiter's key id or account (acct:<id>), or "game"
            Column("result_by", String(64)),
            #: their name as they signed in (a key: its id); issue 29
            Column("result_by_name", String(200)),
            #: the result's revision: 0 before any result, one more for every change (an arbiter's
            #: write names the revision it saw; a stale one is refused, docs/api.md)
            Column("revision", Integer, nullable=False, default=0, server_default="0"),
        ]
    ),
)
games = Table(
    "games",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("event_code", String(EVENT_CODE), nullable=False),
    Column("section_id", String(SECTION_ID), nullable=False),
    Column("round", Integer, nullable=False),
    Column("pairing_id", String(64), nullable=False),
    Column("game_no", Integer, nullable=False),
    #: '' for round games, the playoff id for playoff games (part of the uniqueness guard)
    Column("playoff_id", String(160), nullable=False, default=""),
    Column("game_id", String(240), nullable=False),
    Column("winner", String(ENTRANT_ID)),
    #: black | white | draw | double_forfeit
    Column("result", String(16), nullable=False),
    Column("reason", String(24), nullable=False),
    Column("outcome", JSON),
    Column("double_forfeit", Boolean, nullable=False, default=False),
    Column("recorded_at", UtcDateTime(), nullable=False),
    UniqueConstraint("event_code", "section_id", "playoff_id", "pairing_id", "game_no", name="uq_games_game"),
)
byes = Table(
    "byes",
    metadata,
    *_key(
        [
            Column("round", Integer, primary_key=True),
            Column("start_no", Integer, primary_key=True),
            #: pairing | requested | forced | absent
            Column("kind", String(16), nullable=False),
            #: domain Code (TRF letter)
            Column("code", String(2), nullable=False),
        ]
    ),
)
bye_requests = Table(
    "bye_requests",
    metadata,
    *_key(
        [
            Column("round", Integer, primary_key=True),
            Column("start_no", Integer, primary_key=True),
            #: requested (player asked; scored per the bye rules) | forced (arbiter)
            Column("kind", String(16), nullable=False),
            Column("created_at", UtcDateTime(), nullable=False),
            Column("by", String(64), nullable=False),
        ]
    ),
)
withdrawals = Table(
    "withdrawals",
    metadata,
    *_key(
        [
            Column("start_no", Integer, primary_key=True),
            Column("after_round", Integer, nullable=False),
            Column("reason", Text, nullable=False, default=""),
            Column("created_at", UtcDateTime(), nullable=False),
            Column("by", String(64), nullable=False),
        ]
    ),
)
ties = Table(
    "ties",
    metadata,
    *_key(
        [
            #: deterministic: t{place_from}-{place_to}, with the gender first in merged sections
            Column("tie_id", String(64), primary_key=True),
            Column("gender", String(16)),
            Column("place_from", Integer, nullable=False),
            Column("place_to", Integer, nullable=False),
            #: entrant ids in listed order
            Column("entrant_ids", JSON, nullable=False),
            #: playoff | arbiter
            Column("action", String(16), nullable=False),
            #: open | playing | decided
            Column("status", String(16), nullable=False),
            #: playoff stages: [{"playoff_id", "ids", "matches": [{"pairing_id", "first", "second", "winner"}]}]
            Column("playoff", JSON, nullable=False),
            #: the final order: list of entrant ids (a nested list keeps those ids sharing)
            Column("decision", JSON),
            Column("decided_by", String(16)),
            Column("decided_at", UtcDateTime()),
            Column("revision", Integer, nullable=False, default=1),
        ]
    ),
)
audit = Table(
    "audit",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("event_code", String(EVENT_CODE), nullable=False),
    Column("section_id", String(SECTION_ID), nullable=False),
    Column("at", UtcDateTime(), nullable=False),
    Column("role", String(16), nullable=False),
    Column("key_id", String(32), nullable=False),
    #: issue 29: who acted: a person's name (a key: its id) and stable id (acct:<account> or the key id)
    Column("actor", String(200)),
    Column("actor_id", String(64)),
    Column("action", String(32), nullable=False),
    Column("round", Integer),
    Column("details", JSON, nullable=False),
)
#: AWD-10: appeals to the arbitration committee, lodged → upheld | rejected (domain/appeals.py)
appeals = Table(
    "appeals",
    metadata,
    *_key(
        [
            #: {section_id}-{n}: unique in the event (section ids are), in the order lodged
            Column("appeal_id", String(96), primary_key=True),
            #: the round and pairing appealed against (None: a dispute not about one result)
            Column("round", Integer),
            Column("pairing_id", String(64)),
            #: the unit (registration's unit id) whose leader or coach signed it
            Column("unit_id", String(ENTRANT_ID)),
            Column("unit_name", String(200)),
            #: leader | coach, and the signatory's name as written on the appeal
            Column("signatory_role", String(16), nullable=False),
            Column("signatory_name", String(200), nullable=False),
            Column("grounds", Text, nullable=False),
            Column("fee_fen", BigInteger, nullable=False),
            Column("currency", String(8), nullable=False),
            Column("payment_reference", String(120), nullable=False, default=""),
            #: lodged | upheld | rejected
            Column("status", String(16), nullable=False),
            Column("lodged_at", UtcDateTime(), nullable=False),
            #: who recorded and who decided: the key id or account (acct:<id>), and the name (issue 29)
            Column("lodged_by", String(64), nullable=False),
            Column("lodged_by_name", String(200)),
            Column("decided_at", UtcDateTime()),
            Column("decided_by", String(64)),
            Column("decided_by_name", String(200)),
            Column("reasons", Text),
            Column("refund_fen", BigInteger),
            #: the appealed pairing's outcome before and after the decision (domain Outcome values)
            Column("result_before", String(8)),
            Column("result_after", String(8)),
        ]
    ),
)
idempotency_keys = idempotency_table(metadata)
Index("ix_audit_section", audit.c.event_code, audit.c.section_id, audit.c.id)
