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


async def test_issue27_finding9_different_results_for_one_pairing_at_once_one_wins_on_sqlite(svc):
    """Issue 27 finding 9 on SQLite (the embedded mode): four different results for one pairing
    posted at once, first with no revision, then all naming revision 1: each time one is stored
    and the three others are 409 stale_revision with the stored result."""
    await svc.send(closed("a", players(4), rules(rounds=2)))
    await svc.settle()
    pairing_id = svc.payloads("round.paired", "a")[0].pairings[0].pairing_id
    url = f"{BASE}/a/rounds/1/results"

    async def race(results: list[str], **seen) -> str:
        answers = await asyncio.gather(
            *(svc.client.post(url, json={"pairing_id": pairing_id, "result": r, **seen}, headers=ARB) for r in results)
        )
        won = [a.json() for a in answers if a.status_code == 200]
        assert len(won) == 1, [a.text for a in answers]
        refused = [a.json()["error"] for a in answers if a.status_code != 200]
        assert [(e["code"], e["details"]["current"]["result"]) for e in refused] == [
            ("stale_revision", won[0]["result"])
        ] * 3
        return won[0]["result"]

    first = await race(["first_wins", "second_wins", "draw", "double_forfeit"])
    others = [r for r in ("first_wins", "second_wins", "draw", "double_forfeit", "first_forfeit_win") if r != first]
    assert await race(others, expected_revision=1) != first
    assert await svc.revision("a", 1, pairing_id) == 2
