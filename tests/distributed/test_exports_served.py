"""Exports that cannot be forged, signed cursors and ``game.started`` at the start (issue 27
findings 2 and 10), over real sockets against served processes on PostgreSQL + RabbitMQ:

* a registrant named ``"Ev\\r\\n012 FAKE TOURNAMENT"`` is refused at input (400 with the common
  error shape), and so is a unit with a line break or a direction override;
* names that reach pairing by the bus without that check (an import, rows stored before it)
  still come out of the TRF export on one line each, in their columns, and out of the standings
  CSV with formula-like cells quoted;
* a forged (well-formed) or tampered cursor is 400 ``bad_cursor``; a given one still works;
* gameplay sends ``game.created`` when it makes a game and ``game.started`` only once both
  players are present.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
from datetime import datetime, timedelta

import httpx

from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Points, Ruleset, SectionRules
from gomoku_shared.contracts.events import SectionClosed
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.testing.rounds import one_game_round

from .compose_commands import LocalCompose

KEYS = "op-key=operator,arb-key=arbiter,partner-key=partner:partner-1"
OP = {"x-api-key": "op-key"}
#: the SZ 2022 registration window is open at this simulation time
SZ_OPEN = "2022-10-26T10:00:00+08:00"
FORGED_HEADER = "Ev\r\n012 FAKE TOURNAMENT"
FORMULA = '=HYPERLINK("http://attacker.example/x","click")'


def _stack(databases: dict[str, str], amqp_url: str, namespace: str, tmp_path, **env: str) -> LocalCompose:
    return LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, **env},
    )


def _serve(stack: LocalCompose, service: str):
    stack.migrate(service)
    proc = stack.start(service)
    stack.wait_ready(service)
    return proc


def _entry(name: str, n: int, *, unit: str | None = None) -> dict:
    player = {"name": name, "gender": "male", "birth_date": "1991-03-07", "id_number": f"44030119910307{n:04d}"}
    if unit is not None:
        player["unit"] = unit
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": player,
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-EXP-{n:04d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-EXP-{n:04d}"},
    }


def _refused_characters(response: httpx.Response) -> dict:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_characters", error
    assert error["details"]["where"] == "body" and error["details"]["loc"][0] == "body", error
    return error


def _forged(key: list) -> str:
    """A well-formed cursor as an unsigned implementation gives out: base64url of the JSON key."""
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode().rstrip("=")


def _tampered(cursor: str) -> str:
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[-2] ^= 1  # one bit of the key it carries
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


async def test_registration_refuses_control_characters_at_input_and_forged_cursors(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """issue 27 finding 2: a name with CR LF (a forged TRF header line), a unit with a line feed
    or a direction override, a change request's details with a lone CR: 400 invalid_characters
    with the common error shape, nothing stored. issue 27 finding 10: the entries list's cursor
    is signed: a forged well-formed cursor and a tampered one are 400 bad_cursor."""
    stack = _stack({"registration": await fresh_database()}, amqp_url, bus_namespace, tmp_path)
    try:
        registration = _serve(stack, "registration")
        async with httpx.AsyncClient(base_url=registration.url, timeout=30) as client:
            made = await client.post("/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": "sz22"})
            assert made.status_code == 201, made.text
            entries = "/v1/events/sz22/entries"
            error = _refused_characters(await client.post(entries, headers=OP, json=_entry(FORGED_HEADER, 1)))
            assert error["details"]["loc"][-1] == "name" and "U+000D" in error["details"]["msg"]
            _refused_characters(await client.post(entries, headers=OP, json=_entry("Li Lei", 2, unit="Club\nX")))
            _refused_characters(await client.post(entries, headers=OP, json=_entry("Li \u202eieL", 3)))
            unit = await client.post("/v1/events/sz22/units", headers=OP, json={"name": "Shenzhen\u2028Club"})
            _refused_characters(unit)
            listed = await client.get(entries, headers=OP)
            assert listed.status_code == 200 and listed.json()["entries"] == []

            for n, name in enumerate(("Zhang Wei", "Wang Fang", "Chen Jie"), 11):
                made = await client.post(entries, headers=OP, json=_entry(name, n))
                assert made.status_code == 201, made.text
            first = await client.get(entries, headers=OP, params={"limit": 1})
            assert first.status_code == 200, first.text
            cursor = first.json()["next_cursor"]
            assert cursor
            rest = await client.get(entries, headers=OP, params={"limit": 5, "cursor": cursor})
            assert rest.status_code == 200 and len(rest.json()["entries"]) == 2, rest.text
            row = first.json()["entries"][0]
            key = [row["stage"], row["section_id"], row["seq"], row["entry_id"]]
            for bad in (_forged(key), _tampered(cursor)):
                refused = await client.get(entries, headers=OP, params={"limit": 5, "cursor": bad})
                assert refused.status_code == 400, refused.text
                assert refused.json()["error"]["code"] == "bad_cursor"
    finally:
        stack.stop_all()


def _section_closed(entrants: list[Entrant]) -> SectionClosed:
    return SectionClosed(
        event_code="EXP",
        stage="main",
        section_id="open",
        name="Open\r\n012 FAKE SECTION",
        status="ready",
        rules=SectionRules(
            kind="individual",
            format="swiss",
            rounds=3,
            boards=1,
            two_game_rounds=False,
            ruleset=Ruleset(track="free"),
            clock=ClockSpec(kind="sudden_death", base_s=900),
            points=Points(),
            match_points=Points(),
            tiebreaks=[],
        ),
        entrants=entrants,
    )


async def test_pairing_writes_stored_names_on_one_line_and_csv_cells_that_are_not_formulas(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """issue 27 finding 2: names that reached pairing without the input check (a section.closed
    on the bus, as an import or rows stored earlier would) do not forge the TRF export: one 012
    record, one 001 line per player with the rating in its columns; the standings CSV quotes
    cells beginning with = + - @ (OWASP CSV injection) and keeps one record per line."""
    stack = _stack({"pairing": await fresh_database()}, amqp_url, bus_namespace, tmp_path)
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    names = [FORGED_HEADER, FORMULA, "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)", "Zhang Wei", "Wang Fang"]
    entrants = [
        Entrant(entrant_id=f"e{n}", name=name, rating=2000 - n, unit="+Unit\r\nB" if n == 1 else f"U{n}")
        for n, name in enumerate(names, 1)
    ]
    try:
        pairing = _serve(stack, "pairing")
        await bus.start()
        closed = _section_closed(entrants)
        at = datetime.fromisoformat(SZ_OPEN)
        await bus.publish([encode(envelope_for(closed, correlation_id="EXP", occurred_at=at))])
        section = "/v1/events/EXP/sections/open"
        async with httpx.AsyncClient(base_url=pairing.url, timeout=30) as client:
            async with asyncio.timeout(60):
                while (trf := await client.get(f"{section}/trf", headers=OP)).status_code != 200:
                    await asyncio.sleep(0.2)
            lines = trf.text.split("\n")
            assert lines[-1] == "" and all("\r" not in line for line in lines)
            records = [line[:3] for line in lines[:-1]]
            assert records.count("012") == 1 and records[0] == "012", lines
            players = [line for line in lines if line.startswith("001")]
            assert len(players) == len(names) and len(lines) - 1 == 1 + len(names) + 3, lines
            assert sorted(int(line[4:8]) for line in players) == list(range(1, len(names) + 1))
            for line in players:
                assert 1900 < int(line[48:52]) < 2000, line  # the rating still in its columns
                assert line[47] == " " and len(line) >= 89, line
            assert "Ev  012 FAKE TOURNAMENT" in trf.text and "Open  012 FAKE SECTION" in lines[0]

            table = await client.get(f"{section}/standings", headers=OP, params={"format": "csv"})
            assert table.status_code == 200, table.text
            assert table.text.count("\n") == 1 + len(names), table.text
            rows = list(csv.DictReader(io.StringIO(table.text)))
            written = {row["entrant_id"]: row for row in rows}
            assert written["e1"]["name"] == "Ev  012 FAKE TOURNAMENT"
            assert written["e1"]["unit"] == "'+Unit  B"
            assert written["e2"]["name"] == "'" + FORMULA
            assert written["e3"]["name"] == "'-2+3+cmd|' /C calc'!A0"
            assert written["e4"]["name"] == "'@SUM(A1:A9)"
            assert written["e5"]["name"] == "Zhang Wei"
            assert all(not row["points"].startswith("'") for row in rows)  # numbers stay numbers
    finally:
        await bus.close()
        stack.stop_all()


async def test_gameplay_sends_game_created_at_creation_and_game_started_once_both_are_present(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """issue 27 finding 10: a game made from round.paired is announced with game.created (not
    game.started); one player joining starts nothing; the second one's join sends game.started,
    once, with started_at the moment its clock runs (the fake clock moved an hour meanwhile)."""
    stack = _stack({"gameplay": await fresh_database()}, amqp_url, bus_namespace, tmp_path, RELAY_POLL_S="0.2")
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    seen: list = []

    async def observe(message: Message) -> None:
        seen.append(decode(message))

    def of(kind: str) -> list:
        return [envelope.payload for envelope in seen if envelope.type == kind]

    try:
        gameplay = _serve(stack, "gameplay")
        await bus.start()
        await bus.subscribe_broadcast(["game.*"], observe)
        start = datetime.fromisoformat(SZ_OPEN)
        paired = one_game_round("EXP").model_copy(update={"starts_at": start})
        await bus.publish([encode(envelope_for(paired, correlation_id="EXP", occurred_at=start))])
        gid = "EXP.main.S1.r1.p1.g1"
        async with httpx.AsyncClient(base_url=gameplay.url, timeout=30) as client:

            async def published(count: int) -> None:
                """Until the service has published ``count`` events and has none pending."""
                async with asyncio.timeout(60):
                    while True:
                        quiet = (await client.get("/v1/ops/quiet", headers=OP)).json()
                        if quiet["published"] >= count and quiet["outbox_pending"] == 0:
                            assert quiet["published"] == count, quiet
                            return
                        await asyncio.sleep(0.05)

            async def observed(kind: str, count: int) -> None:
                async with asyncio.timeout(30):
                    while len(of(kind)) < count:
                        await asyncio.sleep(0.05)

            await published(1)
            await observed("game.created", 1)
            [created] = of("game.created")
            assert created.game_id == gid and created.starts_at == start
            later = await client.post("/v1/ops/clock", headers=OP, json={"advance_s": 3600})
            assert later.status_code == 200, later.text

            joined = await client.post(f"/v1/games/{gid}/join", headers=OP, json={"player_id": "alice"})
            assert joined.status_code == 200 and joined.json()["status"] == "waiting", joined.text
            await published(1)  # the join is stored; nothing was sent for it
            joined = await client.post(f"/v1/games/{gid}/join", headers=OP, json={"player_id": "bob"})
            assert joined.status_code == 200 and joined.json()["status"] == "active", joined.text
            await published(2)
            await observed("game.started", 1)
            [started] = of("game.started")
            assert started.game_id == gid and started.black == "alice" and started.white == "bob"
            assert started.started_at == start + timedelta(hours=1)
            assert [envelope.type for envelope in seen] == ["game.created", "game.started"]
            again = await client.post(f"/v1/games/{gid}/join", headers=OP, json={"player_id": "bob"})
            assert again.status_code == 200
            await published(2)
    finally:
        await bus.close()
        stack.stop_all()
