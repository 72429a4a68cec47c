"""Issue 29: who owns each event (``event_access``, kept from ``event.access_changed``) for the
staff's per-event authorisation, and audits that name people: a staff action's ``actor`` is the
person's name (a key: its id) beside ``actor_id`` (``acct:<account>`` or the key id); an
honour keeps the names of who recorded and who revoked it.

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
        sa.Column("event_code", sa.String(length=64), primary_key=True),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=True),
        sa.Column("changed_ms", sa.BigInteger(), nullable=False),
    )
    with op.batch_alter_table("staff_actions") as batch:
        batch.add_column(sa.Column("actor_id", sa.String(length=64), nullable=True))
    with op.batch_alter_table("honours") as batch:
        batch.add_column(sa.Column("awarded_by_name", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("revoked_by_name", sa.String(length=200), nullable=True))
    # the actions from before were a key's, stored as "role:key id": the key id is who acted
    op.execute(
        "UPDATE staff_actions SET actor = substr(actor, instr(actor, ':') + 1) WHERE instr(actor, ':') > 0"
        if op.get_bind().dialect.name == "sqlite"
        else "UPDATE staff_actions SET actor = substr(actor, strpos(actor, ':') + 1) WHERE strpos(actor, ':') > 0"
    )
    op.execute("UPDATE staff_actions SET actor_id = actor")
    op.execute("UPDATE honours SET awarded_by_name = awarded_by, revoked_by_name = revoked_by")


def downgrade() -> None:
    with op.batch_alter_table("honours") as batch:
        batch.drop_column("revoked_by_name")
        batch.drop_column("awarded_by_name")
    with op.batch_alter_table("staff_actions") as batch:
        batch.drop_column("actor_id")
    op.drop_table("event_access")
