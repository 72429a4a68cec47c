"""Organisations and staff accounts (issue 29): organisations (with the default one, which
owns events created without an owner), staff accounts with argon2id password hashes and an
optional TOTP secret (sealed), their roles per organisation and per event, invitation and
password-reset links (SHA-256 of the token, one use), sign-in sessions, and ``event_access``
(who owns each event, from event.access_changed; a frozen copy of gomoku_shared's table).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_access",
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=True),
        sa.Column("changed_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("event_code"),
    )
    organisations = op.create_table(
        "organisations",
        sa.Column("org_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_zh", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("org_id"),
    )
    # the organisation of events created without an owner (and of every event from before)
    op.execute(
        sa.insert(organisations).values(
            org_id="default", name="Default organisation", name_zh="平台默认组织", created_at=sa.func.now()
        )
    )
    op.create_table(
        "staff_accounts",
        sa.Column("account_id", sa.String(length=40), nullable=False),
        sa.Column("login", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=300), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("totp_secret", sa.Text(), nullable=True),
        sa.Column("totp_enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tokens_revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("account_id"),
    )
    op.create_index("ux_staff_accounts_login", "staff_accounts", ["login"], unique=True)
    op.create_index("ix_staff_accounts_revoked", "staff_accounts", ["tokens_revoked_at"], unique=False)
    op.create_table(
        "staff_grants",
        sa.Column("account_id", sa.String(length=40), nullable=False),
        sa.Column("org_id", sa.String(length=64), nullable=False),
        sa.Column("event_code", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["staff_accounts.account_id"]),
        sa.ForeignKeyConstraint(["org_id"], ["organisations.org_id"]),
        sa.PrimaryKeyConstraint("account_id", "org_id", "event_code", "role"),
    )
    op.create_index("ix_staff_grants_org", "staff_grants", ["org_id", "role"], unique=False)
    op.create_table(
        "staff_invitations",
        sa.Column("invitation_id", sa.String(length=40), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("org_id", sa.String(length=64), nullable=False),
        sa.Column("login", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("roles", sa.Text(), nullable=False),
        sa.Column("account_id", sa.String(length=40), nullable=True),
        sa.Column("created_by", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["org_id"], ["organisations.org_id"]),
        sa.PrimaryKeyConstraint("invitation_id"),
    )
    op.create_index("ux_staff_invitations_token", "staff_invitations", ["token_hash"], unique=True)
    op.create_table(
        "staff_sessions",
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("account_id", sa.String(length=40), nullable=False),
        sa.Column("refresh_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["staff_accounts.account_id"]),
        sa.PrimaryKeyConstraint("session_id"),
    )
    op.create_index("ix_staff_sessions_account", "staff_sessions", ["account_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_staff_sessions_account", table_name="staff_sessions")
    op.drop_table("staff_sessions")
    op.drop_index("ux_staff_invitations_token", table_name="staff_invitations")
    op.drop_table("staff_invitations")
    op.drop_index("ix_staff_grants_org", table_name="staff_grants")
    op.drop_table("staff_grants")
    op.drop_index("ix_staff_accounts_revoked", table_name="staff_accounts")
    op.drop_index("ux_staff_accounts_login", table_name="staff_accounts")
    op.drop_table("staff_accounts")
    op.drop_table("organisations")
    op.drop_table("event_access")
