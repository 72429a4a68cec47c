"""Partners tables: partners, credentials, signing keys, audit log.

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
        "partners",
        sa.Column("partner_id", sa.String(100), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("scopes", sa.String(500), nullable=False),
        sa.Column("rate_quota", sa.Integer, nullable=False),
        sa.Column("rate_window_s", sa.Integer, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "credentials",
        sa.Column("client_id", sa.String(100), primary_key=True),
        sa.Column("partner_id", sa.String(100), sa.ForeignKey("partners.partner_id"), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("secret_hash", sa.String(200), nullable=False),
        sa.Column("previous_hash", sa.String(200), nullable=True),
        sa.Column("previous_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rotated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_credentials_partner", "credentials", ["partner_id"])
    op.create_table(
        "signing_keys",
        sa.Column("kid", sa.String(100), primary_key=True),
        sa.Column("private_key_enc", sa.Text, nullable=False),
        sa.Column("public_jwk", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(50), nullable=False),
        sa.Column("partner_id", sa.String(100), nullable=True),
        sa.Column("client_id", sa.String(100), nullable=True),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("details", sa.Text, nullable=False),
        sa.Column("correlation_id", sa.String(128), nullable=True),
    )
    op.create_index("ix_audit_partner", "audit_log", ["partner_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_audit_partner", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_table("signing_keys")
    op.drop_index("ix_credentials_partner", table_name="credentials")
    op.drop_table("credentials")
    op.drop_table("partners")
