"""Issue 32: the registry of people of each organisation (migration 0016).

A registry person is one human across the organisation's events and across the partner apps
that registered them: found again by the keyed hash of the ID number (``id_number_index``,
`adapters.protection`), unique within the organisation. Personal data is kept as the people of
an event keep it: the ID number and the birth date encrypted (``*_enc``: a DATA_KEY rotation
re-encrypts them with every other table), the masked ID number beside them, the name and gender
in clear. ``merged_into`` names the registry person this one was merged into (always one that is
not merged itself: a merge moves what was merged into the person it merges along with it).

Each event person (``people``) is linked to the registry person it was found or created as
(``registry_links``, never rewritten by a merge: the person it stands for is that registry
person, or the one it was merged into). ``registry_audit`` keeps every staff action on the
registry: merges, their undoing, splits, corrections and exports, by whom, when and why.
"""

from __future__ import annotations

import sqlalchemy as sa

#: a registry person's id ("rp" and 16 hex digits)
REGISTRY_ID = sa.String(40)


def declare_registry(md: sa.MetaData, ts: sa.types.TypeEngine, actor: sa.String) -> tuple[sa.Table, ...]:
    """The registry's three tables on ``md`` (``ts``, ``actor``: the service's time and audit types)."""
    people = sa.Table(
        "registry_people",
        md,
        sa.Column("id", REGISTRY_ID, primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("gender", sa.String(10), nullable=False),
        sa.Column("birth_date_enc", sa.Text, nullable=True),
        sa.Column("id_number_enc", sa.Text, nullable=True),
        sa.Column("id_number_index", sa.String(64), nullable=True),
        sa.Column("id_number_masked", sa.String(64), nullable=True),
        sa.Column("merged_into", REGISTRY_ID, nullable=True, index=True),
        sa.Column("created_at", ts, nullable=False),
        # one registry person per ID number in an organisation (NULLs, people without one, repeat)
        sa.UniqueConstraint("organisation", "id_number_index", name="uq_registry_people_id_number"),
        sa.Index("ix_registry_people_organisation_name", "organisation", "name"),
    )
    links = sa.Table(
        "registry_links",
        md,
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(100), primary_key=True),
        sa.Column("registry_id", REGISTRY_ID, nullable=False, index=True),
        sa.Column("linked_at", ts, nullable=False),
    )
    audit = sa.Table(
        "registry_audit",
        md,
        #: the order of the actions (several may share a time)
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        #: merge | unmerge | split | correct | export
        sa.Column("action", sa.String(20), nullable=False),
        #: the person acted on (a merge: the one kept)
        sa.Column("person_id", REGISTRY_ID, nullable=False, index=True),
        #: the other person (a merge: the one merged; a split: the one created)
        sa.Column("other_id", REGISTRY_ID, nullable=True, index=True),
        #: what the action moved or changed (ids and field names, never personal data)
        sa.Column("details", sa.JSON, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", ts, nullable=False),
        sa.Column("by", actor, nullable=False),
    )
    return people, links, audit


def declare_record(md: sa.MetaData, ts: sa.types.TypeEngine) -> tuple[sa.Table, sa.Table]:
    """Issue 32: the record of results (`record_repository`; migration 0020) on ``md`` (``ts``:
    the service's time type): which publication each section was recorded from, and its places
    (per event person: ``links`` name the registry person they stand as)."""
    sections = sa.Table(
        "record_sections",
        md,
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False),
        #: the awards.published revision recorded (the highest seen wins)
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("cancelled", sa.Boolean, nullable=False),
        sa.Column("recorded_at", ts, nullable=False),
    )
    places = sa.Table(
        "record_places",
        md,
        sa.Column("event_code", sa.String(64), primary_key=True),
        sa.Column("section_id", sa.String(100), primary_key=True),
        #: the event person placed (registry_links names the registry person)
        sa.Column("person_id", sa.String(100), primary_key=True),
        sa.Column("organisation", sa.String(64), nullable=False, index=True),
        sa.Column("section_name", sa.String(200), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("edition_on", sa.Date, nullable=False),
        sa.Column("title", sa.String(20), nullable=True),
    )
    return sections, places
