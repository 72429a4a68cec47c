"""Birth dates are stored encrypted under DATA_KEY, like ID numbers: a column for the ciphertext,
and the clear column becomes nullable (a later release drops it).

The migration runs without DATA_KEY (the migrate step has no secrets), so it cannot encrypt. The
registration service encrypts the birth dates still in clear when it starts, with its key, and
empties the clear column (`RegistrationState.seal_birth_dates`); until then such rows are read
as they are. Events in the outbox written before carry full birth dates: their bodies keep the
year only (``birth_year``, the contract's shape now). Masked ID numbers get the mask of one
width (14 asterisks and the last four characters, or 18 asterisks): the old one kept the length.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _full_dates(text, replacement):
    """``text`` with every ``"birth_date":"YYYY-MM-DD"`` replaced by ``replacement`` of the year."""
    key = '"birth_date":"'
    out, start = [], 0
    while (found := text.find(key, start)) >= 0:
        value = text[found + len(key) : found + len(key) + 11]
        if len(value) == 11 and value.endswith('"') and value[:4].isdigit():
            out += [text[start:found], replacement % int(value[:4])]
            start = found + len(key) + 11
        else:
            out.append(text[start : found + len(key)])
            start = found + len(key)
    return "".join(out) + text[start:]


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("birth_date_enc", sa.Text, nullable=True))
        batch.alter_column("birth_date", existing_type=sa.Date, nullable=True)
    bind = op.get_bind()
    people = sa.table("people", sa.column("event_code"), sa.column("id"), sa.column("id_number_masked"))
    for row in bind.execute(sa.select(people).where(people.c.id_number_masked.is_not(None))).all():
        old = row.id_number_masked
        new = "*" * 14 + (old[-4:] if old and old[-1] != "*" else "****")
        if new != old:
            keys = (people.c.event_code == row.event_code, people.c.id == row.id)
            bind.execute(sa.update(people).where(*keys).values(id_number_masked=new))
    outbox = sa.table("outbox", sa.column("id"), sa.column("body", sa.LargeBinary))
    for row in bind.execute(sa.select(outbox)).all():
        old = bytes(row.body).decode("utf-8")
        new = _full_dates(old, '"birth_date":null,"birth_year":%d')
        if new != old:
            bind.execute(sa.update(outbox).where(outbox.c.id == row.id).values(body=new.encode("utf-8")))


def downgrade() -> None:
    sealed = op.get_bind().exec_driver_sql("SELECT count(*) FROM people WHERE birth_date_enc IS NOT NULL")
    if sealed.scalar_one():
        raise RuntimeError(
            "birth dates are encrypted: revision 0009 stores them in clear and this migration has no "
            "DATA_KEY to open them"
        )
    with op.batch_alter_table("people") as batch:
        batch.alter_column("birth_date", existing_type=sa.Date, nullable=False)
        batch.drop_column("birth_date_enc")
