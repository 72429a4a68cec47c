"""Two replicas of the pairing service on one PostgreSQL database, competing for game.finished
of the same section (in-memory bus here; RabbitMQ in test_pairing_service.py): the tournament row
lock (SELECT … FOR UPDATE) makes every round paired exactly once (PAIR-11)."""

from __future__ import annotations

from pairing_kit import KEYS, Harness, closed, players, rules

from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.settings import ServiceSettings
from pairing.bootstrap import build


async def test_pair11_two_replicas_on_postgresql_pair_each_round_once(fresh_database):
    url = await fresh_database()
    settings = ServiceSettings(DATABASE_URL=url, API_KEYS=KEYS, RELAY_POLL_S=0.05, CONSUMER_PREFETCH=4)
    bus = InMemoryEventBus()
    h = Harness(settings, bus=bus)
    await h.start()
    replica = build(settings, bus=bus, clock=h.clock)
    await replica.runtime.start()
    try:
        await h.send(closed("rep", players(32), rules(rounds=5, tie_policy="playoff", places=3)))
        await h.settle()
        await h.play_section("rep", 5)
        paired = h.payloads("round.paired", "rep")
        assert [p.round for p in paired] == [1, 2, 3, 4, 5]
        assert [u.after_round for u in h.payloads("standings.updated", "rep")] == [1, 2, 3, 4, 5]
        assert len(h.payloads("section.completed", "rep")) == 1
    finally:
        await replica.runtime.stop()
        await h.stop()
