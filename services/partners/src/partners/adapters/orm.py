"""Tables of the partners service (its own database; no other service reads them)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

from gomoku_shared.db import UtcDateTime
from gomoku_shared.event_access import event_access_table
from gomoku_shared.idempotency import idempotency_table
from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)
#: Idempotency-Keys of the service's POSTs and their stored answers (gomoku_shared.idempotency)
idempotency_keys = idempotency_table(metadata)

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
    #: when it was last suspended (kept after it resumed: tokens issued before are refused)
    Column("suspended_at", UtcDateTime(), nullable=True),
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

#: a partner's webhook subscriptions; the secret is kept because it signs every delivery, sealed
#: under PARTNERS_KEY ("sealed:v1:" + Fernet token; adapters/signing.py)
webhook_subscriptions = Table(
    "webhook_subscriptions",
    metadata,
    Column("subscription_id", String(40), primary_key=True),
    Column("partner_id", String(100), ForeignKey("partners.partner_id"), nullable=False),
    Column("url", String(2000), nullable=False),
    #: space-separated event types
    Column("event_types", String(500), nullable=False),
    Column("description", String(500), nullable=False),
    Column("secret", Text, nullable=False),
    Column("previous_secret", Text, nullable=True),
    Column("previous_valid_until", UtcDateTime(), nullable=True),
    #: active, disabled (kept failing, see notice) or deleted
    Column("status", String(20), nullable=False),
    Column("failure_streak", Integer, nullable=False),
    Column("disabled_at", UtcDateTime(), nullable=True),
    Column("notice", String(500), nullable=True),
    Column("created_at", UtcDateTime(), nullable=False),
    #: the operator who disabled it (NULL: disabled after failed attempts; the partner may enable it)
    Column("disabled_by", String(200), nullable=True),
    Index("ix_webhook_subscriptions_partner", "partner_id", "status"),
)

#: one row per (event, subscription): written with the consumed event's inbox record
webhook_deliveries = Table(
    "webhook_deliveries",
    metadata,
    #: the webhook-id header, stable over retries and redeliveries
    Column("delivery_id", String(40), primary_key=True),
    Column("subscription_id", String(40), ForeignKey("webhook_subscriptions.subscription_id"), nullable=False),
    Column("partner_id", String(100), nullable=False),
    Column("event_type", String(100), nullable=False),
    #: the bus event it comes from
    Column("event_id", String(64), nullable=False),
    #: canonical JSON body, signed as it is sent
    Column("body", Text, nullable=False),
    #: pending (an attempt is due at next_attempt_at), delivered or failed (schedule exhausted)
    Column("status", String(20), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("next_attempt_at", UtcDateTime(), nullable=True),
    Column("last_attempt_at", UtcDateTime(), nullable=True),
    Column("last_status_code", Integer, nullable=True),
    Column("last_response_ms", Integer, nullable=True),
    Column("last_error", String(500), nullable=True),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("delivered_at", UtcDateTime(), nullable=True),
    Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
    Index("ix_webhook_deliveries_partner", "partner_id", "created_at"),
)

#: the partners of each pairing's players (from round.paired: game.finished names none)
pairing_partners = Table(
    "pairing_partners",
    metadata,
    Column("pairing_id", String(200), primary_key=True),
    Column("first_partner", String(100), nullable=True),
    Column("second_partner", String(100), nullable=True),
)

# ------------------------------------------------------------------ organisations and staff (issue 29)

#: who owns each event and which partner apps it admits (from event.access_changed)
event_access = event_access_table(metadata)

organisations = Table(
    "organisations",
    metadata,
    Column("org_id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("name_zh", String(200), nullable=True),
    Column("created_at", UtcDateTime(), nullable=False),
)

#: people who run events; the password is an argon2id hash, the TOTP secret sealed under PARTNERS_KEY
staff_accounts = Table(
    "staff_accounts",
    metadata,
    Column("account_id", String(40), primary_key=True),
    #: a phone number or an e-mail address, normalised (domain/staff.py)
    Column("login", String(254), nullable=False),
    Column("name", String(200), nullable=False),
    Column("password_hash", String(300), nullable=False),
    Column("disabled", Boolean, nullable=False),
    Column("totp_secret", Text, nullable=True),
    Column("totp_enabled", Boolean, nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    #: tokens issued until then are refused (acct:<account_id> in /v1/revocations)
    Column("tokens_revoked_at", UtcDateTime(), nullable=True),
    Index("ux_staff_accounts_login", "login", unique=True),
    Index("ix_staff_accounts_revoked", "tokens_revoked_at"),
)

#: a role held in an organisation (event_code "") or in one of its events
staff_grants = Table(
    "staff_grants",
    metadata,
    Column("account_id", String(40), ForeignKey("staff_accounts.account_id"), primary_key=True),
    Column("org_id", String(64), ForeignKey("organisations.org_id"), primary_key=True),
    Column("event_code", String(64), primary_key=True),
    Column("role", String(40), primary_key=True),
    Index("ix_staff_grants_org", "org_id", "role"),
)

#: invitation and password-reset links: the token is stored as its SHA-256, used once
staff_invitations = Table(
    "staff_invitations",
    metadata,
    Column("invitation_id", String(40), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    #: invite or reset
    Column("kind", String(10), nullable=False),
    Column("org_id", String(64), ForeignKey("organisations.org_id"), nullable=False),
    Column("login", String(254), nullable=False),
    Column("name", String(200), nullable=False),
    #: canonical JSON {"roles": [...], "events": {code: [...]}}
    Column("roles", Text, nullable=False),
    Column("account_id", String(40), nullable=True),
    Column("created_by", String(200), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("used_at", UtcDateTime(), nullable=True),
    Index("ux_staff_invitations_token", "token_hash", unique=True),
)

#: sign-in sessions: the refresh token stored as its SHA-256
staff_sessions = Table(
    "staff_sessions",
    metadata,
    Column("session_id", String(40), primary_key=True),
    Column("account_id", String(40), ForeignKey("staff_accounts.account_id"), nullable=False),
    Column("refresh_hash", String(64), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Column("ended_at", UtcDateTime(), nullable=True),
    Index("ix_staff_sessions_account", "account_id"),
)
