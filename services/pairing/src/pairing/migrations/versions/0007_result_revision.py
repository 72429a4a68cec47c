"""A pairing's result revision (``pairings.revision``) and who set the result (``result_by``):
an arbiter's write names the revision it saw, so two arbiters cannot overwrite each other's
result unseen (a stale write is refused with the current result).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pairings") as batch:
        batch.add_column(sa.Column("result_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
    # a result entered before revisions existed is its pairing's first revision
    op.execute("UPDATE pairings SET revision = 1 WHERE outcome IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("pairings") as batch:
        batch.drop_column("revision")
        batch.drop_column("result_by")
