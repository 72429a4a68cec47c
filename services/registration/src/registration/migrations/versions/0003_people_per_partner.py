"""A person is found again by ID number within the records of whoever registered them: two
partners registering the same ID number get a person each (partner isolation, so that one
partner's request never reveals another's people). Masked ID numbers show the tail only
(the head is the place of registration): stored masks are masked further.

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
    with op.batch_alter_table("people") as batch:
        batch.drop_constraint("uq_people_id_number", type_="unique")
        batch.create_unique_constraint("uq_people_partner_id_number", ["event_code", "partner_id", "id_number_index"])
    people = sa.table("people", sa.column("event_code"), sa.column("id"), sa.column("id_number_masked"))
    bind = op.get_bind()
    for row in bind.execute(sa.select(people).where(people.c.id_number_masked.is_not(None))).all():
        old = row.id_number_masked
        new = "*" * max(len(old) - 4, 0) + old[-4:] if len(old) >= 12 else "*" * len(old)
        if new != old:
            bind.execute(
                sa.update(people)
                .where(people.c.event_code == row.event_code, people.c.id == row.id)
                .values(id_number_masked=new)
            )


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_constraint("uq_people_partner_id_number", type_="unique")
        batch.create_unique_constraint("uq_people_id_number", ["event_code", "id_number_index"])
