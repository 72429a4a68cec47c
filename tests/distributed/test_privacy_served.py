"""Personal data only where it is needed (issue 27 finding 1, and the small leaks of finding 10),
against served processes over real sockets.

- The PII sweep: SZ 2022's online stage is played in the served embedded process (the field the
  simulation registers, with birth dates and ID numbers); an appeal is recorded with a signatory
  and a payment reference. Then every GET route of every service, read from its OpenAPI
  document, is read with no key, a partner key and a viewer key (and an operator key: staff get no
  more either), the web pages without credentials: no answer may hold a seeded person's full
  birth date or full ID number, the signatory's name or the payment reference.
- The qualifiers route, without credentials, shows the birth year and never a birth date.
- The embedded mode's database files are readable by their owner only (0600).
- On PostgreSQL + RabbitMQ (registration as its own process, the compose command): the birth date
  column holds ciphertext, for new people and for a person stored in clear before revision 0010.
"""

from __future__ import annotations

import asyncio
import os
import stat
from datetime import date

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from gomoku_shared.migrate import upgrade
from gomoku_shared.testing.served import embedded_server
from gomoku_sim.bots import BotPolicy
from gomoku_sim.client import SERVICES as SIM_SERVICES
from gomoku_sim.client import Keys, Platform
from gomoku_sim.driver import EventDriver, RunSpec, SimClock
from gomoku_sim.stack import EPOCH, ServicesQuiet
from registration.adapters.protection import DataProtector

from .compose_commands import LocalCompose
from .pii_sweep import birth_date_forms, discover, get_routes, sweep

KEYS = Keys()
VIEWER = "view-key"
API_KEYS = f"{KEYS.api_keys_setting},{VIEWER}=viewer"
BOTS = BotPolicy(miss_rate=0.7, miss_four_rate=0.5, no_show_rate=0.0, timeout_rate=0.0)
SIZES = {"men-free": 6, "women-free": 4, "men-pro": 6, "women-pro": 6}
SIGNATORY = "欧阳子轩"
PAYMENT_REFERENCE = "ICBC-2022-7731-0042"
#: answers the sweep must have read at least (five services, three callers: a sweep that
#: silently read nothing would pass)
AT_LEAST_ANSWERS = 300


def _spec() -> RunSpec:
    sizes = {section: SIZES.get(section, 0) for section in ("men-free", "women-free", "men-pro", "women-pro")}
    sizes |= {s: 0 for s in ("junior-boys-free", "junior-girls-free", "junior-boys-pro", "junior-girls-pro")}
    return RunSpec(
        preset_id="sz-2022",
        seed=11,
        sizes=sizes,
        rounds=2,
        policy=BOTS,
        progress=False,
        wait_timeout_s=120,
        run_timeout_s=600,
    )


async def _play_the_online_stage(base: str) -> EventDriver:
    """SZ 2022's online stage played to its awards (qualifiers selected for the final)."""
    platform = Platform.distributed({s: f"{base}/{s}" for s in SIM_SERVICES}, KEYS)
    clock = SimClock(platform, ("gameplay",))
    clock.current = await clock.now()
    driver = EventDriver(platform, clock, ServicesQuiet(platform), _spec())
    try:
        await driver.create_event()
        await driver.create_units()
        await driver.register()
        await driver.verify_evidence()
        stage = driver.config.stages[0].id
        run = await driver.check_in_and_close(stage)
        played = driver.played_sections(run)
        await driver.play(stage, played)
        await driver.quiet()
        completed = [
            s["section_id"]
            for s in await driver.pairing_sections()
            if s.get("section_id") in played and s.get("status") == "completed"
        ]
        await driver.wait_awards(completed)
        await driver.quiet()
    finally:
        await platform.aclose()
    return driver


def _lodge_appeal(client: httpx.Client, code: str) -> dict:
    """An appeal of a unit with entrants in a played section (the first such pair)."""
    staff = {"x-api-key": KEYS.operator}
    units = [
        u.get("unit_id") or u["id"]
        for u in client.get(f"/registration/v1/events/{code}/units", headers=staff).json()["units"]
    ]
    sections = client.get(f"/pairing/v1/events/{code}/sections", headers=staff).json()["sections"]
    body = {
        "signatory_role": "leader",
        "signatory_name": SIGNATORY,
        "grounds": "the clock of board 1 was not started",
        "round": None,
        "pairing_id": None,
        "fee_fen": 0,
        "payment_reference": PAYMENT_REFERENCE,
    }
    for section in (s["section_id"] for s in sections if s.get("status") == "completed"):
        for unit in units:
            answer = client.post(
                f"/pairing/v1/events/{code}/sections/{section}/appeals",
                headers={"x-api-key": KEYS.arbiter},
                json={**body, "unit_id": unit},
            )
            if answer.status_code != 422:
                assert answer.status_code == 200, answer.text
                return answer.json()
    raise AssertionError(f"no unit with entrants in a played section: {units}, {sections}")


def _portal_paths(monkeypatch: pytest.MonkeyPatch, tmp_path) -> list[str]:
    """The web pages' GET routes, from their own route table (they have no OpenAPI document)."""
    from portal.app import standalone_app
    from portal.public import RECORD_FORMATS

    monkeypatch.setenv("PORTAL_API_KEY", VIEWER)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "portal"))
    app = standalone_app()
    paths = [r.path for r in app.routes if "GET" in (getattr(r, "methods", None) or ()) and "{fmt}" not in r.path]
    return paths + [f"/games/{{game_id}}/record.{suffix}" for suffix, _ in RECORD_FORMATS.values()]


def _secrets(driver: EventDriver) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for application in driver.field:
        for person in application.people:
            out += [(f"{person.name}'s birth date", form) for form in birth_date_forms(person.birth_date)]
            out.append((f"{person.name}'s ID number", person.id_number))
    return out + [("the signatory's name", SIGNATORY), ("the payment reference", PAYMENT_REFERENCE)]


def test_pii_sweep_over_every_get_route_of_every_service(tmp_path, monkeypatch):
    """Issue 27 finding 1 (the PII sweep, the web pages included) and finding 10 (the payment
    reference, masks of one width); the qualifiers route without credentials shows a birth year,
    never a birth date."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "AMQP_URL")}
    env.update(
        DATA_DIR=str(tmp_path / "data"),
        API_KEYS=API_KEYS,
        DATA_KEY="pii-sweep-data-key",
        CLOCK="fake",
        CLOCK_START=EPOCH.isoformat(),
        LOG_JSON="true",
        LOG_LEVEL="WARNING",
        RELAY_POLL_S="0.2",
    )
    log = tmp_path / "embedded.log"
    with embedded_server(env, log) as port:
        base = f"http://127.0.0.1:{port}"
        driver = asyncio.run(_play_the_online_stage(base))
        code = driver.code
        with httpx.Client(base_url=base, timeout=60) as client:
            staff = {"x-api-key": KEYS.operator}
            lodged = _lodge_appeal(client, code)
            # finding 10: a fixed-width mask of the reference and of the name, whatever their length
            assert lodged["payment_reference"] == "**************0042" and lodged["signatory"] == "欧**", lodged

            # the qualifiers, as anyone reads them: a birth year, never a birth date
            qualifiers = client.get(f"/awards/v1/events/{code}/qualifiers")
            assert qualifiers.status_code == 200, qualifiers.text
            rows = [
                row
                for selection in qualifiers.json()["selections"]
                for row in selection["qualifiers"] + selection["substitutes"]
            ]
            assert rows, "the online stage selected no qualifiers: nothing was checked"
            born = {p.name: p.birth_date for a in driver.field for p in a.people}
            for row in rows:
                assert "birth_date" not in row, row
                assert row["birth_year"] == born[row["name"]].year, row

            routes = get_routes(client, _portal_paths(monkeypatch, tmp_path))
            found = discover(client, staff, routes)
            # staff as well: no answer of any service carries a full birth date or ID number
            callers = {
                "no key": {},
                "partner": {"x-api-key": KEYS.partner},
                "viewer": {"x-api-key": VIEWER},
                "operator": staff,
            }
            names = [p.name for a in driver.field for p in a.people]
            result = sweep(client, routes, found, callers, _secrets(driver), controls=names)
        print("\n" + result.line())
        print("routes without ids to fill: " + ", ".join(sorted(f"{s}{p}" for s, p in result.unreached)))
        assert result.answers >= AT_LEAST_ANSWERS and result.statuses.get(200, 0) > 100, result.line()
        assert ("awards", "/v1/events/{event_code}/qualifiers") not in result.unreached
        # every caller read answers with the seeded people in them (the published standings)
        assert result.controls_seen == set(callers), result.controls_seen
        assert not result.findings, "\n".join(f"{f.who}: {f.path} has {f.what}" for f in result.findings[:40])
    assert "Traceback" not in log.read_text()
    # finding 1: the embedded mode's database files (and SQLite's journals) are this user's alone
    files = sorted((tmp_path / "data").glob("*.sqlite*"))
    assert files and {f.name: stat.S_IMODE(f.stat().st_mode) for f in files} == {f.name: 0o600 for f in files}


# ------------------------------------------------------------------ at rest, on PostgreSQL

DATA_KEY = "privacy-served-data-key"
NEW_DATA_KEY = "privacy-served-data-key-2"
OLD_PERSON = ("sz22", "sz22.p00001", 1, "Chen Jing", "female", date(1988, 2, 29))
SZ_OPEN = "2022-10-26T10:00:00+08:00"


@pytest.fixture
async def registration_database(fresh_database):
    return await fresh_database()


async def _insert_person_in_clear(url: str) -> None:
    """A person as revision 0009 stored it: the birth date in clear."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO people (event_code, id, seq, name, gender, birth_date) "
                    "VALUES (:code, :id, :seq, :name, :gender, :born)"
                ),
                dict(zip(("code", "id", "seq", "name", "gender", "born"), OLD_PERSON, strict=True)),
            )
    finally:
        await engine.dispose()


async def _rows(url: str, query: str) -> list[sa.Row]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return list((await conn.execute(sa.text(query))).all())
    finally:
        await engine.dispose()


async def _people(url: str) -> list[sa.Row]:
    return await _rows(url, "SELECT id, birth_date, birth_date_enc, id_number_masked FROM people ORDER BY seq")


async def _ciphertexts(url: str) -> list[str]:
    """Every encrypted value registration stored for these tests."""
    found = []
    for table, column in (
        ("people", "birth_date_enc"),
        ("people", "id_number_enc"),
        ("evidence", "document_ref_enc"),
        ("entries", "insurance_ref_enc"),
        # issue 32: the registry of people keeps them as the event people do
        ("registry_people", "birth_date_enc"),
        ("registry_people", "id_number_enc"),
    ):
        found += [row[0] for row in await _rows(url, f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL")]
    return found


async def test_birth_dates_are_ciphertext_at_rest_on_postgres(registration_database, amqp_url, bus_namespace, tmp_path):
    """Issue 27 finding 1: registration's people table holds birth dates encrypted under DATA_KEY,
    a person registered now and one stored in clear before revision 0010 (encrypted by the service
    when it starts); the entry answers the birth year only. Then a key rotation (DATA_KEY_PREVIOUS):
    every encrypted value is encrypted again under the new key, and the person is found again."""
    url = registration_database
    await asyncio.to_thread(upgrade, "registration", url, "0009")
    await _insert_person_in_clear(url)
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": "op-key=operator", "DATA_KEY": DATA_KEY, "CLOCK": "fake", "CLOCK_START": SZ_OPEN},
    )
    try:
        await stack.serve("registration")
        with httpx.Client(base_url=stack.procs["registration"].url, timeout=30) as c:
            op = {"x-api-key": "op-key"}
            assert (
                c.post("/v1/events", headers=op, json={"preset_id": "sz-2022", "event_code": "sz22"}).status_code == 201
            )
            entry = {
                "stage": "online",
                "section_id": "men-free",
                "player": {
                    "name": "Zhou Min",
                    "gender": "male",
                    "birth_date": "1991-03-07",
                    "id_number": "440301199103070031",
                },
                "evidence": [{"kind": "household_registration", "document_ref": "HK-PRIV-0001", "region": "Shenzhen"}],
                "insurance": {"confirmed": True, "document_ref": "POL-PRIV-0001"},
            }
            answer = c.post("/v1/events/sz22/entries", headers=op, json=entry)
            assert answer.status_code == 201, answer.text
            view = c.get(f"/v1/events/sz22/entries/{answer.json()['entry_id']}", headers=op)
            assert view.json()["players"][0]["birth_year"] == 1991 and "1991-03-07" not in view.text, view.text
        protector = DataProtector(DATA_KEY)
        for _ in range(100):  # the service encrypts the old row at start, in the background
            people = await _people(url)
            if all(p.birth_date is None for p in people):
                break
            await asyncio.sleep(0.2)
        assert {p.id for p in people} == {"sz22.p00001", "sz22.p00002"}
        for person in people:
            assert person.birth_date is None, person
            assert person.birth_date_enc.startswith("gAAAAA"), person  # a Fernet token
        opened = {p.id: protector.decrypt(p.birth_date_enc) for p in people}
        assert opened == {"sz22.p00001": "1988-02-29", "sz22.p00002": "1991-03-07"}
        assert [p.id_number_masked for p in people if p.id == "sz22.p00002"] == ["**************0031"]

        # a key rotation: DATA_KEY new, the old one as DATA_KEY_PREVIOUS; at start the service
        # encrypts everything again under the new key, and finds its people again meanwhile
        stack.stop("registration")
        stack.extra_env |= {"DATA_KEY": NEW_DATA_KEY, "DATA_KEY_PREVIOUS": DATA_KEY}
        stack.start("registration")
        stack.wait_ready("registration")
        rotated = DataProtector(NEW_DATA_KEY)
        for _ in range(100):
            stored = await _ciphertexts(url)
            if all(rotated.is_current(token) for token in stored):
                break
            await asyncio.sleep(0.2)
        assert len(stored) >= 5 and all(rotated.is_current(token) for token in stored), stored
        assert not any(protector.is_current(token) for token in stored)  # the old key reads none of it
        assert {p.id: rotated.decrypt(p.birth_date_enc) for p in await _people(url)} == opened
        with httpx.Client(base_url=stack.procs["registration"].url, timeout=30) as c:
            again = c.post("/v1/events/sz22/entries", headers=op, json={**entry, "section_id": "men-pro"})
            assert again.status_code == 201, again.text
            assert again.json()["player_id"] == "sz22.p00002", again.text  # found by the new index
        # issue 32: both people are in the registry (the one stored before it linked at a start),
        # the registry's index rotated with its ciphertexts: one registry person per ID number
        for _ in range(100):  # linked in the background at start, after the rotation
            registry = await _rows(url, "SELECT id_number_index, birth_date_enc FROM registry_people")
            if len(registry) == 2:
                break
            await asyncio.sleep(0.2)
        assert len(registry) == 2 and all(rotated.is_current(row.birth_date_enc) for row in registry), registry
        assert rotated.index("440301199103070031") in {row.id_number_index for row in registry}
    finally:
        stack.stop_all()
    assert "Traceback" not in "".join(path.read_text() for path in tmp_path.glob("*.log"))
