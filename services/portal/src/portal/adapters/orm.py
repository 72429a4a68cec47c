"""The portal's one table: staff sign-in sessions, shared by every portal replica (ADR 0009)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Index, MetaData, String, Table, Text

metadata = MetaData()

staff_sessions = Table(
    "staff_sessions",
    metadata,
    Column("session_id", String(64), primary_key=True),
    #: the person's API key, encrypted with the portal's session secret (never stored in clear)
    Column("sealed_key", Text, nullable=False),
    #: a person's access and refresh tokens and roles (issue 29), sealed the same way; NULL for a key
    Column("sealed_person", Text, nullable=True),
    Column("role", String(20), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_staff_sessions_expires_at", "expires_at"),
)
