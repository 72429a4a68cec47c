"""Awards keeps birth years only: full birth dates stay in registration (docs/privacy.md).

Stored JSON text written before carries ``birth_date``: the section.completed payloads keep the
key empty beside ``birth_year`` (the contract's shape), the lists and qualifier selections
computed from them, and the bodies of events in the outbox, hold ``birth_year`` instead.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
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


def _contract(text):
    return _full_dates(text, '"birth_date":null,"birth_year":%d')


def _computed(text):
    return _full_dates(text, '"birth_year":%d').replace('"birth_date":null', '"birth_year":null')


def _rewrite(table: str, keys: tuple[str, ...], columns) -> None:
    bind = op.get_bind()
    handle = sa.table(table, *(sa.column(k) for k in keys), *(sa.column(c, sa.Text) for c in columns))
    for row in bind.execute(sa.select(handle)).all():
        values = {}
        for column, convert in columns.items():
            old = getattr(row, column)
            new = convert(old) if old else old
            if new != old:
                values[column] = new
        if values:
            bind.execute(sa.update(handle).where(*(handle.c[k] == getattr(row, k) for k in keys)).values(**values))


def _rewrite_outbox() -> None:
    bind = op.get_bind()
    outbox = sa.table("outbox", sa.column("id"), sa.column("body", sa.LargeBinary))
    for row in bind.execute(sa.select(outbox)).all():
        old = bytes(row.body).decode("utf-8")
        new = _contract(old)
        if new != old:
            bind.execute(sa.update(outbox).where(outbox.c.id == row.id).values(body=new.encode("utf-8")))


def upgrade() -> None:
    _rewrite("section_results", ("event_code", "section_id", "revision"), {"payload": _contract})
    _rewrite("publications", ("id",), {"payload": _computed, "document": _computed})
    _rewrite("qualifier_selections", ("event_code", "section_id", "target_section_id"), {"content": _computed})
    _rewrite_outbox()


def downgrade() -> None:
    pass  # the full dates are not kept here any more: the years stay
