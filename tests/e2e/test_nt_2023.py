"""NT 2023 end to end (embedded): 3-board team matches, team tiebreaks, award counts, best boards."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from .delegations import assert_one_delegation_by_roster
from .harness import (
    FAST,
    assert_played_within,
    assert_records_checked,
    assert_rounds_on_schedule,
    games_of,
    modes_by_stage,
    publication,
    run_embedded,
    spec,
)

SIZES = {"mixed-team": 7, "junior-boys-team": 4, "junior-girls-team": 0}


def check_nt(summary: dict) -> None:
    """The NT assertions, shared with the distributed run."""
    # PLAY-9 / PLAY-10, NT 十二(五): every game over the board, recorded live, results from slips
    assert modes_by_stage(summary) == {"main": {"offline"}}
    members = {}  # player id -> (team entry id, board)
    for e in summary["entries"]["main"]:
        if e["status"] == "accepted":
            for p in e["players"]:
                members[p["player_id"]] = (e["entry_id"], p["board"])

    for sid, n_teams, places in (("mixed-team", 7, 6), ("junior-boys-team", 4, 3)):
        rows = summary["sections"][sid]["standings"]
        assert len(rows) == n_teams
        # PAIR-9: each match is three games, board k against board k, boards fixed at registration;
        # the first-listed team moves first on boards 1 and 3, the other on board 2
        matches = defaultdict(dict)
        for gid, g in games_of(summary, sid).items():
            match, board = gid.rsplit(".", 3)[0], int(gid.rsplit(".", 2)[1].lstrip("b"))
            matches[match][board] = g
        assert matches
        match_points = defaultdict(int)
        for match, boards in matches.items():
            assert sorted(boards) == [1, 2, 3], match
            first_mover_team = {}
            game_points = defaultdict(int)
            for b, g in boards.items():
                tentative_black = g["white"] if g["opening"].get("swapped") else g["black"]
                for pid in (g["black"], g["white"]):
                    assert members[pid][1] == b, (match, b, pid)  # PAIR-9 fixed boards
                first_mover_team[b] = members[tentative_black][0]
                for pid in (g["black"], g["white"]):
                    team = members[pid][0]
                    game_points[team] += 2 if g["winner"] == pid else (1 if g["winner"] is None else 0)
            assert first_mover_team[1] == first_mover_team[3] != first_mover_team[2], match
            a, b = sorted(game_points)
            match_points[a] += 2 if game_points[a] > game_points[b] else (1 if game_points[a] == game_points[b] else 0)
            match_points[b] += 2 if game_points[b] > game_points[a] else (1 if game_points[a] == game_points[b] else 0)
        for r in rows:  # PAIR-9: match points 2/1/0 (+ a bye's match points)
            assert r["points"] >= match_points[r["entrant_id"]], r
        # PAIR-10: the team tiebreaks of the section's format
        names = set(rows[0]["tiebreaks"])
        assert {"total_game_points", "board_1_points", "board_2_points", "board_3_points"} <= names
        assert names & {"opp_match_points", "sonneborn_berger_match"}
        # AWD-3: places awarded by field size (>= 11: 8, 7-10: 6, < 7: 3)
        pub = publication(summary, sid)
        assert max(p["place"] for p in pub["places"] if p["items"]) == places, sid
        # AWD-7: one best-board award per board, to players with >= 70 % of their board's games
        bb = pub["best_boards"]
        assert sorted(x["board"] for x in bb) == [1, 2, 3], bb
        for x in bb:
            assert x["games_played"] * 100 >= 70 * x["board_games"], x
            assert members[x["player_id"]][1] == x["board"]


async def test_nt_2023_team_matches_tiebreaks_awards(tmp_path):
    """PAIR-9 3-board matches with fixed boards; PAIR-10 team tiebreaks; AWD-3 award count by
    field size; AWD-7 best-board awards; REG-8 a player registered with another unit refused."""
    summary, driver = await run_embedded(tmp_path, spec("nt-2023", 4, SIZES, policy=FAST))
    # issue 34 (NT 十(一): 各单位统一报名): one delegation entered through the roster door
    assert_one_delegation_by_roster(driver, summary)
    # EVT-7: every round started at its scheduled time on the fake clock
    assert_rounds_on_schedule(summary["event_code"])
    # ... on the regulation's days (NT: 时间 2023年6月22日至24日)
    assert_played_within(summary["event_code"], driver.config.timezone, date(2023, 6, 22), date(2023, 6, 24))
    # PLAY-9, NT 十二(五) (每局比赛后须记录棋谱): every record entered after the game, checked by the
    # engine; the one written with a forbidden move was flagged to the arbiter and corrected
    assert_records_checked(driver.venue, summary)
    assert summary["registrations"]["mixed-team-x-unit"]["status"] == "refused"
    check_nt(summary)
