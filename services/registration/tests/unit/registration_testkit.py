"""Builders for the registration domain tests."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from itertools import count

from registration.domain import (
    Application,
    Evidence,
    EvidenceKind,
    EvidenceStatus,
    IdNumber,
    InsuranceConfirmation,
    Person,
)

CST = timezone(timedelta(hours=8))
_ids = count(1)


def cst(y, mo, d, h=0, mi=0, s=0) -> datetime:
    return datetime(y, mo, d, h, mi, s, tzinfo=CST)


def person(
    gender="male",
    born=date(1990, 5, 5),
    *,
    pid=None,
    citizenship="CN",
    registered_unit=None,
    id_number="440301199005051234",
    name=None,
) -> Person:
    pid = pid or f"p{next(_ids)}"
    return Person(
        pid,
        name or f"Player {pid}",
        gender,
        born,
        IdNumber(id_number) if id_number else None,
        citizenship,
        registered_unit,
    )


def evidence(
    p: Person, kind: EvidenceKind, *, status=EvidenceStatus.PENDING, region="Shenzhen", submitted_at=None, **kw
) -> Evidence:
    return Evidence(
        f"ev{next(_ids)}",
        p.id,
        kind,
        f"doc-{next(_ids)}",
        region=region,
        submitted_at=submitted_at or cst(2022, 10, 26),
        status=status,
        **kw,
    )


def months(start: str, n: int) -> tuple[str, ...]:
    y, m = map(int, start.split("-"))
    out = []
    for _ in range(n):
        out.append(f"{y:04d}-{m:02d}")
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return tuple(out)


def application(
    section_id, *people_, at, items=None, unit=None, insured=True, intends=False, quota_exempt=None, app_id=None
) -> Application:
    items = items if items is not None else {"entry_form": at}
    return Application(
        id=app_id or f"a{next(_ids)}",
        section_id=section_id,
        person_ids=tuple(p.id for p in people_),
        items_received=items,
        unit_id=unit.id if unit else None,
        insurance=InsuranceConfirmation(insured, "policy-1" if insured else None),
        intends_to_represent=intends,
        quota_exempt_refs=quota_exempt or {},
    )
