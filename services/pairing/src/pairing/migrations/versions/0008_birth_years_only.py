"""Pairing keeps birth years only: full birth dates stay in registration (docs/privacy.md).

The stored contract documents written before (each section's section.closed and last
section.completed payloads, the entrants) carry ``birth_date``: it is emptied and its year kept
as ``birth_year``, the contract's shape now; so are the bodies of events in the outbox.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
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


def _years_only(value):
    if isinstance(value, list):
        return [_years_only(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _years_only(item) for key, item in value.items()}
    born = out.get("birth_date")
    if isinstance(born, str) and born[:4].isdigit():
        out["birth_date"] = None
        out["birth_year"] = out.get("birth_year") or int(born[:4])
    return out


def _rewrite(table: str, keys: tuple[str, ...], columns: tuple[str, ...]) -> None:
    bind = op.get_bind()
    handle = sa.table(table, *(sa.column(k) for k in keys), *(sa.column(c, sa.JSON) for c in columns))
    for row in bind.execute(sa.select(handle)).all():
        values = {}
        for column in columns:
            old = getattr(row, column)
            new = _years_only(old)
            if new != old:
                values[column] = new
        if values:
            bind.execute(sa.update(handle).where(*(handle.c[k] == getattr(row, k) for k in keys)).values(**values))


def _rewrite_outbox() -> None:
    bind = op.get_bind()
    outbox = sa.table("outbox", sa.column("id"), sa.column("body", sa.LargeBinary))
    for row in bind.execute(sa.select(outbox)).all():
        old = bytes(row.body).decode("utf-8")
        new = _full_dates(old, '"birth_date":null,"birth_year":%d')
        if new != old:
            bind.execute(sa.update(outbox).where(outbox.c.id == row.id).values(body=new.encode("utf-8")))


def upgrade() -> None:
    _rewrite("tournaments", ("event_code", "section_id"), ("closed", "final"))
    _rewrite("entrants", ("event_code", "section_id", "start_no"), ("data",))
    _rewrite_outbox()


def downgrade() -> None:
    pass  # the full dates are not kept here any more: the years stay
