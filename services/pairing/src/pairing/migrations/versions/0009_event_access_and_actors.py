"""Issue 29: who owns each event (``event_access``, kept from ``event.access_changed``) for the
staff's per-event authorisation, and audits that name people: the audit's ``actor`` (a person's
name, else the key id) and ``actor_id`` (``acct:<account>`` or the key id), the name of who set
a result (``pairings.result_by_name``) and of who recorded and decided an appeal.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_access",
        sa.Column("event_code", sa.String(length=64), primary_key=True),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=True),
        sa.Column("changed_ms", sa.BigInteger(), nullable=False),
    )
    with op.batch_alter_table("audit") as batch:
        batch.add_column(sa.Column("actor", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("actor_id", sa.String(length=64), nullable=True))
    with op.batch_alter_table("pairings") as batch:
        batch.add_column(sa.Column("result_by_name", sa.String(length=200), nullable=True))
    with op.batch_alter_table("appeals") as batch:
        batch.add_column(sa.Column("lodged_by_name", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("decided_by_name", sa.String(length=200), nullable=True))
    # the records from before: a key acted, and its id is its name
    op.execute("UPDATE audit SET actor = key_id, actor_id = key_id")


def downgrade() -> None:
    with op.batch_alter_table("appeals") as batch:
        batch.drop_column("decided_by_name")
        batch.drop_column("lodged_by_name")
    with op.batch_alter_table("pairings") as batch:
        batch.drop_column("result_by_name")
    with op.batch_alter_table("audit") as batch:
        batch.drop_column("actor_id")
        batch.drop_column("actor")
    op.drop_table("event_access")
