"""A partner's own user id on the people it registers (``external_id``), one person per external
id in each partner's records of an event.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("external_id", sa.String(length=200), nullable=True))
        batch.create_unique_constraint("uq_people_partner_external_id", ["event_code", "partner_id", "external_id"])


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_constraint("uq_people_partner_external_id", type_="unique")
        batch.drop_column("external_id")
