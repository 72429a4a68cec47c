"""Pairing service on SQLite + the in-memory bus: the round lifecycle from events (PAIR-11)."""
from __future__ import annotations

import pytest

from gomoku_shared.settings import ServiceSettings

from pairing_service_kit import ARB, KEYS, Harness, closed, players, rules


@pytest.fixture
async def svc(tmp_path):
    h = Harness(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS))
    await h.start()
    yield h
    await h.stop()


async def test_pair11_swiss_section_runs_all_rounds_to_one_completion(svc):
    """PAIR-11/PAIR-2: 20 players, 5 rounds from game.finished events → one section.completed."""
    await svc.send(closed("s1", players(20), rules(rounds=5)))
    await svc.settle()
    await svc.play_section("s1", 5)
    paired = svc.payloads("round.paired", "s1")
    assert [p.round for p in paired] == [1, 2, 3, 4, 5]
    assert all(len(p.pairings) == 10 for p in paired)
    done = svc.payloads("section.completed", "s1")
    assert len(done) == 1 and done[0].rounds_played == 5 and done[0].revision == 1
    assert [r.place for r in done[0].standings][0] == 1
    assert len(svc.payloads("standings.updated", "s1")) == 5
