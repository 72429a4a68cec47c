"""Concurrent writes to one section (PAIR-11): the arbiter entering several results at once, on
SQLite too, where FOR UPDATE locks nothing. Each write reads the section's event sequence and
emits the next one; two writes that read the same sequence would emit one event id twice (the
outbox refuses it: a 500). Every result must count and every event id be distinct."""

from __future__ import annotations

import asyncio

import pytest
from pairing_kit import ARB, EV, Harness, closed, players, rules, sqlite_settings

BASE = f"/v1/events/{EV}/sections"


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def test_pair11_results_entered_at_once_all_count_with_distinct_event_ids(svc):
    await svc.send(closed("a", players(16), rules(rounds=3)))
    await svc.settle()
    first = svc.payloads("round.paired", "a")[0]
    url = f"{BASE}/a/rounds/1/results"

    async def enter(pairing_id: str):
        return await svc.client.post(url, json={"pairing_id": pairing_id, "result": "draw"}, headers=ARB)

    answers = await asyncio.gather(*(enter(p.pairing_id) for p in first.pairings))
    assert [a.status_code for a in answers] == [200] * len(first.pairings), [a.text for a in answers]
    await svc.settle()
    assert [p.round for p in svc.payloads("round.paired", "a")] == [1, 2]
    rounds = (await svc.client.get(f"{BASE}/a/rounds/1")).json()["pairings"]
    assert {p["result"] for p in rounds} == {"draw"}
