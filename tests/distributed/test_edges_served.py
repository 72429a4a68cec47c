"""The hardened HTTP edges, over real sockets against served processes: the embedded server
(SQLite) and the five services (the web pages aside) on PostgreSQL + RabbitMQ.

* every known bad input (edge_cases.CASES) gets its documented 4xx, never a 500;
* a real 500 (a broken database underneath) keeps its correlation id in body, header and log,
  and the keep-alive connection stays usable for the next request;
* no log line of any process carries a player's name, birth date, ID number, or the
  ciphertexts and blind index stored for them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from gomoku_shared.testing.served import embedded_server

from .compose_commands import SERVICES, LocalCompose
from .edge_cases import CASES, OP, RawHttp, assert_error

KEYS = "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1"
#: the SZ 2022 registration window is open at this simulation time
SZ_OPEN = "2022-10-26T10:00:00+08:00"
PEOPLE = [
    {"name": "Zhang Xiaoming", "gender": "male", "birth_date": "1991-03-07", "id_number": "440301199103070031"},
    {"name": "王秀英", "gender": "female", "birth_date": "1993-11-21", "id_number": "440305199311210042"},
]


def _entry(person: dict, n: int) -> dict:
    return {
        "stage": "online",
        "section_id": "men-free" if person["gender"] == "male" else "women-free",
        "player": person,
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-EDGE-{n:04d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-EDGE-{n:04d}"},
    }


def _send_cases(host: str, port: int, prefix: dict[str, str]) -> None:
    """All cases on one keep-alive connection: a 4xx never drops it either."""
    conn = RawHttp(host, port)
    try:
        for case in CASES:
            status, headers, body = conn.request(
                case.method, prefix[case.service] + case.path, case.headers, case.raw_body()
            )
            assert_error(case, status, headers, body)
    finally:
        conn.close()


def _log_lines(paths: list[Path]) -> list[str]:
    return [line for p in paths for line in p.read_text(errors="replace").splitlines()]


def _assert_no_personal_data(lines: list[str], secrets: list[str]) -> None:
    assert lines, "no log lines were written"
    for line in lines:
        for secret in secrets:
            assert secret not in line, f"personal data {secret[:6]}... in a log line: {line[:300]}"


def _register_people(base: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
        assert r.status_code == 201, r.text
        for n, person in enumerate(PEOPLE, 1):
            r = c.post(
                "/v1/events/sz22/entries", headers={**OP, "Idempotency-Key": f"edge-{n}"}, json=_entry(person, n)
            )
            assert r.status_code == 201, r.text
            # the same key with another body (another person's birth date) is refused
            other = _entry({**person, "birth_date": "1990-01-01"}, n)
            r = c.post("/v1/events/sz22/entries", headers={**OP, "Idempotency-Key": f"edge-{n}"}, json=other)
            assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_key_reused", r.text


def _personal_secrets(stored: list[dict]) -> list[str]:
    out = []
    for p in PEOPLE:
        y, m, d = (int(x) for x in p["birth_date"].split("-"))
        out += [p["name"], p["birth_date"], f"date({y}, {m}, {d})", p["id_number"], p["id_number"][-8:]]
    out += ["HK-EDGE-0001", "POL-EDGE-0001"]
    for row in stored:
        out += [v for v in row.values() if isinstance(v, str) and len(v) >= 16]
    return out


# ------------------------------------------------------------------ embedded server (SQLite)


@pytest.fixture
def embedded(tmp_path):
    log = tmp_path / "embedded.log"
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path / "data"),
        "API_KEYS": KEYS,
        "DATA_KEY": "edge-test-data-key",
        "LOG_JSON": "true",
        "CLOCK": "fake",
        "CLOCK_START": SZ_OPEN,
    }
    env.pop("DATABASE_URL", None)
    env.pop("AMQP_URL", None)
    with embedded_server(env, log) as port:
        yield port, log, tmp_path / "data"


def test_embedded_server_refuses_the_known_bad_inputs_with_4xx(embedded):
    port, log, data_dir = embedded
    _register_people(f"http://127.0.0.1:{port}/registration")
    _send_cases("127.0.0.1", port, {s: f"/{s}" for s in SERVICES})
    import sqlite3

    with sqlite3.connect(data_dir / "registration.sqlite") as db:
        db.row_factory = sqlite3.Row
        stored = [dict(r) for r in db.execute("SELECT id_number_enc, id_number_index FROM people")]
    assert len(stored) == len(PEOPLE)
    _assert_no_personal_data(_log_lines([log]), _personal_secrets(stored))


# ------------------------------------------------------------------ five services on PostgreSQL + RabbitMQ


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def test_services_on_postgres_refuse_bad_inputs_keep_500s_traceable_and_log_no_personal_data(
    databases, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN},
    )
    try:
        await stack.serve_all(*SERVICES)
        registration = stack.procs["registration"]
        _register_people(registration.url)
        for s in SERVICES:
            conn = RawHttp("127.0.0.1", stack.procs[s].port)
            try:
                for case in (c for c in CASES if c.service == s):
                    status, headers, body = conn.request(case.method, case.path, case.headers, case.raw_body())
                    assert_error(case, status, headers, body)
            finally:
                conn.close()

        # a real bug underneath the running service: inserting a person fails (a trigger raises),
        # with the player's name, birth date and ciphertext in the statement's parameters
        db = await asyncpg.connect(_dsn(databases["registration"]))
        try:
            stored = [dict(r) for r in await db.fetch("SELECT id_number_enc, id_number_index FROM people")]
            await db.execute(
                "CREATE FUNCTION edge_boom() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'broken on purpose'; END $$"
            )
            await db.execute(
                "CREATE TRIGGER edge_boom BEFORE INSERT ON people FOR EACH ROW EXECUTE FUNCTION edge_boom()"
            )
        finally:
            await db.close()
        conn = RawHttp("127.0.0.1", registration.port)
        try:
            body = json.dumps(_entry({**PEOPLE[0], "name": "Zhang Xiaoming Jr", "id_number": "440301199103070058"}, 3))
            status, headers, raw = conn.request(
                "POST", "/v1/events/sz22/entries", {**OP, "X-Correlation-ID": "edge-boom-1"}, body.encode()
            )
            assert status == 500, raw
            err = json.loads(raw)["error"]
            assert err["code"] == "internal_error" and err["details"]["correlation_id"] == "edge-boom-1"
            assert headers["x-correlation-id"] == "edge-boom-1" and headers.get("connection") != "close"
            # the same connection serves the next request
            status, headers, raw = conn.request("GET", "/healthz")
            assert status == 200 and json.loads(raw)["status"] == "ok"
        finally:
            conn.close()
        deadline = time.monotonic() + 10
        while '"edge-boom-1"' not in registration.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        boom = [json.loads(x) for x in _log_lines([registration.log]) if '"edge-boom-1"' in x]
        assert any(x["level"] == "ERROR" and "Traceback" in x.get("exc", "") for x in boom), boom
        secrets = _personal_secrets(stored) + ["Zhang Xiaoming Jr", "440301199103070058", "19910307"]
        assert any("message withheld" in x.get("exc", "") for x in boom), boom
        _assert_no_personal_data(_log_lines([p.log for p in stack.procs.values()]), secrets)
    finally:
        stack.stop_all()


async def test_gameplay_process_binds_an_idempotency_key_to_its_request(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """The issue's reproducer over the wire: a move for game b4 sent with the key of a move in
    b3 was answered with b3's summary and dropped; now it is 409 idempotency_key_reused, and a
    true retry is replayed with Idempotent-Replayed: true (group-committed path, PostgreSQL)."""
    from datetime import datetime

    from gomoku_shared.contracts import encode, envelope_for
    from gomoku_shared.contracts.common import ClockSpec, Ruleset
    from gomoku_shared.contracts.events import PairingSpec, RoundPaired
    from gomoku_shared.messaging.rabbit import RabbitEventBus

    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN},
    )
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        gp = await stack.serve("gameplay")
        start = datetime.fromisoformat(SZ_OPEN)
        specs = [
            PairingSpec(
                pairing_id=pid,
                first=a,
                second=b,
                games=1,
                ruleset=Ruleset(track="free"),
                clock=ClockSpec(kind="sudden_death", base_s=900, increment_s=0),
            )
            for pid, a, b in (("p1", "alice", "bob"), ("p2", "carol", "dave"))
        ]
        await bus.start()
        await bus.publish(
            [
                encode(
                    envelope_for(
                        RoundPaired(
                            event_code="EV",
                            stage="main",
                            section_id="S1",
                            round=1,
                            starts_at=start,
                            no_show_minutes=15,
                            pairings=specs,
                        ),
                        correlation_id="edge",
                        occurred_at=start,
                    )
                )
            ]
        )
        b3, b4 = "EV.main.S1.r1.p1.g1", "EV.main.S1.r1.p2.g1"
        deadline = time.monotonic() + 30
        while len(httpx.get(gp.url + "/v1/games", headers=OP).json()["games"]) < 2:
            assert time.monotonic() < deadline, gp.log.read_text()[-3000:]
            time.sleep(0.1)
        conn = RawHttp("127.0.0.1", gp.port)
        try:

            def post(gid: str, action: str, body: dict, key: str | None = None):
                headers = {**OP, **({"Idempotency-Key": key} if key else {})}
                status, headers, raw = conn.request(
                    "POST", f"/v1/games/{gid}/{action}", headers, json.dumps(body).encode()
                )
                return status, headers, json.loads(raw)

            for gid, players in ((b3, ("alice", "bob")), (b4, ("carol", "dave"))):
                for player in players:
                    assert post(gid, "join", {"player_id": player})[0] == 200
            status, headers, first = post(b3, "move", {"player_id": "alice", "point": "h8"}, "m-1")
            assert status == 200 and "idempotent-replayed" not in headers
            status, headers, again = post(b3, "move", {"player_id": "alice", "point": "h8"}, "m-1")
            assert status == 200 and headers["idempotent-replayed"] == "true" and again == first
            status, headers, refused = post(b4, "move", {"player_id": "carol", "point": "h8"}, "m-1")
            assert status == 409 and refused["error"]["code"] == "idempotency_key_reused", refused
            status, _, view = conn.request("GET", f"/v1/games/{b4}", OP)
            assert json.loads(view)["moves"] == []
        finally:
            conn.close()
    finally:
        await bus.close()
        stack.stop_all()
