"""Issue 32: the tables of the federation's record of results (`record_repository`; migration 0020)."""

from __future__ import annotations

import sqlalchemy as sa


def declare_record(md: sa.MetaData, ts: sa.types.TypeEngine) -> tuple[sa.Table, sa.Table]:
    """The two tables on ``md`` (``ts``: the service's time type): which publication each
    section was recorded from, and its places."""
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
