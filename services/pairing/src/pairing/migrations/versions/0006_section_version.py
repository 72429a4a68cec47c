"""A section's change counter (``tournaments.version``): every transaction that locks the section
to change it adds one, so a read can answer 304 Not Modified to a client holding the current
ETag without loading the section (the web pages' cache, docs/adr/0010-portal-page-cache.md).

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
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("version")
