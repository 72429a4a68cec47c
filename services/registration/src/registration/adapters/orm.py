"""Tables of the registration service (its own database; no other service reads them).

Personal data (ID numbers, birth dates, document references) is stored only encrypted (`*_enc`, see
`adapters.protection`); `id_number_index` is a keyed hash for finding a person again without
decrypting, `id_number_masked` the only form ever shown. People are kept per registrant (partner
isolation): one person per ID number, and per `external_id` (the registering partner's own user
id for the person, shown to that partner only), in the records of each registrant.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import MetaData

from gomoku_shared.db import UtcDateTime
from gomoku_shared.event_access import event_access_table
from gomoku_shared.idempotency import idempotency_table
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

from .published_ratings import declare_published_ratings
from .registry_tables import declare_record, declare_registry

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)

TS = UtcDateTime()
#: who acted, as audits keep it: "<name> (acct:<account>)" for a person, "<role>:<key id>" for a key
#: (``service_layer.actors.actor_ref``; widened by migration 0013)
ACTOR = sa.String(300)


# --------------------------------------------------------------------------- columns every table names


def _event_key() -> sa.Column:
    """The event a row belongs to, as the first part of the row's primary key."""
    return sa.Column("event_code", sa.String(64), primary_key=True)


def _event_code(*, index: bool) -> sa.Column:
    """The event a row belongs to, where the row has a key of its own (`index`: looked up by event)."""
    if index:
        return sa.Column("event_code", sa.String(64), nullable=False, index=True)
    return sa.Column("event_code", sa.String(64), nullable=False)


def _seq() -> sa.Column:
    """The order rows were recorded in, within their event (or section)."""
    return sa.Column("seq", sa.Integer, nullable=False)


def _partner() -> sa.Column:
    """The partner whose record this is (partner isolation); None: recorded by staff."""
    return sa.Column("partner_id", sa.String(100), nullable=True)


# --------------------------------------------------------------------------- tables


def declare(md: MetaData) -> dict[str, sa.Table]:
    """The registration tables (migration 0002 keeps a frozen copy of them)."""
    return {
        **_declare_event_tables(md),
        **_declare_people_tables(md),
        **_declare_entry_tables(md),
        "idempotency_keys": idempotency_table(md),
        **_declare_stage_tables(md),
    }


def _declare_event_tables(md: MetaData) -> dict[str, sa.Table]:
    """The events, their units and the units' officials."""
    events = sa.Table(
        "events",
        md,
        sa.Column("code", sa.String(64), primary_key=True),
        sa.Column("preset_id", sa.String(100), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("created_by", ACTOR, nullable=False),
        # bumped first by every command on the event: serialises them (row lock / SQLite write lock)
        sa.Column("lock_version", sa.Integer, nullable=False, server_default="0"),
    )
    units = sa.Table(
        "units",
        md,
        _event_key(),
        sa.Column("id", sa.String(100), primary_key=True),
        _seq(),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("kind", sa.String(50), nullable=False),
        sa.Column("region", sa.String(100), nullable=True),
        sa.Column("annual_registration", sa.Boolean, nullable=False),
        sa.Column("is_host", sa.Boolean, nullable=False),
        _partner(),
    )
    officials = sa.Table(
        "officials",
        md,
        _event_key(),
        sa.Column("unit_id", sa.String(100), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("person_id", sa.String(100), nullable=True),
    )
    return {"events": events, "units": units, "officials": officials}


def _declare_people_tables(md: MetaData) -> dict[str, sa.Table]:
    """The people registered (personal data encrypted) and their evidence records."""
    people = sa.Table(
        "people",
        md,
        _event_key(),
        sa.Column("id", sa.String(100), primary_key=True),
        _seq(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("gender", sa.String(10), nullable=False),
        #: only in rows stored before birth dates were encrypted, until the service seals them at
        #: start (then NULL); a later release drops the column
        sa.Column("birth_date", sa.Date, nullable=True),
        sa.Column("birth_date_enc", sa.Text, nullable=True),
        sa.Column("citizenship", sa.String(10), nullable=True),
        sa.Column("registered_unit_id", sa.String(100), nullable=True),
        sa.Column("id_number_enc", sa.Text, nullable=True),
        sa.Column("id_number_index", sa.String(64), nullable=True),
        sa.Column("id_number_masked", sa.String(64), nullable=True),
        _partner(),
        sa.Column("external_id", sa.String(200), nullable=True),
        sa.UniqueConstraint("event_code", "partner_id", "id_number_index", name="uq_people_partner_id_number"),
        sa.UniqueConstraint("event_code", "partner_id", "external_id", name="uq_people_partner_external_id"),
    )
    evidence = sa.Table(
        "evidence",
        md,
        sa.Column("id", sa.String(120), primary_key=True),
        _event_code(index=True),
        _seq(),
        sa.Column("person_id", sa.String(100), nullable=False),
        sa.Column("entry_id", sa.String(200), nullable=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("document_ref_enc", sa.Text, nullable=False),
        # non-identifying facts of the record (region, dates, months, grade, result...)
        sa.Column("details", sa.JSON, nullable=False),
        sa.Column("submitted_at", TS, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reviewed_by", ACTOR, nullable=True),
        sa.Column("review_note", sa.Text, nullable=True),
        sa.Column("reviewed_at", TS, nullable=True),
        # the clause this evidence admitted/refused the player under, after the last review
        sa.Column("clause", sa.String(200), nullable=True),
        _partner(),
        # a submission reads its players' records (REG-5..8): by person, not by scanning the event
        sa.Index("ix_evidence_event_person", "event_code", "person_id"),
    )
    return {"people": people, "evidence": evidence}


def _declare_entry_tables(md: MetaData) -> dict[str, sa.Table]:
    """The entries, their withdrawals and the change requests on them."""
    entries = sa.Table(
        "entries",
        md,
        sa.Column("id", sa.String(200), primary_key=True),
        _event_code(index=True),
        sa.Column("stage", sa.String(64), nullable=False),
        sa.Column("section_id", sa.String(100), nullable=False),
        _seq(),
        sa.Column("application_id", sa.String(200), nullable=True),
        sa.Column("person_ids", sa.JSON, nullable=False),
        sa.Column("unit_id", sa.String(100), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("received_at", TS, nullable=True),
        sa.Column("decisions", sa.JSON, nullable=False),
        sa.Column("insurance_confirmed", sa.Boolean, nullable=False),
        sa.Column("insurance_ref_enc", sa.Text, nullable=True),
        sa.Column("quota_exempt", sa.JSON, nullable=False),
        sa.Column("waitlist_position", sa.Integer, nullable=True),
        sa.Column("checked_in_at", TS, nullable=True),
        sa.Column("no_show", sa.Boolean, nullable=False),
        sa.Column("team_name", sa.String(200), nullable=True),
        sa.Column("intends_to_represent", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),  # registration | qualification
        sa.Column("attributes", sa.JSON, nullable=False),
        _partner(),
        sa.UniqueConstraint("event_code", "section_id", "seq", name="uq_entries_seq"),
    )
    withdrawals = sa.Table(
        "withdrawals",
        md,
        sa.Column("entry_id", sa.String(200), primary_key=True),
        _event_code(index=False),
        sa.Column("at", TS, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("proof_ref_enc", sa.Text, nullable=True),
        sa.Column("refund_requested", sa.Boolean, nullable=False),
        sa.Column("requested_by", ACTOR, nullable=False),
    )
    change_requests = sa.Table(
        "change_requests",
        md,
        sa.Column("id", sa.String(200), primary_key=True),
        _event_code(index=True),
        sa.Column("entry_id", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("details", sa.Text, nullable=False),
        sa.Column("requested_at", TS, nullable=False),
        sa.Column("state", sa.String(30), nullable=False),
        sa.Column("decision", sa.JSON, nullable=True),
        sa.Column("decided_by", ACTOR, nullable=True),
        sa.Column("decided_at", TS, nullable=True),
        _partner(),
    )
    return {"entries": entries, "withdrawals": withdrawals, "change_requests": change_requests}


def _declare_stage_tables(md: MetaData) -> dict[str, sa.Table]:
    """The state of each stage and the qualifier lists that feed a qualification stage."""
    stages = sa.Table(
        "stages",
        md,
        _event_key(),
        sa.Column("stage_id", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(30), nullable=False),
        sa.Column("closed_at", TS, nullable=True),
        sa.Column("format_choices", sa.JSON, nullable=True),
        sa.Column("sections", sa.JSON, nullable=True),
        # seeded lists (e.g. SZ: 2022 Shenzhen Cup top 4) posted by the operator, by section
        sa.Column("seeded", sa.JSON, nullable=True),
        sa.Column("note", sa.Text, nullable=True),
    )
    qualifier_lists = sa.Table(
        "qualifier_lists",
        md,
        _event_key(),
        sa.Column("to_stage", sa.String(64), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("target_section_id", sa.String(100), primary_key=True),
        sa.Column("gender", sa.String(10), nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("qualifiers", sa.JSON, nullable=False),
        sa.Column("substitutes", sa.JSON, nullable=False),
        sa.Column("received_at", TS, nullable=False),
    )
    return {"stages": stages, "qualifier_lists": qualifier_lists}


def declare_ledger(md: MetaData) -> dict[str, sa.Table]:
    """REG-14/15: the append-only fee ledger and the refund requests (migration 0005)."""
    ledger_lines = sa.Table(
        "ledger_lines",
        md,
        sa.Column("id", sa.String(200), primary_key=True),
        _event_code(index=True),
        _seq(),
        sa.Column("kind", sa.String(20), nullable=False),  # payment | refund | correction
        sa.Column("item", sa.String(100), nullable=False),
        sa.Column("amount_fen", sa.BigInteger, nullable=False),
        sa.Column("currency", sa.String(10), nullable=False),
        sa.Column("entry_id", sa.String(200), nullable=True),
        sa.Column("unit_id", sa.String(100), nullable=True),
        sa.Column("received_at", TS, nullable=False),
        sa.Column("recorded_at", TS, nullable=False),
        sa.Column("recorded_by", ACTOR, nullable=False),
        sa.Column("reference_enc", sa.Text, nullable=True),
        sa.Column("corrects", sa.String(200), nullable=True),
        # what caused the line when not the operator's hand: "appeal.lodged:<id>", "refund:<id>"
        sa.Column("source", sa.String(200), nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        _partner(),
        sa.UniqueConstraint("event_code", "seq", name="uq_ledger_seq"),
        sa.UniqueConstraint("event_code", "source", name="uq_ledger_source"),
    )
    refund_requests = sa.Table(
        "refund_requests",
        md,
        sa.Column("id", sa.String(200), primary_key=True),
        _event_code(index=True),
        sa.Column("entry_id", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("proof_ref_enc", sa.Text, nullable=True),
        sa.Column("force_majeure_claimed", sa.Boolean, nullable=False),
        sa.Column("requested_at", TS, nullable=False),
        sa.Column("requested_by", ACTOR, nullable=False),
        _partner(),
        sa.Column("state", sa.String(20), nullable=False),  # requested | granted | refused
        sa.Column("granted_fen", sa.BigInteger, nullable=True),
        sa.Column("force_majeure_accepted", sa.Boolean, nullable=True),
        sa.Column("decided_by", ACTOR, nullable=True),
        sa.Column("decided_at", TS, nullable=True),
        sa.Column("decision_note", sa.Text, nullable=True),
        sa.Column("ledger_line_id", sa.String(200), nullable=True),
    )
    return {"ledger_lines": ledger_lines, "refund_requests": refund_requests}


def declare_change_application(table: sa.Table) -> None:
    """REG-10: a substitution names the player replaced and the new one, and when applied (0005)."""
    table.append_column(sa.Column("replaces_person_id", sa.String(100), nullable=True))
    table.append_column(sa.Column("new_person_id", sa.String(100), nullable=True))
    table.append_column(sa.Column("applied_at", TS, nullable=True))


def declare_owner(table: sa.Table) -> None:
    """Issue 29: the organisation that owns the event (its staff act on it; migration 0013)."""
    table.append_column(sa.Column("organisation", sa.String(64), nullable=False, server_default="default"))


def declare_config_additions(table: sa.Table) -> None:
    """The event configuration's keys the previous release does not know, kept beside the
    configuration it can read (rolling upgrades; migration 0006, `stored_config.stored_config`)."""
    table.append_column(sa.Column("config_additions", sa.JSON, nullable=True))


tables = declare(metadata)
tables.update(declare_ledger(metadata))
declare_change_application(tables["change_requests"])
declare_config_additions(tables["events"])
declare_owner(tables["events"])
events = tables["events"]
units = tables["units"]
officials = tables["officials"]
people = tables["people"]
evidence = tables["evidence"]
entries = tables["entries"]
withdrawals = tables["withdrawals"]
change_requests = tables["change_requests"]
idempotency_keys = tables["idempotency_keys"]
stages = tables["stages"]
qualifier_lists = tables["qualifier_lists"]
ledger_lines = tables["ledger_lines"]
refund_requests = tables["refund_requests"]

#: EVT-7: the latest start an arbiter delayed each round to (from pairing's round.rescheduled),
#: so that the published schedule and its calendars show it
round_delays = sa.Table(
    "round_delays",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("section_id", sa.String(100), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("starts_at", TS, nullable=False),
    sa.Column("previous_starts_at", TS, nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("decided_at", TS, nullable=False),
)

#: REG-14 (NY, NT 十一: 另行通知): the organiser's announcements of a fee item's amount, each
#: applying from an instant; append-only, the audit of who announced what and when
fee_announcements = sa.Table(
    "fee_announcements",
    metadata,
    sa.Column("id", sa.String(200), primary_key=True),
    _event_code(index=True),
    _seq(),
    sa.Column("item", sa.String(100), nullable=False),
    sa.Column("amount_fen", sa.BigInteger, nullable=False),
    sa.Column("applies_from", TS, nullable=False),
    sa.Column("announced_at", TS, nullable=False),
    sa.Column("announced_by", ACTOR, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.UniqueConstraint("event_code", "seq", name="uq_fee_announcement_seq"),
)

#: REG-14: the fee clerk's "paid in full" of an entry's item whose amount is not announced (or
#: its withdrawal, paid_in_full false); append-only, the latest one counts
fee_confirmations = sa.Table(
    "fee_confirmations",
    metadata,
    sa.Column("id", sa.String(200), primary_key=True),
    _event_code(index=True),
    _seq(),
    sa.Column("entry_id", sa.String(200), nullable=False),
    sa.Column("item", sa.String(100), nullable=False),
    sa.Column("paid_in_full", sa.Boolean, nullable=False),
    sa.Column("as_of", TS, nullable=False),
    sa.Column("recorded_at", TS, nullable=False),
    sa.Column("recorded_by", ACTOR, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    _partner(),
    sa.UniqueConstraint("event_code", "seq", name="uq_fee_confirmation_seq"),
)

#: REG-16 (NY 七(三)): each load of the list a quota exemption refers to (the previous edition's
#: final places by section), kept as the audit of who loaded which list when; the latest is in force
exemption_lists = sa.Table(
    "exemption_lists",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("revision", sa.Integer, primary_key=True),
    #: the edition the list is of, as the exemption names it (e.g. "2021")
    sa.Column("edition", sa.String(50), nullable=False),
    sa.Column("source", sa.String(200), nullable=False),
    sa.Column("loaded_at", TS, nullable=False),
    sa.Column("loaded_by", ACTOR, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    #: lines placed beyond the event's top N: not stored (they exempt nobody)
    sa.Column("beyond_top", sa.Integer, nullable=False),
)

#: the lines of the list in force (a new load replaces them): personal data encrypted like the
#: people's (the ID number with its keyed index, the birth date)
exemption_players = sa.Table(
    "exemption_players",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("section", sa.String(100), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("birth_date_enc", sa.Text, nullable=True),
    sa.Column("id_number_enc", sa.Text, nullable=True),
    sa.Column("id_number_index", sa.String(64), nullable=True),
    sa.Column("id_number_masked", sa.String(64), nullable=True),
)

#: issue 29: each event's owner and the partner apps its organiser chose (the shared table every
#: service keeps; here written by the service itself, beside the event.access_changed it sends)
event_access = event_access_table(metadata)

#: issue 29: each choice of an event's partner apps, the audit of who chose what and when
partner_choices = sa.Table(
    "partner_choices",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    #: the partner ids chosen, or null: every partner
    sa.Column("partners", sa.JSON, nullable=True),
    sa.Column("chosen_at", TS, nullable=False),
    sa.Column("chosen_by", ACTOR, nullable=False),
)

#: issue 34: a registrant's documents (adapters.document_store): the checked bytes encrypted with
#: AES-256-GCM under DATA_KEY, bound to the row's id; who uploaded them by principal kind and id
#: (never a name); deleted `delete_after` (the retention after the event's last day)
documents = sa.Table(
    "documents",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    _event_code(index=True),
    sa.Column("entry_id", sa.String(200), nullable=False, index=True),
    sa.Column("evidence_id", sa.String(200), nullable=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("media_type", sa.String(40), nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("ciphertext", sa.LargeBinary, nullable=False),
    sa.Column("uploaded_by_kind", sa.String(20), nullable=False),
    sa.Column("uploaded_by_id", sa.String(200), nullable=False),
    sa.Column("uploaded_at", TS, nullable=False),
    sa.Column("review_state", sa.String(20), nullable=False),
    sa.Column("delete_after", sa.Date, nullable=False, index=True),
    #: a delegation's document (0019): the unit that sent it (entry_id ""), the person it is about
    sa.Column("unit_id", sa.String(100), nullable=True, index=True),
    sa.Column("person_id", sa.String(200), nullable=True),
)

#: issue 34: the secret link of an entry made on the public form: only the token's SHA-256 is
#: kept (the token itself is shown once); re-issuing replaces it (the old link stops working).
#: The guardian's phone number is personal data: encrypted, and masked where it is shown
registrant_links = sa.Table(
    "registrant_links",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("entry_id", sa.String(200), primary_key=True),
    sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
    sa.Column("guardian_phone_enc", sa.Text, nullable=False),
    sa.Column("guardian_phone_masked", sa.String(32), nullable=False),
    sa.Column("issued_at", TS, nullable=False),
    sa.Column("issued_by", ACTOR, nullable=False),
    sa.Column("reissues", sa.Integer, nullable=False),
)

#: issue 32: the registry of people per organisation, their links to event people, its audit
registry_people, registry_links, registry_audit = declare_registry(metadata, TS, ACTOR)
#: issue 32: the latest rating list awards published per organisation, to seed entries (0018)
rating_publications, published_ratings = declare_published_ratings(metadata, TS)
record_sections, record_places = declare_record(metadata, TS)  # issue 32: the record of final places (0020)
#: issue 34: a delegation's secret link and its roster as last submitted (0017)
delegation_links = sa.Table(
    "delegation_links",
    metadata,
    sa.Column("event_code", sa.String(64), primary_key=True),
    sa.Column("unit_id", sa.String(100), primary_key=True),
    sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
    sa.Column("leader_phone_enc", sa.Text, nullable=False),
    sa.Column("leader_phone_masked", sa.String(32), nullable=False),
    sa.Column("issued_at", TS, nullable=False),
    sa.Column("issued_by", ACTOR, nullable=False),
    sa.Column("roster", sa.JSON, nullable=True),
    sa.Column("submitted_at", TS, nullable=True),
    sa.Column("amendments", sa.Integer, nullable=False),
)
