"""Conventions (issue 12 item 11): every timestamp the pairing API shows carries its offset, on
SQLite too (SQLite keeps no offset: a naive value read back would be shown without one)."""

from __future__ import annotations

import re

import pytest
from pairing_kit import ARB, EV, Harness, closed, players, rules, sqlite_settings

BASE = f"/v1/events/{EV}/sections"
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?")
OFFSET = re.compile(r"(Z|[+-]\d\d:\d\d)$")


def _timestamps(value, where="$"):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _timestamps(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _timestamps(v, f"{where}[{i}]")
    elif isinstance(value, str) and ISO_TIME.match(value):
        yield where, value


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


async def test_every_timestamp_in_the_pairing_api_carries_its_offset(svc):
    await svc.send(closed("a", players(6), rules(rounds=2)))
    await svc.settle()
    spec = svc.payloads("round.paired", "a")[0].pairings[0]
    r = await svc.client.post(
        f"{BASE}/a/rounds/1/results", json={"pairing_id": spec.pairing_id, "result": "draw"}, headers=ARB
    )
    assert r.status_code == 200, r.text
    await svc.play_section("a", 2)
    found = []
    for path in ("", "/a", "/a/rounds/1", "/a/rounds/2", "/a/standings", "/a/ties", "/a/byes", "/a/audit"):
        r = await svc.client.get(BASE + path, headers=ARB)
        assert r.status_code == 200, (path, r.text)
        found += [(path, *t) for t in _timestamps(r.json())]
    assert {p for p, *_ in found} >= {"/a/rounds/1", "/a/audit"}, found  # the check saw timestamps
    assert [t for t in found if not OFFSET.search(t[2])] == []
