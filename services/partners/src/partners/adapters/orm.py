"""Tables of the partners service (its own database; no other service reads them)."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

from gomoku_shared.db import UtcDateTime
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)

partners = Table(
    "partners",
    metadata,
    Column("partner_id", String(100), primary_key=True),
    Column("name", String(200), nullable=False),
    #: partner (acts for its players) or spectator (reads, viewer role)
    Column("kind", String(20), nullable=False),
    #: space-separated scopes its tokens may carry
    Column("scopes", String(500), nullable=False),
    Column("rate_quota", Integer, nullable=False),
    Column("rate_window_s", Integer, nullable=False),
    Column("status", String(20), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
)

credentials = Table(
    "credentials",
    metadata,
    Column("client_id", String(100), primary_key=True),
    Column("partner_id", String(100), ForeignKey("partners.partner_id"), nullable=False),
    Column("label", String(200), nullable=False),
    #: scrypt hashes (domain/secret_hash.py); the secret itself is never stored
    Column("secret_hash", String(200), nullable=False),
    Column("previous_hash", String(200), nullable=True),
    Column("previous_valid_until", UtcDateTime(), nullable=True),
    Column("status", String(20), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("rotated_at", UtcDateTime(), nullable=True),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Column("last_used_at", UtcDateTime(), nullable=True),
    Index("ix_credentials_partner", "partner_id"),
)

#: token-signing keys (Ed25519); the private key encrypted under PARTNERS_KEY
signing_keys = Table(
    "signing_keys",
    metadata,
    Column("kid", String(100), primary_key=True),
    Column("private_key_enc", Text, nullable=False),
    Column("public_jwk", Text, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    #: when it stopped signing (a newer key took over); NULL while it signs
    Column("retired_at", UtcDateTime(), nullable=True),
    #: when it leaves the JWKS: the last token it signed has expired by then
    Column("published_until", UtcDateTime(), nullable=True),
)

#: every management action and every use of a credential (token issued or refused)
audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", UtcDateTime(), nullable=False),
    #: who acted: "operator:<key id>" or "client:<client id>"
    Column("actor", String(200), nullable=False),
    Column("action", String(50), nullable=False),
    Column("partner_id", String(100), nullable=True),
    Column("client_id", String(100), nullable=True),
    Column("outcome", String(20), nullable=False),
    #: canonical JSON: what was done (scopes granted, the refusal's reason, ...); never a secret
    Column("details", Text, nullable=False),
    Column("correlation_id", String(128), nullable=True),
    Index("ix_audit_partner", "partner_id", "id"),
)
