"""Pairing service on SQLite + the in-memory bus: the round lifecycle from events (PAIR-11),
two-game rounds (PAIR-5), forfeits (PAIR-6), teams (PAIR-9/10), ties (PAIR-8)."""

from __future__ import annotations

import pytest
from pairing_kit import EV, Harness, closed, players, rules, sqlite_settings, team_entrants

from gomoku_shared.contracts import encode, envelope_for

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


@pytest.fixture
async def svc(tmp_path):
    h = Harness(sqlite_settings(tmp_path))
    await h.start()
    yield h
    await h.stop()


def _no_rematch(paired):
    seen = set()
    for p in paired:
        for s in p.pairings:
            pair = frozenset((s.first, s.second))
            assert pair not in seen, f"rematch {sorted(pair)} in round {p.round}"
            seen.add(pair)


async def test_pair11_swiss_section_runs_all_rounds_to_one_completion(svc):
    """PAIR-11/PAIR-2: 20 players, 5 rounds from game.finished events → exactly one section.completed;
    each round is paired only once its predecessor's results are all in; no rematch."""
    await svc.send(closed("s1", players(20), rules(rounds=5)))
    await svc.settle()
    assert [p.round for p in svc.payloads("round.paired", "s1")] == [1]
    await svc.play_section("s1", 5)
    paired = svc.payloads("round.paired", "s1")
    assert [p.round for p in paired] == [1, 2, 3, 4, 5]
    assert all(len(p.pairings) == 10 and p.pairings[0].pairing_id == f"r{p.round}.b1" for p in paired)
    _no_rematch(paired)
    done = svc.payloads("section.completed", "s1")
    assert len(done) == 1 and done[0].rounds_played == 5 and done[0].revision == 1
    st = done[0].standings
    assert [r.place for r in st][0] == 1 and len(st) == 20
    assert set(st[0].tiebreaks) == {"buchholz", "median_buchholz", "wins"}
    assert sum(r.points for r in st) == 5 * 10 * 2  # every game hands out 2 points (PAIR-4)
    assert [u.after_round for u in svc.payloads("standings.updated", "s1")] == [1, 2, 3, 4, 5]


async def test_pair11_replayed_game_finished_changes_nothing(svc):
    """A redelivered game.finished (new event id, same game) records nothing twice."""
    await svc.send(closed("s1", players(8), rules(rounds=3)))
    await svc.settle()
    await svc.play_round("s1", 1)
    before = len(svc.messages)
    g = svc.sent[0]
    await svc.observer_bus.publish([encode(envelope_for(g, correlation_id=EV))])
    await svc.settle()
    assert len(svc.messages) == before
    assert [p.round for p in svc.payloads("round.paired", "s1")] == [1, 2]


async def test_pair5_two_game_free_section_ends_with_round_points(svc):
    """PAIR-5: each pairing plays two games, first mover of game 1 = the paired first; round points
    2/1/0 from the pair; the section is paired on round results and completes."""
    await svc.send(closed("two", players(10), rules(rounds=4, two_game=True)))
    await svc.settle()
    r1 = svc.payloads("round.paired", "two")[0]
    assert all(s.games == 2 for s in r1.pairings)
    await svc.play_section("two", 4)
    done = svc.payloads("section.completed", "two")
    assert len(done) == 1
    assert sum(r.points for r in done[0].standings) == 4 * 5 * 2
    assert all(r.points in {0, 1, 2, 3, 4, 5, 6, 7, 8} for r in done[0].standings)


async def test_pair2_professional_five_round_section_ends(svc):
    """Professional 5-round Swiss (SZ online pro): rules travel in each PairingSpec; colour limits hold."""
    await svc.send(
        closed(
            "pro",
            players(16),
            rules(rounds=5, track="professional", tiebreaks=["points", "buchholz", "buchholz_of_buchholz"]),
        )
    )
    await svc.settle()
    await svc.play_section("pro", 5)
    paired = svc.payloads("round.paired", "pro")
    assert all(s.ruleset.track == "professional" for p in paired for s in p.pairings)
    colours: dict[str, list[int]] = {}
    for p in paired:
        for s in p.pairings:
            colours.setdefault(s.first, []).append(1)
            colours.setdefault(s.second, []).append(-1)
    assert all(abs(sum(c)) <= 2 for c in colours.values())  # PAIR-2 colour difference
    for c in colours.values():
        assert not any(c[i] == c[i + 1] == c[i + 2] for i in range(len(c) - 2))
    done = svc.payloads("section.completed", "pro")
    assert len(done) == 1 and set(done[0].standings[0].tiebreaks) == {"buchholz", "buchholz_of_buchholz"}


async def test_pair3_round_robin_odd_field_gives_one_bye_per_round(svc):
    """PAIR-3: Berger with 5 players: 5 rounds, one bye each, everybody meets everybody once."""
    await svc.send(closed("rr", players(5), rules(fmt="round_robin", rounds=5)))
    await svc.settle()
    await svc.play_section("rr", 5)
    paired = svc.payloads("round.paired", "rr")
    assert [len(p.byes) for p in paired] == [1] * 5
    _no_rematch(paired)
    assert sum(len(p.pairings) for p in paired) == 10
    done = svc.payloads("section.completed", "rr")[0]
    assert set(done.standings[0].tiebreaks) == {"sonneborn_berger", "wins"}


async def test_pair6_forfeit_counts_as_win_but_not_as_a_meeting(svc):
    """PAIR-6: a no-show forfeit gives the present player the win's points; forfeit games are not played games."""
    await svc.send(closed("ff", players(4), rules(rounds=3)))
    await svc.settle()
    r1 = svc.payloads("round.paired", "ff")[0]
    absent = r1.pairings[0].second
    await svc.play_round("ff", 1, forfeits={r1.pairings[0].pairing_id: absent})
    r = await svc.client.get(f"/v1/events/{EV}/sections/ff/rounds/1")
    assert r.status_code == 200
    assert r.json()["pairings"][0]["result"] == "first_forfeit_win"
    st = (await svc.client.get(f"/v1/events/{EV}/sections/ff/standings")).json()["standings"]
    by = {x["entrant_id"]: x for x in st}
    assert by[r1.pairings[0].first]["points"] == 2 and by[r1.pairings[0].first]["games_played"] == 0


async def test_pair9_pair10_team_section_ends_with_team_tiebreaks_and_board_stats(svc):
    """PAIR-9: three boards per match, the first-listed team moves first on boards 1 and 3;
    PAIR-10: team tiebreaks in the section's order; AWD-7 board stats per player per board."""
    order = [
        "match_points",
        "opp_match_points",
        "median_opp_match_points",
        "total_game_points",
        "board_1_points",
        "board_2_points",
        "board_3_points",
    ]
    await svc.send(closed("team", team_entrants(6), rules(kind="team", rounds=3, boards=3, tiebreaks=order)))
    await svc.settle()
    r1 = svc.payloads("round.paired", "team")[0]
    assert len(r1.pairings) == 9
    m1 = [s for s in r1.pairings if s.match_id == "r1.m1"]
    assert [s.pairing_id for s in m1] == ["r1.m1.b1", "r1.m1.b2", "r1.m1.b3"]
    listed = m1[0].first_team
    assert [s.first_team == listed for s in m1] == [True, False, True]
    await svc.play_section("team", 3)
    done = svc.payloads("section.completed", "team")
    assert len(done) == 1
    row = done[0].standings[0]
    assert list(row.tiebreaks) == order[1:]
    assert row.decided_by in (None, "tiebreak", "shared") and 0 <= row.wins <= 3
    assert sum(r.points for r in done[0].standings) == 3 * 3 * 2  # match points per match: 2
    stats = done[0].board_stats
    assert len(stats) == 18 and all(s.board_games == 3 for s in stats)
    assert sum(s.points for s in stats) == 3 * 9 * 2


async def test_pair8_tie_on_a_place_that_matters_goes_to_a_playoff(svc):
    """PAIR-8 / PLAY-PLAYOFF: a tie left after the tiebreaks on a medal place → playoff.required;
    the playoff's result orders the places and section.completed says decided_by=playoff."""
    # 2 players, 1 round, a draw: tied on everything, place 1 matters
    r = rules(rounds=1, tie_policy="playoff", places=1)
    await svc.send(closed("po", players(2), r))
    await svc.settle()
    spec = svc.payloads("round.paired", "po")[0].pairings[0]
    from gomoku_shared.contracts.events import GameFinished, PairingOutcome

    g = GameFinished(
        event_code=EV,
        section_id="po",
        round=1,
        pairing_id=spec.pairing_id,
        game_id="g",
        black=spec.first,
        white=spec.second,
        winner=None,
        result="draw",
        reason="agreement",
        outcome=PairingOutcome(first_points=1, second_points=1),
        first=spec.first,
        second=spec.second,
    )
    await svc.send(g)
    await svc.settle()
    po = svc.payloads("playoff.required", "po")
    assert len(po) == 1 and po[0].place_from == 1 and po[0].place_to == 2
    assert po[0].pairings[0].games == 2 and po[0].decider_clock == r.playoff_decider_clock
    sections = (await svc.client.get(f"/v1/events/{EV}/sections")).json()["sections"]
    assert sections[0]["status"] == "awaiting_playoff"
    assert not svc.payloads("section.completed", "po")
    await svc.play_playoffs("po")
    done = svc.payloads("section.completed", "po")
    assert len(done) == 1
    assert [(x.place, x.decided_by) for x in done[0].standings] == [(1, "playoff"), (2, "playoff")]


async def test_pair8_arbiter_decides_a_tie_when_playoffs_are_forbidden(svc):
    """PAIR-8 (SZ online): no playoff; the section waits (awaiting_arbiter) for the decision."""
    await svc.send(closed("arb", players(2), rules(rounds=1, tie_policy="arbiter", places=1)))
    await svc.settle()
    spec = svc.payloads("round.paired", "arb")[0].pairings[0]
    from gomoku_shared.contracts.events import GameFinished, PairingOutcome

    await svc.send(
        GameFinished(
            event_code=EV,
            section_id="arb",
            round=1,
            pairing_id=spec.pairing_id,
            game_id="g",
            black=spec.first,
            white=spec.second,
            winner=None,
            result="draw",
            reason="agreement",
            outcome=PairingOutcome(first_points=1, second_points=1),
        )
    )
    await svc.settle()
    assert not svc.payloads("playoff.required", "arb")
    ties = (await svc.client.get(f"/v1/events/{EV}/sections/arb/ties")).json()
    assert ties["status"] == "awaiting_arbiter" and len(ties["ties"]) == 1
    tie = ties["ties"][0]
    url = f"/v1/events/{EV}/sections/arb/ties/{tie['tie_id']}/decision"
    order = [spec.second, spec.first]
    assert (await svc.client.post(url, json={"order": order})).status_code == 401
    assert (await svc.client.post(url, json={"order": order}, headers={"x-api-key": "pa-key"})).status_code == 403
    assert (
        await svc.client.post(url, json={"order": [spec.first]}, headers={"x-api-key": "arb-key"})
    ).status_code == 422
    # issue 27 finding 9: a decision made on another revision of the tie is refused, nothing decided
    assert tie["revision"] == 1
    stale = await svc.client.post(url, json={"order": order, "expected_revision": 2}, headers={"x-api-key": "arb-key"})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_revision", stale.text
    current = stale.json()["error"]["details"]["current"]
    assert (current["tie_id"], current["revision"], current["status"]) == (tie["tie_id"], 1, "open")
    r = await svc.client.post(url, json={"order": order, "expected_revision": 1}, headers={"x-api-key": "arb-key"})
    assert r.status_code == 200, r.text
    await svc.settle()
    done = svc.payloads("section.completed", "arb")
    assert len(done) == 1 and done[0].flagged_ties == [[spec.first, spec.second]]
    assert [(x.entrant_id, x.place, x.decided_by) for x in done[0].standings] == [
        (spec.second, 1, "arbiter"),
        (spec.first, 2, "arbiter"),
    ]


async def test_pair11_same_inputs_give_byte_identical_events(tmp_path):
    """Determinism (docs/api.md, ids; docs/architecture.md, "Unit of work, outbox, inbox, relay"): two runs of the same section emit the same events (ids, payloads) byte for byte."""
    runs = []
    for k in range(2):
        h = Harness(sqlite_settings(tmp_path / f"run{k}"))
        await h.start()
        try:
            await h.send(closed("d", players(9), rules(rounds=3, tie_policy="playoff", places=3)))
            await h.settle()
            await h.play_section("d", 3)
            runs.append([(e.event_id, e.type, e.payload.model_dump_json()) for e in h.events(section_id="d")])
        finally:
            await h.stop()
    assert runs[0] == runs[1] and len(runs[0]) >= 7


async def test_play_playoff_four_way_tie_is_played_off_until_every_place_is_separated(svc):
    """PAIR-8 / PLAY-PLAYOFF: four players level on everything share places 1-4; every pair plays
    off, and players still level play again among themselves until the order is complete."""
    await svc.send(closed("four", players(4), rules(rounds=1, tie_policy="playoff", places=2)))
    await svc.settle()
    from gomoku_shared.contracts.events import GameFinished, PairingOutcome

    for s in svc.payloads("round.paired", "four")[0].pairings:
        await svc.send(
            GameFinished(
                event_code=EV,
                section_id="four",
                round=1,
                pairing_id=s.pairing_id,
                game_id=s.pairing_id,
                black=s.first,
                white=s.second,
                winner=None,
                result="draw",
                reason="agreement",
                outcome=PairingOutcome(first_points=1, second_points=1),
            )
        )
    await svc.settle()
    first = svc.payloads("playoff.required", "four")
    assert len(first) == 1 and len(first[0].pairings) == 6 and (first[0].place_from, first[0].place_to) == (1, 4)
    for _ in range(10):
        if not await svc.play_playoffs("four"):
            break
    stages = svc.payloads("playoff.required", "four")
    for later in stages[1:]:
        assert len(later.pairings) < 6 and set(later.entrant_ids) <= set(first[0].entrant_ids)
        assert all({p.first, p.second} <= set(later.entrant_ids) for p in later.pairings)
    done = svc.payloads("section.completed", "four")
    assert len(done) == 1
    assert [(r.place, r.shared, r.decided_by) for r in done[0].standings] == [
        (1, False, "playoff"),
        (2, False, "playoff"),
        (3, False, "playoff"),
        (4, False, "playoff"),
    ]


async def test_pair10_team_tie_is_played_off_by_board_one_players(svc):
    """PAIR-10: teams still level after every team tiebreak → playoff between the board-1 players;
    playoff games stay out of the board stats (AWD-7)."""
    await svc.send(
        closed("tt", team_entrants(2), rules(kind="team", rounds=1, boards=3, tie_policy="playoff", places=1))
    )
    await svc.settle()
    await svc.draw_round("tt", 1)
    po = svc.payloads("playoff.required", "tt")
    assert len(po) == 1 and [(s.first, s.second, s.first_team) for s in po[0].pairings] == [("t01m1", "t02m1", "t01")]
    await svc.play_playoffs("tt")
    done = svc.payloads("section.completed", "tt")
    assert [(r.place, r.decided_by) for r in done[0].standings] == [(1, "playoff"), (2, "playoff")]
    assert all(s.games_played == 1 and s.points == 1 for s in done[0].board_stats)


async def test_issue32_section_completed_carries_every_game_with_forfeits_flagged(svc):
    """Issue 32: section.completed lists every pairing's result (awards rates them); the
    no-show forfeit is flagged, so that it never counts for a rating (PAIR-6)."""
    await svc.send(closed("rated", players(4), rules(rounds=3)))
    await svc.settle()
    r1 = svc.payloads("round.paired", "rated")[0]
    absent = r1.pairings[0].second
    await svc.play_round("rated", 1, forfeits={r1.pairings[0].pairing_id: absent})
    for rnd in (2, 3):
        await svc.wait_for(lambda: any(p.round == rnd for p in svc.payloads("round.paired", "rated")), what="a round")
        await svc.play_round("rated", rnd)
    await svc.wait_for(
        lambda: svc.payloads("section.completed", "rated") or svc.payloads("playoff.required", "rated"), what="the end"
    )
    await svc.play_playoffs("rated")
    await svc.wait_for(lambda: svc.payloads("section.completed", "rated"), what="section.completed")
    games = svc.payloads("section.completed", "rated")[-1].games
    paired = {
        (p.round, s.pairing_id, s.first, s.second) for p in svc.payloads("round.paired", "rated") for s in p.pairings
    }
    assert {(g.round, g.pairing_id, g.first, g.second) for g in games} == paired and len(games) == 6
    forfeit = [g for g in games if g.forfeit]
    assert [(g.round, g.pairing_id, g.outcome) for g in forfeit] == [
        (1, r1.pairings[0].pairing_id, "first_forfeit_win")
    ]
    assert all(g.outcome in ("first_wins", "second_wins", "draw") for g in games if not g.forfeit)
