"""A partner's whole integration, as a partner developer builds it from the published contract:
only the typed client (``gomoku_client``) and a webhook receiver (a real HTTP server in its own
process, webhook_receiver.py), on
PostgreSQL + RabbitMQ, every service its own process (the docker-compose.yml commands), all
reached through the gateway's one base URL.

The partner gets a token, subscribes its receiver, registers its players, receives
``round.paired`` by webhook, finds its players' games (``GET /v1/games?player=``), plays them
(join, moves, each with an Idempotency-Key), and reads the results by the event stream and by
webhook, the standings and the awards. Its receiver process is killed (SIGKILL) once the round
is paired and stays dead until the section's awards are out: those deliveries fail, are retried
from the partners service's durable delivery table (rows written as the bus's events are
consumed; due by the service clock, on a retry schedule the test shortens by configuration),
and arrive once a new receiver process listens on the same port — every one exactly once per
``webhook-id``, every signature verified with the ``standardwebhooks`` library.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest

from gomoku_client import AsyncClient, ClientCredentials
from gomoku_client import models as m

from .compose_commands import LocalCompose

OP = {"x-api-key": "op-key"}
SERVED = ("partners", "registration", "pairing", "gameplay", "awards")
CODE = "pi22"
SECTION = "men-free"
#: registration of the SZ 2022 qualifier is open at this simulation time
SZ_OPEN = "2022-10-26T10:00:00+08:00"
#: the online stage's first round starts on its first day
ROUND_START = "2022-11-05T09:00:00+08:00"
#: a one-round section of two players: one game decides it (no tie to decide by an arbiter)
OVERRIDES = {
    "stages": {
        "online": {
            "sections": {
                SECTION: {
                    "format": {"rounds": 1, "games_per_round": 1, "two_game": None},
                    "closing": {"cancel_at_most": 0, "merge_below": 1},
                }
            }
        }
    }
}
EVENT_TYPES: list[m.EventType] = [
    "round.paired",
    "game.started",
    "game.finished",
    "section.completed",
    "awards.published",
]
#: retries of a failed delivery: every 5 s of the partners service's (fake) clock
RETRY_SCHEDULE = ",".join(["5"] * 20)
RECEIVER = Path(__file__).with_name("webhook_receiver.py")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Receiver:
    """The partner's webhook endpoint: its own process (webhook_receiver.py), which verifies each
    delivery with ``standardwebhooks`` and records it to a file that outlives the process."""

    def __init__(self, record: Path, log: Path) -> None:
        self.port = _free_port()
        self.record = record
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/gomoku/hooks"

    async def start(self, secret: str) -> None:
        """Serve on the receiver's port (the same one again after a kill)."""
        env = {**os.environ, "WEBHOOK_SECRET": secret}
        self.process = subprocess.Popen(
            [sys.executable, str(RECEIVER), str(self.port), str(self.record)],
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )

        async def listening() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                return False
            writer.close()
            return True

        await _until("the receiver listening", listening, timeout=30)

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing listens on its port until it is started again."""
        assert self.process is not None and self.process.poll() is None
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(timeout=10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def lines(self) -> list[dict[str, Any]]:
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines() if line]

    @property
    def received(self) -> list[dict[str, Any]]:
        return [line for line in self.lines() if "webhook_id" in line]

    @property
    def refused(self) -> int:
        return sum(1 for line in self.lines() if "refused" in line)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.received if event["type"] == kind]


async def _until(what: str, check: Callable[[], Any], timeout: float = 90.0) -> Any:
    async with asyncio.timeout(timeout):
        while True:
            found = check()
            if asyncio.iscoroutine(found):
                found = await found
            if found:
                return found
            await asyncio.sleep(0.2)
    raise AssertionError(what)  # pragma: no cover - the timeout raises first


def _entry(n: int) -> m.EntryIn:
    return m.EntryIn(
        stage="online",
        section_id=SECTION,
        items=["entry_form"],
        player=m.PlayerIn(
            name=f"Partner Player {n}",
            gender="male",
            birth_date=date(1990, 1, n),
            id_number=f"44030119900101{n:03d}3",
            external_id=f"app-one-user-{n}",
        ),
        evidence=[m.EvidenceIn(kind="household_registration", document_ref=f"HK-PI-{n:04d}", region="Shenzhen")],
        insurance=m.InsuranceIn(confirmed=True, document_ref=f"POL-PI-{n:04d}"),
    )


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVED}


async def test_a_partner_integrates_with_the_typed_client_and_a_webhook_receiver(
    databases, amqp_url, bus_namespace, tmp_path
):
    stack = LocalCompose(
        database_urls=databases,
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={
            "API_KEYS": "op-key=operator,arb-key=arbiter",
            "CLOCK": "fake",
            "CLOCK_START": SZ_OPEN,
            "ACCESS_TOKEN_TTL_S": "3600",
            "RELAY_POLL_S": "0.1",
            "WEBHOOK_POLL_S": "0.1",
            "WEBHOOK_RETRY_SCHEDULE_S": RETRY_SCHEDULE,
            # the receiver is on 127.0.0.1 (the development setting), and is down on purpose for
            # a while: retries on the schedule alone, no circuit breaker pause
            "WEBHOOK_ALLOW_LOOPBACK": "true",
            "WEBHOOK_BREAKER_AFTER": "1000",
        },
    )
    try:
        await stack.serve_all(*SERVED)
        gateway = stack.start_gateway()
        stack.wait_gateway()
        async with httpx.AsyncClient(base_url=gateway.url, headers=OP, timeout=30) as operator:
            await _integrate(gateway.url, operator, tmp_path)
    finally:
        stack.stop_all()


async def _set_clocks(operator: httpx.AsyncClient, body: dict[str, Any]) -> None:
    """The operator moves every service's simulation clock alike."""
    for service in SERVED:
        answer = await operator.post(f"/{service}/v1/ops/clock", json=body)
        assert answer.status_code == 200, answer.text


async def _integrate(base_url: str, operator: httpx.AsyncClient, tmp_path) -> None:
    # ---- the operator's part: the partner's account and credentials, the event
    r = await operator.post(
        "/partners/v1/partners", json={"partner_id": "app-one", "name": "App One", "scopes": [*SCOPES]}
    )
    assert r.status_code == 201, r.text
    r = await operator.post("/partners/v1/partners/app-one/credentials", json={"label": "integration"})
    assert r.status_code == 201, r.text
    credentials = ClientCredentials(r.json()["client_id"], r.json()["client_secret"])
    r = await operator.post(
        "/registration/v1/events", json={"preset_id": "sz-2022", "event_code": CODE, "overrides": OVERRIDES}
    )
    assert r.status_code == 201, r.text

    # ---- the partner's part: the typed client and a receiver, nothing else
    receiver = Receiver(tmp_path / "received.ndjson", tmp_path / "receiver.log")
    try:
        async with AsyncClient(base_url, credentials=credentials) as partner:
            await _as_partner(partner, operator, receiver)
    finally:
        receiver.stop()
    # the simulation clocks jumped ten days (registration to the round): the services refused
    # the first token as expired and the client obtained a new one by itself — a few in all
    assert 2 <= credentials.tokens_obtained <= 4


async def _as_partner(partner: AsyncClient, operator: httpx.AsyncClient, receiver: Receiver) -> None:
    assert (await partner.whoami()).partner_id == "app-one"
    subscription = await partner.subscribe(receiver.url, EVENT_TYPES, "integration test")
    await receiver.start(subscription.secret)

    entries = [await partner.register(CODE, _entry(n), idempotency_key=f"app-one-entry-{n}") for n in (1, 2)]
    assert all(e.status.startswith("accepted") for e in entries), [(e.status, e.reason) for e in entries]
    mine = {e.entrant_id for e in entries}
    assert {e.entry_id for e in (await partner.entries(CODE)).entries} == {e.entry_id for e in entries}
    # the typed client follows next_cursor: one entry a page, every entry once
    paged = [e.entry_id async for e in partner.iter_entries(CODE, page_size=1)]
    assert sorted(paged) == sorted(e.entry_id for e in entries) and len(paged) == 2
    # the partner's own user id finds its player again (the typed client's external_id filter)
    second = (await partner.entries(CODE, external_id="app-one-user-2")).entries
    assert [e.entry_id for e in second] == [entries[1].entry_id]
    assert second[0].players[0].external_id == "app-one-user-2"

    # the operator closes the stage; the round is paired at its start
    closed = await operator.post(
        f"/registration/v1/events/{CODE}/stages/online/close",
        json={"format_choices": {SECTION: {"kind": "swiss", "rounds": 1}}},
    )
    assert closed.status_code == 200, closed.text
    await _set_clocks(operator, {"set": ROUND_START})

    paired = await _until("round.paired by webhook", lambda: receiver.of_type("round.paired"))

    async def quiet() -> bool:  # nothing in flight: every delivery so far answered
        log = (await partner.deliveries(subscription_id=subscription.subscription_id)).items
        return bool(log) and all(d.status == "delivered" for d in log)

    await _until("the deliveries so far answered", quiet, timeout=60)
    # ---- the receiver crashes (SIGKILL) here and stays down until the awards are out
    receiver.kill()
    arrived_before = len(receiver.received)
    pairings = paired[0]["data"]["pairings"]
    assert {p["first"] for p in pairings} | {p["second"] for p in pairings} == mine
    game = await _play(partner, mine)

    # the deliveries the dead receiver missed wait, failed, in the partners service's table
    async def failed_while_down() -> bool:
        log = (await partner.deliveries(subscription_id=subscription.subscription_id)).items
        pending = [d for d in log if d.status == "pending" and d.attempts >= 1]
        return {d.event_type for d in pending} >= {"game.finished", "awards.published"}

    await _until("the failed attempts recorded", failed_while_down, timeout=60)
    assert len(receiver.received) == arrived_before and receiver.of_type("game.finished") == []

    # ---- a new receiver process on the same port: the retries (due by the partners service's
    # clock, read from its delivery table) arrive
    await receiver.start(subscription.secret)
    await _set_clocks(operator, {"advance_s": 30})

    async def all_delivered() -> bool:
        log = (await partner.deliveries(subscription_id=subscription.subscription_id)).items
        return bool(log) and all(d.status == "delivered" for d in log) and len(log) == len(receiver.received)

    await _until("every delivery once the receiver is back", all_delivered, timeout=120)
    log = (await partner.deliveries(subscription_id=subscription.subscription_id)).items

    # every delivery once per webhook-id, every signature verified (the receiver refused none)
    assert receiver.refused == 0
    ids = Counter(event["webhook_id"] for event in receiver.received)
    assert ids.most_common(1)[0][1] == 1, ids
    assert set(ids) == {d.delivery_id for d in log}
    assert sorted({event["type"] for event in receiver.received}) == sorted(EVENT_TYPES)
    assert any(d.attempts > 1 for d in log)  # some came only by a retry
    finished = receiver.of_type("game.finished")
    assert len(finished) == 1 and finished[0]["data"]["game_id"] == game.game_id
    assert finished[0]["data"]["result"] == "black"
    # the sections left without entries are cancelled at closing and published as such (AWD-6)
    assert SECTION in {event["data"]["section_id"] for event in receiver.of_type("awards.published")}


async def _play(partner: AsyncClient, mine: set[str]) -> m.GameSummary:
    """The partner's players play their game; the result by the stream, standings and awards."""
    round_one = await partner.round(CODE, SECTION, 1)
    assert {p.first for p in round_one.pairings} | {p.second for p in round_one.pairings if p.second} == mine
    games = await _until(
        "the partner's game", lambda: _games(partner, player=sorted(mine)[0], status="active"), timeout=60
    )
    assert len(games) == 1
    game = games[0]
    assert {game.black, game.white} == mine
    await partner.join(game.game_id, game.black)
    await partner.join(game.game_id, game.white)
    for i, column in enumerate("hijkl"):
        await partner.move(game.game_id, game.black, f"{column}8", idempotency_key=f"{game.game_id}-b{i}")
        if i < 4:
            await partner.move(game.game_id, game.white, f"a{i + 1}", idempotency_key=f"{game.game_id}-w{i}")
    # a retried action (the same Idempotency-Key) is answered again, not played again
    replay = await partner.move(game.game_id, game.black, "l8", idempotency_key=f"{game.game_id}-b4")
    assert replay.status == "finished" and replay.result == "black"
    final = await partner.game(game.game_id)
    assert (final.status, final.result, final.reason, len(final.moves)) == ("finished", "black", "five", 9)

    # the result by the stream: every event of the game, the last one its result
    events = [e async for e in partner.stream(CODE, follow=False)]
    kinds = [e.kind for e in events if e.game_id == game.game_id]
    assert kinds[0] == "created" and kinds[-1] == "finished" and kinds.count("finished") == 1, kinds
    assert events[-1].data["result"] == "black"
    assert [e.id for e in events] == sorted({e.id for e in events})  # in order, none twice
    resumed = [e async for e in partner.stream(CODE, since=events[2].id, follow=False)]
    assert [e.id for e in resumed] == [e.id for e in events[3:]]

    # standings and awards, read with the client
    async def completed() -> bool:
        return (await partner.standings(CODE, SECTION)).status == "completed"

    await _until("the section completed", completed, timeout=60)
    standings = await partner.standings(CODE, SECTION)
    assert [row.entrant_id for row in standings.standings] == [game.black, game.white]
    awards = await _until("the awards published", lambda: _awards(partner), timeout=60)
    assert awards.publication.section_id == SECTION and awards.summary.field_size == 2
    assert (await partner.publications(CODE, SECTION)).publications
    return game


SCOPES = ("entries:write", "games:play", "results:read", "webhooks:manage")


async def _games(partner: AsyncClient, **filters: Any) -> list[m.GameSummary]:
    return [game async for game in partner.iter_games(**filters)]


async def _awards(partner: AsyncClient) -> m.SectionAwards | None:
    from gomoku_client import NotFound

    try:
        return await partner.awards(CODE, SECTION)
    except NotFound:
        return None
