"""The operators' tool as operators run it: the `gomoku-ops` command, as a process, against the
real RabbitMQ and PostgreSQL (issue 17, repair tools)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import MetaData, insert, select

from gomoku_shared.db import make_engine
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.outbox import outbox_table
from gomoku_shared.messaging.rabbit import RabbitEventBus

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def ops(*args: str, amqp_url: str = "", namespace: str = "", env: dict[str, str] | None = None):
    """Run `gomoku-ops ARGS` as a process; (exit code, stdout, stderr)."""
    full_env = {**os.environ, **(env or {})}
    if amqp_url:
        full_env.update(AMQP_URL=amqp_url, BUS_NAMESPACE=namespace)
    done = subprocess.run(
        [sys.executable, "-m", "gomoku_ops", *args], capture_output=True, text=True, env=full_env, timeout=120
    )
    return done.returncode, done.stdout, done.stderr


def _envelope(event_id: str, event_type: str, payload: dict) -> Message:
    body = {
        "event_id": event_id,
        "type": event_type,
        "version": 1,
        "occurred_at": "2022-11-05T09:00:00+08:00",
        "correlation_id": "ops-test",
        "payload": payload,
    }
    return Message(routing_key=event_type, message_id=event_id, body=json.dumps(body).encode(), headers={})


async def _wait_for(predicate, what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def test_dead_letters_are_listed_shown_without_personal_data_and_replayed_once(amqp_url, bus_namespace):
    """A consumer that keeps failing dead-letters an event; `dlq list` reports it (exit 1),
    `dlq show` names it without its payload unless asked, `dlq replay` puts it back in that one
    queue and the repaired consumer gets it exactly once; `dlq list` is then clean (exit 0)."""
    event_id = str(uuid.uuid4())
    message = _envelope(event_id, "game.finished", {"event_code": "ops-2022", "game_id": "g-1", "name": "张三丰"})
    failing = RabbitEventBus(amqp_url, namespace=bus_namespace)

    async def refuse(_message: Message) -> None:
        raise RuntimeError("a consumer bug")

    await failing.subscribe("pairing", ["game.finished"], refuse, delivery_limit=1)
    await failing.publish([message])
    await _wait_for(lambda: _dead_count(failing), "the dead letter")
    await failing.close()

    code, out, err = ops("--json", "dlq", "list", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 1, err
    depths = {row["service"]: row for row in json.loads(out)}
    assert depths["pairing"]["dead"] == 1 and depths["gameplay"]["dead"] == 0

    code, out, err = ops("dlq", "show", "pairing", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 0, err
    assert event_id in out and "game.finished" in out and "event_code=ops-2022" in out
    assert "张三丰" not in out  # the payload only on request
    code, out, _ = ops("dlq", "show", "pairing", "--payload", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 0 and "张三丰" in out

    code, _out, err = ops("dlq", "replay", "pairing", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 2 and "--all" in err  # which events: the operator must say
    code, out, err = ops("dlq", "replay", "pairing", "--all", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 0 and "replayed 1" in out, err

    received: list[str] = []
    repaired = RabbitEventBus(amqp_url, namespace=bus_namespace)

    async def accept(incoming: Message) -> None:
        received.append(incoming.message_id)

    await repaired.subscribe("pairing", ["game.finished"], accept, delivery_limit=1)
    try:
        await _wait_for(lambda: _received(received), "the replayed event")
        await asyncio.sleep(0.5)  # room for a duplicate to arrive, if the tool made one
        assert received == [event_id]
    finally:
        await repaired.close()
    code, out, err = ops("--json", "dlq", "list", "--service", "pairing", amqp_url=amqp_url, namespace=bus_namespace)
    assert code == 0 and json.loads(out)[0]["dead"] == 0, err


async def _dead_count(bus: RabbitEventBus) -> bool:
    return (await bus.queue_depth("pairing"))[1] == 1


async def _received(received: list[str]) -> bool:
    return bool(received)


async def test_outbox_backlog_resend_and_republish_on_postgres(fresh_database):
    """`outbox backlog` counts unpublished rows; `republish standings` makes the newest
    section.completed of that section pending again (the relay sends it under its own id);
    `outbox resend` of an unknown id says so and exits 1."""
    url = await fresh_database()
    table = outbox_table(MetaData())
    engine = make_engine(url)
    published_at = datetime(2022, 11, 5, 12, tzinfo=UTC)
    older, newest, other = (str(uuid.uuid4()) for _ in range(3))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(table.metadata.create_all)
            rows = [
                (older, "section.completed", {"event_code": "sz", "section_id": "men", "revision": 1}, published_at),
                (newest, "section.completed", {"event_code": "sz", "section_id": "men", "revision": 2}, published_at),
                (other, "section.completed", {"event_code": "sz", "section_id": "women", "revision": 1}, None),
            ]
            await conn.execute(
                insert(table),
                [
                    {
                        "event_id": event_id,
                        "routing_key": key,
                        "body": json.dumps({"type": key, "payload": payload}).encode(),
                        "headers": {},
                        "published_at": at,
                    }
                    for event_id, key, payload, at in rows
                ],
            )
        db = f"pairing={url}"
        code, out, err = ops("--json", "outbox", "backlog", "--db", db)
        assert code == 0, err
        assert [(b["service"], b["pending"]) for b in json.loads(out)] == [("pairing", 1)]

        code, out, err = ops("republish", "standings", "sz", "men", "--db", db)
        assert code == 0 and newest in out, err
        async with engine.connect() as conn:
            pending = set(
                (await conn.execute(select(table.c.event_id).where(table.c.published_at.is_(None)))).scalars()
            )
        assert pending == {newest, other}  # the newest of that section, not the older revision

        code, out, err = ops("republish", "awards", "sz", "men", "--db", f"awards={url}")
        assert code == 1 and "no awards.published" in err

        code, out, _ = ops("outbox", "resend", "pairing", "no-such-event", "--db", db)
        assert code == 1 and "unknown: no-such-event" in out
        code, _out, err = ops("outbox", "backlog", env={"PAIRING_DATABASE_URL": ""})
        assert code == 2 and "--db" in err
    finally:
        await engine.dispose()


def test_wrong_usage_is_refused_with_a_message_not_a_traceback():
    code, _out, err = ops("dlq", "show", "nobody")
    assert code == 2 and "has no queue" in err and "Traceback" not in err
    code, _out, err = ops("check", "sz-2022", "--api-key", "k")
    assert code == 2 and "--url" in err
    code, _out, err = ops("outbox", "backlog", "--db", "pairing")
    assert code == 2 and "service=url" in err
