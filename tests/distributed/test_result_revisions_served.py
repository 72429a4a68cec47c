"""Arbiters cannot overwrite each other's results unseen (issue 27 finding 9), over real sockets
against two served pairing processes (two replicas, the docker-compose.yml command) on one
PostgreSQL database and RabbitMQ.

Before the fix, four different results posted for one pairing at the same moment by two arbiters
all answered ``200 {"changed": true}`` and the last one won. Now every write names the result's
revision it saw (``expected_revision``): of four different results posted at once, exactly one is
stored and the three others are 409 ``stale_revision`` with the stored result in their body —
both for a first entry (no result yet, no revision needed) and for a correction (every writer
names the same revision); a correction naming an older revision is refused the same way.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import SectionClosed
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

EV = "REV"
SEC = f"/v1/events/{EV}/sections/open"
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
#: two arbiters, each with a key of their own
KEYS = "op-key=operator,arb-a=arbiter,arb-b=arbiter"
ARBITERS = ({"x-api-key": "arb-a"}, {"x-api-key": "arb-b"})
RESULTS = ("first_wins", "second_wins", "draw", "first_forfeit_win", "second_forfeit_win", "double_forfeit")


def _closed() -> SectionClosed:
    rules = SectionRules(
        rounds=2,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )
    entrants = [Entrant(entrant_id=f"p{i}", name=f"Player {i}", gender="male", rating=2000 - i) for i in range(1, 7)]
    return SectionClosed(
        event_code=EV, stage="main", section_id="open", name="Open", status="ready", rules=rules, entrants=entrants
    )


async def _round_one(client: httpx.AsyncClient) -> dict:
    async with asyncio.timeout(60):
        while True:
            r = await client.get(f"{SEC}/rounds/1")
            if r.status_code == 200 and r.json()["pairings"]:
                return r.json()
            await asyncio.sleep(0.2)


async def _at_once(clients: list[httpx.AsyncClient], pairing_id: str, results: list[str], **seen) -> list:
    """Each result posted by its own connection, alternating the two arbiters and the two
    replicas, all released together."""
    posts = [
        client.post(
            f"{SEC}/rounds/1/results",
            json={"pairing_id": pairing_id, "result": result, **seen},
            headers=ARBITERS[n % 2],
        )
        for n, (client, result) in enumerate(zip(clients, results, strict=True))
    ]
    return list(await asyncio.gather(*posts))


def _one_wins(answers: list, revision: int) -> str:
    """Exactly one 200 that changed the result to ``revision``; every other answer is 409
    ``stale_revision`` naming that stored result. The winner's result."""
    won = [a for a in answers if a.status_code == 200]
    assert len(won) == 1, [a.text for a in answers]
    stored = won[0].json()
    assert stored["changed"] is True and stored["revision"] == revision, stored
    for answer in answers:
        if answer is won[0]:
            continue
        assert answer.status_code == 409, answer.text
        error = answer.json()["error"]
        assert error["code"] == "stale_revision", error
        current = error["details"]["current"]
        assert (current["result"], current["revision"], current["result_source"]) == (
            stored["result"],
            revision,
            "arbiter",
        ), error
        # who changed it: the arbiter's key id (k2, k3: the order of API_KEYS; never the key)
        assert current["changed_by"] in ("k2", "k3") and current["changed_at"], current
    return stored["result"]


async def test_issue27_finding9_concurrent_results_by_two_arbiters_one_wins_the_others_409_served(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    """Issue 27 finding 9: four different results for one pairing posted at once by two arbiters
    through two pairing replicas: one 200, three 409 with the current result (a first entry,
    then a correction on the same revision); a correction on an old revision: 409; the stored
    result, the round's read and the audit agree on the one write that won each time."""
    database = await fresh_database()
    stack = LocalCompose(
        database_urls={"pairing": database},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": START.isoformat(), "RELAY_POLL_S": "0.2"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    clients: list[httpx.AsyncClient] = []
    try:
        await asyncio.to_thread(stack.migrate, "pairing")
        replicas = [stack.start("pairing"), stack.start("pairing", replica=1)]
        for replica in replicas:
            await asyncio.to_thread(stack.wait_ready, replica.name)
        await publisher.start()
        await publisher.publish([encode(envelope_for(_closed(), correlation_id=EV, occurred_at=START))])
        # four connections, two to each replica, opened before the race
        clients = [httpx.AsyncClient(base_url=replicas[n % 2].url, timeout=30) for n in range(4)]
        rnd = await _round_one(clients[0])
        for client in clients:
            assert (await client.get(f"{SEC}/rounds/1")).status_code == 200
        pairing = rnd["pairings"][0]
        pairing_id = pairing["pairing_id"]
        assert (pairing["result"], pairing["revision"]) == (None, 0)

        # a first entry: no result yet, so no revision is needed, but only one may be first
        first = _one_wins(await _at_once(clients, pairing_id, list(RESULTS[:4])), revision=1)

        # a correction: all four name revision 1, the one they saw
        others = [result for result in RESULTS if result != first][:4]
        corrected = _one_wins(await _at_once(clients, pairing_id, others, expected_revision=1), revision=2)
        assert corrected != first

        # a correction on the result before (revision 1) is refused with the current one
        old = next(result for result in RESULTS if result not in (first, corrected))
        late = await clients[1].post(
            f"{SEC}/rounds/1/results",
            json={"pairing_id": pairing_id, "result": old, "expected_revision": 1},
            headers=ARBITERS[1],
        )
        assert late.status_code == 409 and late.json()["error"]["code"] == "stale_revision", late.text
        assert late.json()["error"]["details"]["current"]["result"] == corrected

        # both replicas read the one result that won, at revision 2; two results audited
        for client in clients[:2]:
            shown = next(
                p for p in (await client.get(f"{SEC}/rounds/1")).json()["pairings"] if p["pairing_id"] == pairing_id
            )
            assert (shown["result"], shown["revision"], shown["result_source"]) == (corrected, 2, "arbiter")
        audit = (await clients[0].get(f"{SEC}/audit", headers=ARBITERS[0])).json()["audit"]
        results = [record for record in audit if record["action"] == "result"]
        assert len(results) == 2, results
        assert results[1]["details"]["pairing_id"] == pairing_id
    finally:
        for client in clients:
            await client.aclose()
        await publisher.close()
        stack.stop_all()
