"""Issue 27 finding 4: the circuit breaker of a receiver that keeps failing, and one delivery in
flight per subscription (embedded process, in-memory bus, SQLite, a real receiver on 127.0.0.1).

After WEBHOOK_BREAKER_AFTER failed attempts in a row, the subscription's deliveries wait
WEBHOOK_BREAKER_PAUSE_S (new ones too); then one attempt probes the receiver: a failure closes
nothing and they wait again, a success sends every waiting delivery at once."""

from __future__ import annotations

from datetime import UTC, datetime

from webhooks_kit import Receiver, awards_published, embedded_partners, free_port, messages, partner_auth, serving

from gomoku_shared.clock import FakeClock
from gomoku_shared.testing.bus import eventually

HOOKS = "/partners/v1/webhooks"


async def _log(client, auth) -> list[dict]:
    return (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]


async def test_finding4_a_failing_receiver_is_paused_then_probed_then_resumed(tmp_path):
    clock = FakeClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    settings = {
        "WEBHOOK_RETRY_SCHEDULE_S": "1,1,1,1,1,1",
        "WEBHOOK_DISABLE_AFTER": 100,
        "WEBHOOK_BREAKER_AFTER": 2,
        "WEBHOOK_BREAKER_PAUSE_S": 600,
    }
    receiver = Receiver(free_port(), status=503)
    async with embedded_partners(tmp_path, clock, **settings) as (suite, client), serving(receiver, receiver.port):
        webhooks = suite.services["partners"].extras["webhooks"]
        auth = await partner_auth(client, "app-one")
        body = {"url": receiver.url, "event_types": ["awards.published"]}
        assert (await client.post(f"{HOOKS}/subscriptions", headers=auth, json=body)).status_code == 201
        await suite.bus.publish(messages(awards_published(), awards_published(), awards_published()))
        # one at a time (one in flight per subscription): two fail, and the circuit opens
        await eventually(lambda: len(receiver.received) == 2, "two failed attempts")
        await suite.drain()
        assert await webhooks.deliver_due() == 0
        clock.advance(1)  # the retry schedule's 1 s has passed; the pause has not
        await suite.bus.publish(messages(awards_published()))  # a new one waits too
        await suite.drain()
        assert await webhooks.deliver_due() == 0 and len(receiver.received) == 2
        log = await _log(client, auth)
        assert len(log) == 4 and {d["status"] for d in log} == {"pending"}
        assert {d["last_error"] for d in log if d["attempts"]} == {"http_5xx"}

        clock.advance(600)  # the pause is over: one probe, which fails: the rest wait again
        await eventually(lambda: len(receiver.received) == 3, "the probe")
        await eventually(lambda: _attempted(client, auth, 3), "the probe, recorded")
        assert await webhooks.deliver_due() == 0 and len(receiver.received) == 3

        receiver.status = 200
        clock.advance(600)  # the next probe succeeds: every waiting delivery goes
        await eventually(lambda: _all_delivered(client, auth), "every delivery once the receiver answers")
    assert len(receiver.received) == 3 + 4 and len(set(receiver.ids()[3:])) == 4


async def _attempted(client, auth, total: int) -> bool:
    return sum(d["attempts"] for d in await _log(client, auth)) == total


async def _all_delivered(client, auth) -> bool:
    log = await _log(client, auth)
    return len(log) == 4 and all(d["status"] == "delivered" for d in log)
