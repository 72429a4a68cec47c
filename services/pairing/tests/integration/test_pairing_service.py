"""The pairing service on the real PostgreSQL and RabbitMQ (issue 5 service test). The test
plays gameplay's part: it reads each round.paired and publishes deterministic game.finished.
Two replicas share the database and the queue, so game.finished of one section are handled
concurrently: the tournament row lock keeps every round paired exactly once (PAIR-11)."""

from __future__ import annotations

import contextlib

import pytest
from pairing_kit import ARB, EV, KEYS, Harness, closed, players, rules, team_entrants

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.messaging.rabbit import RabbitEventBus
from gomoku_shared.settings import ServiceSettings
from pairing.bootstrap import build


@pytest.fixture
async def cluster(fresh_database, amqp_url, bus_namespace):
    url = await fresh_database()
    settings = ServiceSettings(
        DATABASE_URL=url, AMQP_URL=amqp_url, BUS_NAMESPACE=bus_namespace, API_KEYS=KEYS, RELAY_POLL_S=0.05
    )
    h = Harness(settings, observer_bus=RabbitEventBus(amqp_url, namespace=bus_namespace))
    await h.start()
    async with contextlib.AsyncExitStack() as stack:
        replica = build(settings, clock=h.clock)  # a second replica: competing consumer
        await stack.enter_async_context(replica.running())
        yield h
    await h.stop()


async def test_pair11_64_players_7_rounds_one_completion_and_replay_changes_nothing(cluster):
    """PAIR-11: section.closed for 64 → 7 rounds from game.finished → exactly one section.completed;
    a replayed game.finished (new event id) changes nothing; no round paired twice by the replicas."""
    h = cluster
    await h.send(closed("open64", players(64), rules(rounds=7)))
    await h.play_section("open64", 7)
    await h.wait_for(lambda: h.payloads("section.completed", "open64"), what="section.completed")
    paired = h.payloads("round.paired", "open64")
    assert [p.round for p in paired] == [1, 2, 3, 4, 5, 6, 7]
    seen = set()
    for p in paired:
        for s in p.pairings:
            pair = frozenset((s.first, s.second))
            assert pair not in seen  # PAIR-2: no rematch
            seen.add(pair)
    before = len(h.messages)
    await h.observer_bus.publish([encode(envelope_for(g, correlation_id=EV)) for g in h.sent[:5]])
    await h.settle()
    assert len(h.messages) == before
    done = h.payloads("section.completed", "open64")
    assert len(done) == 1 and done[0].rounds_played == 7 and len(done[0].standings) == 64
    assert len(h.payloads("standings.updated", "open64")) == 7


async def test_pair5_two_game_free_and_professional_sections_end(cluster):
    """PAIR-5: a two-game free section and a professional 5-round section both complete."""
    h = cluster
    await h.send(closed("free2", players(12), rules(rounds=3, two_game=True)))
    await h.send(
        closed(
            "pro5",
            players(10),
            rules(rounds=5, track="professional", tiebreaks=["points", "buchholz", "buchholz_of_buchholz"]),
        )
    )
    await h.play_section("free2", 3)
    await h.play_section("pro5", 5)
    free = h.payloads("section.completed", "free2")
    pro = h.payloads("section.completed", "pro5")
    assert len(free) == 1 and len(pro) == 1
    assert all(s.games == 2 for p in h.payloads("round.paired", "free2") for s in p.pairings)
    assert sum(r.points for r in free[0].standings) == 3 * 6 * 2
    assert all(s.ruleset.track == "professional" for p in h.payloads("round.paired", "pro5") for s in p.pairings)
    assert list(pro[0].standings[0].tiebreaks) == ["buchholz", "buchholz_of_buchholz"]


async def test_pair9_pair10_team_section_with_playoff_between_board_one_players(cluster):
    """PAIR-9/PAIR-10: 3-board team Swiss ends with team tiebreaks and AWD-7 board stats; a tie on
    a place that matters is played off by the board-1 players (PLAY-PLAYOFF)."""
    h = cluster
    await h.send(closed("nt", team_entrants(4), rules(kind="team", rounds=3, boards=3, tie_policy="playoff", places=4)))
    await h.play_section("nt", 3)
    await h.wait_for(lambda: h.payloads("section.completed", "nt"), what="section.completed")
    done = h.payloads("section.completed", "nt")
    assert len(done) == 1
    assert list(done[0].standings[0].tiebreaks) == [
        "opp_match_points",
        "median_opp_match_points",
        "total_game_points",
        "board_1_points",
        "board_2_points",
        "board_3_points",
    ]
    assert len(done[0].board_stats) == 12 and all(s.board_games == 3 for s in done[0].board_stats)
    assert not any(r.shared for r in done[0].standings if r.place <= 4)
    # two teams level on everything after a drawn match: the board-1 players play off (PAIR-10)
    await h.send(
        closed("nt2", team_entrants(2), rules(kind="team", rounds=1, boards=3, tie_policy="playoff", places=1))
    )
    await h.draw_round("nt2", 1)
    await h.wait_for(lambda: h.payloads("playoff.required", "nt2"), what="playoff.required")
    po = h.payloads("playoff.required", "nt2")[0]
    assert po.entrant_ids == ["t01", "t02"] and [(s.first, s.second) for s in po.pairings] == [("t01m1", "t02m1")]
    await h.play_playoffs("nt2")
    await h.wait_for(lambda: h.payloads("section.completed", "nt2"), what="section.completed nt2")
    final = h.payloads("section.completed", "nt2")[0]
    assert [(r.place, r.decided_by) for r in final.standings] == [(1, "playoff"), (2, "playoff")]
    assert all(s.games_played == 1 for s in final.board_stats)  # playoff games are not board games (AWD-7)


async def test_an_idempotency_key_is_bound_to_its_request_on_postgres(cluster):
    """An arbiter's keyed result entry: a retry is replayed (Idempotent-Replayed), the same key
    with another pairing's result is 409 idempotency_key_reused and changes nothing."""
    h = cluster
    await h.send(closed("keyed", players(6), rules(rounds=2)))
    await h.wait_for(lambda: h.payloads("round.paired", "keyed"), what="round 1 paired")
    first_p, second_p = h.payloads("round.paired", "keyed")[0].pairings[:2]
    url = f"/v1/events/{EV}/sections/keyed/rounds/1/results"
    key = {**ARB, "Idempotency-Key": "result-1"}
    body = {"pairing_id": first_p.pairing_id, "result": "first_wins"}
    r1 = await h.client.post(url, json=body, headers=key)
    r2 = await h.client.post(url, json=body, headers=key)
    assert r1.status_code == r2.status_code == 200 and r1.json() == r2.json(), (r1.text, r2.text)
    assert r2.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in r1.headers
    r3 = await h.client.post(url, json={"pairing_id": second_p.pairing_id, "result": "first_wins"}, headers=key)
    assert r3.status_code == 409 and r3.json()["error"]["code"] == "idempotency_key_reused", r3.text
    rd = (await h.client.get(f"/v1/events/{EV}/sections/keyed/rounds/1")).json()
    untouched = next(p for p in rd["pairings"] if p["pairing_id"] == second_p.pairing_id)
    assert untouched["result"] is None and untouched["result_source"] is None, untouched
