"""Webhooks in the embedded process (in-memory bus, SQLite) with real receivers on
127.0.0.1: subscriptions per partner, deliveries of its own players' pairings and results
only, signatures a receiver verifies with the standardwebhooks library, retries on the
service clock, the disable rule, the delivery log and redelivery."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook
from webhooks_kit import (
    Receiver,
    awards_published,
    embedded_partners,
    free_port,
    game_finished,
    game_started,
    messages,
    pairing,
    partner_auth,
    playoff_required,
    round_paired,
    serving,
)

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts.events import RoundRescheduled
from gomoku_shared.testing.bus import eventually

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
HOOKS = "/partners/v1/webhooks"


@pytest.fixture
async def suite(tmp_path):
    clock = FakeClock(START)
    retrying = {"WEBHOOK_RETRY_SCHEDULE_S": "60,600", "WEBHOOK_DISABLE_AFTER": 4}
    async with embedded_partners(tmp_path, clock, **retrying) as (s, c):
        yield s, c, clock


async def _subscribe(client, auth, url: str, types=("round.paired", "game.finished", "awards.published")) -> dict:
    r = await client.post(f"{HOOKS}/subscriptions", headers=auth, json={"url": url, "event_types": list(types)})
    assert r.status_code == 201, r.text
    return r.json()


async def test_each_partner_receives_its_own_players_pairings_and_results_signed(suite):
    s, c, _ = suite
    one, two = await partner_auth(c, "app-one"), await partner_auth(c, "app-two")
    first, second = Receiver(free_port()), Receiver(free_port())
    sub_one = await _subscribe(c, one, first.url)
    sub_two = await _subscribe(c, two, second.url)
    async with serving(first, first.port), serving(second, second.port):
        await s.bus.publish(
            messages(
                round_paired(
                    pairing("p1", "a1", "a2", "app-one", "app-one"), pairing("p2", "b1", "b2", "app-two", None)
                ),
                game_finished("p1", "a1", "a2"),
                awards_published(),
            )
        )
        await eventually(lambda: len(first.received) == 3 and len(second.received) == 2, "the deliveries")
    by_type = {b["type"]: b["data"] for b in first.bodies()}
    assert [p["pairing_id"] for p in by_type["round.paired"]["pairings"]] == ["p1"]
    assert by_type["game.finished"]["pairing_id"] == "p1"
    assert by_type["awards.published"]["places"] == [{"place": 1, "name": "Ann"}]  # no birth date
    # deliveries are sent concurrently: no order between them
    seen_by_two = {b["type"]: b["data"] for b in second.bodies()}
    assert sorted(seen_by_two) == ["awards.published", "round.paired"]
    assert [p["pairing_id"] for p in seen_by_two["round.paired"]["pairings"]] == ["p2"]
    for receiver, sub in ((first, sub_one), (second, sub_two)):
        for headers, body in receiver.received:
            Webhook(sub["secret"]).verify(body, headers)
    log = (await c.get(f"{HOOKS}/deliveries", headers=one)).json()["items"]
    assert {d["status"] for d in log} == {"delivered"} and len(log) == 3
    assert all(d["last_status_code"] == 200 and d["attempts"] == 1 for d in log)
    assert sorted(d["delivery_id"] for d in log) == sorted(first.ids())


async def test_game_starts_and_playoff_results_go_to_the_partners_of_the_two_players(suite):
    s, c, _ = suite
    one, two = await partner_auth(c, "app-one"), await partner_auth(c, "app-two")
    first, second = Receiver(free_port()), Receiver(free_port())
    types = ("game.started", "game.finished")
    await _subscribe(c, one, first.url, types=types)
    await _subscribe(c, two, second.url, types=types)
    async with serving(first, first.port), serving(second, second.port):
        await s.bus.publish(
            messages(
                round_paired(pairing("p1", "a1", "b1", "app-one", "app-two")),
                playoff_required(pairing("po1-1", "a1", "a2", "app-one", "app-one")),
            )
        )
        await s.drain()
        await s.bus.publish(
            messages(game_started("p1", "a1", "b1"), game_finished("po1-1", "a1", "a2"), game_finished("zz", "x", "y"))
        )
        await eventually(lambda: len(first.received) == 2 and len(second.received) == 1, "the deliveries")
        await s.drain()
        assert await _webhooks(s).deliver_due() == 0  # nothing more was written
    # playoff.required is no webhook of its own; an unknown pairing's result goes to nobody
    assert sorted((b["type"], b["data"]["pairing_id"]) for b in first.bodies()) == [
        ("game.finished", "po1-1"),
        ("game.started", "p1"),
    ]
    assert [(b["type"], b["data"]["pairing_id"]) for b in second.bodies()] == [("game.started", "p1")]


async def test_a_failing_receiver_is_retried_on_the_service_clock_then_disabled_with_a_notice(suite):
    s, c, clock = suite
    auth = await partner_auth(c, "app-one")
    receiver = Receiver(free_port(), status=503)
    sub = await _subscribe(c, auth, receiver.url)
    async with serving(receiver, receiver.port):
        await s.bus.publish(messages(round_paired(pairing("p1", "a1", "a2", "app-one", None))))
        await eventually(lambda: _attempts(c, auth, 1), "the first attempt, recorded")
        # no retry before its time on the service clock
        clock.advance(59)
        assert await _webhooks(s).deliver_due() == 0
        log = (await c.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
        assert log[0]["status"] == "pending" and log[0]["attempts"] == 1 and log[0]["last_status_code"] == 503
        clock.advance(1)
        await eventually(lambda: _attempts(c, auth, 2), "the retry at 60 s, recorded")
        clock.advance(600)
        await eventually(lambda: len(receiver.received) == 3, "the retry at 600 s")
        await eventually(lambda: _status(c, auth, "failed"), "the delivery failed once its schedule is spent")
        # one more failing delivery reaches WEBHOOK_DISABLE_AFTER=4 attempts in a row
        await s.bus.publish(messages(awards_published()))
        await eventually(lambda: len(receiver.received) == 4, "the fourth failed attempt")
        await eventually(lambda: _sub_status(c, auth, sub["subscription_id"], "disabled"), "the disable")
        shown = (await c.get(f"{HOOKS}/subscriptions/{sub['subscription_id']}", headers=auth)).json()
        assert shown["notice"] and "4 failed attempts" in shown["notice"] and shown["disabled_at"]
        # disabled: nothing is sent, even when due
        clock.advance(600)
        assert await _webhooks(s).deliver_due() == 0
        assert len(receiver.received) == 4
        # the receiver is fixed: enable, and redeliver the failed one with its webhook-id
        receiver.status = 200
        assert (await c.post(f"{HOOKS}/subscriptions/{sub['subscription_id']}/enable", headers=auth)).status_code == 200
        await eventually(lambda: len(receiver.received) == 5, "the pending delivery after enabling")
        failed = (await c.get(f"{HOOKS}/deliveries?status=failed", headers=auth)).json()["items"]
        assert len(failed) == 1
        r = await c.post(f"{HOOKS}/deliveries/{failed[0]['delivery_id']}/redeliver", headers=auth)
        assert r.status_code == 200, r.text
        await eventually(lambda: len(receiver.received) == 6, "the redelivery")
    assert receiver.ids()[5] == receiver.ids()[0] == failed[0]["delivery_id"]
    log = (await c.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    assert {d["status"] for d in log} == {"delivered"}


def _webhooks(suite):
    return suite.services["partners"].extras["webhooks"]


async def _attempts(client, auth, attempts: int) -> bool:
    items = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    return (
        bool(items)
        and items[-1]["attempts"] == attempts
        and items[-1]["next_attempt_at"] != items[-1]["last_attempt_at"]
    )


async def _status(client, auth, status: str) -> bool:
    items = (await client.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
    return bool(items) and items[0]["status"] == status


async def _sub_status(client, auth, subscription_id: str, status: str) -> bool:
    return (await client.get(f"{HOOKS}/subscriptions/{subscription_id}", headers=auth)).json()["status"] == status


async def test_subscriptions_are_validated_scoped_and_private_to_their_partner(suite):
    _, c, _ = suite
    one, two = await partner_auth(c, "app-one"), await partner_auth(c, "app-two")
    reader = await partner_auth(c, "app-three", scopes=("results:read",))
    body = {"url": "https://hooks.example.org/h", "event_types": ["round.paired"]}
    assert (await c.post(f"{HOOKS}/subscriptions", headers=reader, json=body)).status_code == 403
    assert (await c.post(f"{HOOKS}/subscriptions", json=body)).status_code == 401
    # plain http to an address that is not loopback, even with the development setting on
    bad_url = await c.post(f"{HOOKS}/subscriptions", headers=one, json={**body, "url": "http://example.org/h"})
    assert bad_url.status_code == 400 and bad_url.json()["error"]["code"] == "webhook_target_not_public"
    bad_url = await c.post(f"{HOOKS}/subscriptions", headers=one, json={**body, "url": "ftp://example.org/h"})
    assert bad_url.status_code == 422 and bad_url.json()["error"]["code"] == "invalid_url"
    bad_type = await c.post(f"{HOOKS}/subscriptions", headers=one, json={**body, "event_types": ["entry.accepted"]})
    assert bad_type.status_code == 422
    sub = await _subscribe(c, one, body["url"], types=["round.paired"])
    assert "secret" not in (await c.get(f"{HOOKS}/subscriptions", headers=one)).json()["items"][0]
    assert (await c.get(f"{HOOKS}/subscriptions", headers=two)).json()["items"] == []
    path = f"{HOOKS}/subscriptions/{sub['subscription_id']}"
    for method, url in (("GET", path), ("DELETE", path), ("POST", f"{path}/rotate-secret"), ("POST", f"{path}/enable")):
        r = await c.request(method, url, headers=two, json={} if method == "POST" else None)
        assert r.status_code == 404, (method, url, r.text)
    rotated = await c.post(f"{path}/rotate-secret", headers=one, json={"grace_s": 3600})
    assert rotated.status_code == 200 and rotated.json()["secret"] != sub["secret"]
    assert rotated.json()["previous_secret_valid_until"] == (START + timedelta(hours=1)).isoformat()
    assert (await c.delete(path, headers=one)).status_code == 204
    assert (await c.get(path, headers=one)).status_code == 404
    # a cursor no page gave out: 400 bad_cursor, as every list answers (issue 27 finding 10)
    assert (await c.get(f"{HOOKS}/deliveries?cursor=nonsense", headers=one)).status_code == 400


async def test_evt7_a_delayed_round_reaches_every_subscriber_signed(suite):
    """EVT-7: round.rescheduled (an arbiter delayed a round) is a public webhook: every partner
    subscribed to it receives the new start, the previous one and the reason."""
    s, c, _ = suite
    one, two = await partner_auth(c, "app-one"), await partner_auth(c, "app-two")
    first, second = Receiver(free_port()), Receiver(free_port())
    sub_one = await _subscribe(c, one, first.url, types=("round.rescheduled",))
    await _subscribe(c, two, second.url, types=("round.paired",))  # not subscribed to delays
    moved = RoundRescheduled(
        event_code="WH",
        stage="main",
        section_id="S1",
        round=2,
        starts_at=START + timedelta(hours=2),
        previous_starts_at=START + timedelta(hours=1),
        reason="the hall opens late",
        decided_by="k2",
        decided_at=START,
    )
    async with serving(first, first.port), serving(second, second.port):
        await s.bus.publish(messages(moved))
        await eventually(lambda: len(first.received) == 1, "the delivery")
        await s.drain()
        assert await _webhooks(s).deliver_due() == 0
    [body] = first.bodies()
    assert body["type"] == "round.rescheduled"
    assert (body["data"]["round"], body["data"]["reason"]) == (2, "the hall opens late")
    assert datetime.fromisoformat(body["data"]["starts_at"]) == START + timedelta(hours=2)
    headers, raw = first.received[0]
    Webhook(sub_one["secret"]).verify(raw, headers)
    assert second.received == []
