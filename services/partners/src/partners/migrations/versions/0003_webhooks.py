"""Webhooks: subscriptions, deliveries (the retry queue) and the partners of each pairing.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhook_subscriptions",
        sa.Column("subscription_id", sa.String(40), primary_key=True),
        sa.Column("partner_id", sa.String(100), sa.ForeignKey("partners.partner_id"), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("event_types", sa.String(500), nullable=False),
        sa.Column("description", sa.String(500), nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("previous_secret", sa.String(100), nullable=True),
        sa.Column("previous_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("failure_streak", sa.Integer, nullable=False),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("notice", sa.String(500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_webhook_subscriptions_partner", "webhook_subscriptions", ["partner_id", "status"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("delivery_id", sa.String(40), primary_key=True),
        sa.Column(
            "subscription_id",
            sa.String(40),
            sa.ForeignKey("webhook_subscriptions.subscription_id"),
            nullable=False,
        ),
        sa.Column("partner_id", sa.String(100), nullable=False),
        sa.Column("event_type", sa.String(100), nullable=False),
        sa.Column("event_id", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_status_code", sa.Integer, nullable=True),
        sa.Column("last_response_ms", sa.Integer, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_index("ix_webhook_deliveries_partner", "webhook_deliveries", ["partner_id", "created_at"])
    op.create_table(
        "pairing_partners",
        sa.Column("pairing_id", sa.String(200), primary_key=True),
        sa.Column("first_partner", sa.String(100), nullable=True),
        sa.Column("second_partner", sa.String(100), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("pairing_partners")
    op.drop_index("ix_webhook_deliveries_partner", table_name="webhook_deliveries")
    op.drop_index("ix_webhook_deliveries_due", table_name="webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_index("ix_webhook_subscriptions_partner", table_name="webhook_subscriptions")
    op.drop_table("webhook_subscriptions")
