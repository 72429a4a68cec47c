"""Rolling upgrades: the event configuration's keys the previous release does not know (fees, appeals,
honours, check_in.undecided_at_close, units.quota_exempt_list) are stored beside the configuration it
reads, so a replica of the previous release still reads every event (expand).

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
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("config_additions", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("config_additions")
