"""The registration service's test kit: domain builders (people, evidence, applications),
request bodies, and the service harness (gomoku_shared.testing.harness) on SQLite and the
in-memory bus with a fake clock."""

from __future__ import annotations

import contextlib
from datetime import date, datetime, timedelta, timezone
from itertools import count

from gomoku_shared.clock import FakeClock
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.documented_answers import check_answers
from gomoku_shared.testing.harness import ServiceHarness
from gomoku_shared.testing.people import StaffTokens
from registration.bootstrap import build
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
KEYS = (
    "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1,p2-key=partner:partner-2,"
    "arb-a-key=arbiter:org-a,arb-b-key=arbiter:org-b,view-key=viewer"
)
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
#: issue 29: arbiters' API keys of organisations A and B (every event role in their own organisation's events)
ARB_A = {"x-api-key": "arb-a-key"}
ARB_B = {"x-api-key": "arb-b-key"}
P1 = {"x-api-key": "p1-key"}
P2 = {"x-api-key": "p2-key"}
DATA_KEY = "test-data-key-0123456789abcdef"


def id_number(n: int, born: str = "19900505") -> str:
    """An 18-character Chinese-style ID number, unique per n."""
    return f"4403{n % 100:02d}{born}{n:04d}"[-18:].rjust(18, "1")


def player(n: int, gender: str = "male", born: str = "1990-05-05", **kw) -> dict:
    return {
        "name": f"Player {n:04d}",
        "gender": gender,
        "birth_date": born,
        "id_number": id_number(n, born.replace("-", "")),
        **kw,
    }


def sz_entry(
    n: int,
    section: str = "men-free",
    gender: str = "male",
    born: str = "1990-05-05",
    evidence: list | None = None,
    **kw,
) -> dict:
    return {
        "stage": "online",
        "section_id": section,
        "player": player(n, gender, born),
        "evidence": evidence
        if evidence is not None
        else [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
        **kw,
    }


# ---------------------------------------------------------------------- domain builders

_ids = count(1)


def cst(year, month, day, hour=0, minute=0, second=0) -> datetime:
    """A time in China Standard Time (the presets' zone)."""
    return datetime(year, month, day, hour, minute, second, tzinfo=CST)


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
    owner: Person, kind: EvidenceKind, *, status=EvidenceStatus.PENDING, region="Shenzhen", submitted_at=None, **kw
) -> Evidence:
    return Evidence(
        f"ev{next(_ids)}",
        owner.id,
        kind,
        f"doc-{next(_ids)}",
        region=region,
        submitted_at=submitted_at or cst(2022, 10, 26),
        status=status,
        **kw,
    )


def months(start: str, count: int) -> tuple[str, ...]:
    """``count`` consecutive months from ``start`` ("2020-01"), as "YYYY-MM"."""
    year, month = map(int, start.split("-"))
    out = []
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        month += 1
        if month == 13:
            year, month = year + 1, 1
    return tuple(out)


def application(
    section_id, *people_, at, items=None, unit=None, insured=True, intends=False, quota_exempt=None, app_id=None
) -> Application:
    items = items if items is not None else {"entry_form": at}
    return Application(
        id=app_id or f"a{next(_ids)}",
        section_id=section_id,
        person_ids=tuple(member.id for member in people_),
        items_received=items,
        unit_id=unit.id if unit else None,
        insurance=InsuranceConfirmation(insured, "policy-1" if insured else None),
        intends_to_represent=intends,
        quota_exempt_refs=quota_exempt or {},
    )


# ---------------------------------------------------------------------- the running service


class Harness(ServiceHarness):
    """The registration service and every event it published; every successful answer is
    checked against the service's OpenAPI document (its response models)."""

    async def start(self) -> Harness:
        await super().start()
        check_answers(self.client, self.service.app.openapi())
        return self

    async def create_sz(self, code: str = "sz22", overrides: dict | None = None) -> dict:
        response = await self.client.post(
            "/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": code, "overrides": overrides or {}}
        )
        assert response.status_code == 201, response.text
        return response.json()


@contextlib.asynccontextmanager
async def pg_harness(database_url: str, start: datetime | None = None, people: StaffTokens | None = None):
    """The harness on PostgreSQL (``database_url``: a fresh database), its key ring accepting the
    staff tokens of ``people`` (issue 29: staff accounts per event)."""
    settings = ServiceSettings(
        DATABASE_URL=database_url, AMQP_URL=None, API_KEYS=KEYS, DATA_KEY=DATA_KEY, RELAY_POLL_S=0.05
    )
    clock = FakeClock(start or datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    async with Harness(build, settings, clock=clock, raise_app_exceptions=False) as running:
        if people is not None:
            people.install(running.service.app.state.keyring)
        yield running


@contextlib.asynccontextmanager
async def harness(tmp_path, start: datetime | None = None):
    settings = ServiceSettings(
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/registration.sqlite",
        AMQP_URL=None,
        API_KEYS=KEYS,
        DATA_KEY=DATA_KEY,
        RELAY_POLL_S=0.05,
    )
    clock = FakeClock(start or datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    async with Harness(build, settings, clock=clock, raise_app_exceptions=False) as running:
        yield running
