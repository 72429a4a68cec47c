"""Webhook secrets are stored sealed (encrypted under PARTNERS_KEY): their columns widen to TEXT.

The migration only widens: it runs without PARTNERS_KEY (the migrate step has no secrets), so it
cannot seal. Rows stored in plain text before are sealed by the service at start, with its key
(a sealed value starts with "sealed:v1:"; a plain one with "whsec_").

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":  # SQLite does not enforce lengths
        op.execute("ALTER TABLE webhook_subscriptions ALTER COLUMN secret TYPE TEXT")
        op.execute("ALTER TABLE webhook_subscriptions ALTER COLUMN previous_secret TYPE TEXT")


def downgrade() -> None:
    sealed = op.get_bind().exec_driver_sql(
        "SELECT count(*) FROM webhook_subscriptions WHERE secret LIKE 'sealed:v1:%' OR previous_secret LIKE 'sealed:v1:%'"
    )
    if sealed.scalar_one():
        raise RuntimeError(
            "webhook secrets are sealed: revision 0003 stores them in plain text and this migration "
            "has no PARTNERS_KEY to open them; delete or re-create those subscriptions first"
        )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE webhook_subscriptions ALTER COLUMN previous_secret TYPE VARCHAR(100)")
        op.execute("ALTER TABLE webhook_subscriptions ALTER COLUMN secret TYPE VARCHAR(100)")
