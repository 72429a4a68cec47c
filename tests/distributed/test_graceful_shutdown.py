"""SIGTERM under load (issue 17, graceful shutdown): a service started with the exact
docker-compose.yml command, on PostgreSQL + RabbitMQ, is sent SIGTERM while clients keep
creating events. It stops taking new connections, finishes the requests in flight, flushes its
outbox and exits. No request it took fails, and no event is lost: the events on the bus are
exactly those whose requests were answered 201."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter

import httpx
from sqlalchemy import MetaData, func, select

from gomoku_shared.contracts import decode
from gomoku_shared.db import make_engine
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.outbox import outbox_table
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.topology import CONSUMES

from .compose_commands import LocalCompose

CLIENTS = 6
OPERATOR = {"x-api-key": "op-key"}
#: answers before the signal, so that requests are surely in flight when it arrives
ANSWERED_BEFORE_SIGNAL = 40


async def _client(url: str, worker: int, outcomes: list[tuple[str, str]], stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        number = 0
        while not stop.is_set():
            code = f"gs{worker}x{number}"
            number += 1
            try:
                response = await client.post(
                    "/v1/events", json={"preset_id": "nt-2023", "event_code": code}, headers=OPERATOR
                )
            except httpx.ConnectError:
                outcomes.append(("refused", code))  # not taken: the listening socket is closed
                await asyncio.sleep(0.05)
                continue
            except httpx.TransportError:
                outcomes.append(("no answer", code))
                continue
            outcomes.append(("created" if response.status_code == 201 else f"status {response.status_code}", code))


async def test_sigterm_under_load_finishes_requests_in_flight_and_loses_no_event(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    url = await fresh_database()
    stack = LocalCompose(
        database_urls={"registration": url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"SHUTDOWN_GRACE_S": "10"},
    )
    proc = await stack.serve("registration")

    outcomes: list[tuple[str, str]] = []
    stop = asyncio.Event()
    clients = [asyncio.create_task(_client(proc.url, n, outcomes, stop)) for n in range(CLIENTS)]
    try:
        while sum(kind == "created" for kind, _ in outcomes) < ANSWERED_BEFORE_SIGNAL:
            await asyncio.sleep(0.02)
        proc.popen.send_signal(signal.SIGTERM)
        exit_code = await asyncio.to_thread(proc.popen.wait, 60)
    finally:
        stop.set()
        await asyncio.gather(*clients)
    log = proc.log.read_text()
    # uvicorn re-raises SIGTERM once it has shut down cleanly: the signal's status, as orchestrators expect
    assert exit_code in (0, -signal.SIGTERM), log[-3000:]
    assert "Application shutdown complete" in log and "Traceback" not in log, log[-3000:]

    kinds = Counter(kind for kind, _ in outcomes)
    created = {code for kind, code in outcomes if kind == "created"}
    assert set(kinds) <= {"created", "refused", "no answer"}, kinds  # never a 5xx, never a 4xx
    assert kinds["refused"], f"the load did not outlast the process: {kinds}"

    # nothing left in the outbox: what the relay had not published yet, the stop flushed
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            table = outbox_table(MetaData())
            pending = (await conn.execute(select(func.count()).where(table.c.published_at.is_(None)))).scalar_one()
    finally:
        await engine.dispose()
    assert pending == 0

    # the bus holds exactly the events of the answered requests: none lost, none from a request
    # that got no answer
    bus = RabbitEventBus(amqp_url, namespace=bus_namespace)
    configured: set[str] = set()
    ready, _dead = await bus.queue_depth("awards")

    async def collect(message: Message) -> None:
        envelope = decode(message)
        if envelope.type == "event.configured":
            configured.add(envelope.payload.event_code)

    await bus.subscribe("awards", list(CONSUMES["awards"]), collect)
    try:
        async with asyncio.timeout(60):
            while len(configured) < min(ready, len(created)):
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
    finally:
        await bus.close()
    assert configured == created, (
        f"lost: {sorted(created - configured)[:5]}, unanswered but stored: {sorted(configured - created)[:5]}"
    )
