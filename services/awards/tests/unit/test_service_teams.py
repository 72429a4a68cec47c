"""Awards service, teams: AWD-6 team scores from individual sections (SZ, NY), AWD-3 NT award
counts and AWD-7 best boards of played team sections."""

from __future__ import annotations

from awards_kit import completed, configured, ranked, row

from gomoku_shared.contracts.events import BoardStat


def _team(harness, team_id):
    pubs = harness.published(team_id)
    return pubs[-1] if pubs else None


async def test_awd6_sz_team_scored_once_both_sources_completed_and_recomputed_on_correction(harness):
    """AWD-6 SZ: best 2 men + best woman by place, place sum; a unit without a woman gets no
    team score; AWD-2 3 scored teams → 2 places awarded; a correction of a source republishes."""
    await harness.send(configured("sz-2022"))
    # men: A 1,4 | B 2,5 | C 3,6 | D 7,8 (D has no woman)
    men = ranked(8, "m", gender="male", units=["A", "B", "C", "A", "B", "C", "D", "D"])
    await harness.send(completed("sz-2022", "final-men", men, stage="final"))
    await harness.settle()
    assert _team(harness, "mixed-team") is None  # waiting for final-women
    team = (await harness.client.get("/v1/events/sz-2022/teams/mixed-team")).json()
    assert team["status"] == "pending" and team["missing_sources"] == ["final-women"]

    women = ranked(6, "w", gender="female", units=["C", "A", "B", "C", "A", "B"])
    await harness.send(completed("sz-2022", "final-women", women, stage="final"))
    await harness.settle()
    pub = _team(harness, "mixed-team")
    assert pub.kind == "team" and pub.revision == 1 and pub.stage == "final"
    ranking = [(r["unit_id"], r["place"], r["score"]) for r in pub.team_ranking]
    # A: 1+4+2 = 7, B: 2+5+3 = 10, C: 3+6+1 = 10 → tie: best single place C (1) before B (2)
    assert ranking[:3] == [("A", 1, "7"), ("C", 2, "10"), ("B", 3, "10")]
    assert ranking[3][0] == "D" and ranking[3][1] is None
    assert "not enough players" in pub.team_ranking[3]["note"]
    assert [p["items"] for p in pub.places] == [["trophy", "certificate"], ["certificate"], []]

    corrected = ranked(6, "w", gender="female", units=["B", "A", "C", "C", "A", "B"])
    await harness.send(completed("sz-2022", "final-women", corrected, stage="final", revision=2))
    await harness.settle()
    again = _team(harness, "mixed-team")
    assert (again.revision, again.supersedes) == (2, 1)
    # A: 1+4+2 = 7, B: 2+5+1 = 8, C: 3+6+3 = 12
    assert [(r["unit_id"], r["score"]) for r in again.team_ranking[:3]] == [("A", "7"), ("B", "8"), ("C", "12")]
    rows = (await harness.client.get("/v1/events/sz-2022/teams")).json()["teams"]
    mixed = next(t for t in rows if t["team_section_id"] == "mixed-team")
    assert mixed["status"] == "published" and mixed["publication"]["revision"] == 2


async def test_awd6_sz_cancelled_source_section_scores_nobody(harness):
    """AWD-2 + AWD-6: the junior girls' final with 4 players is cancelled, so no unit completes
    the junior mixed team; the ranking is published empty with every unit unscored."""
    await harness.send(configured("sz-2022"))
    await harness.send(
        completed("sz-2022", "final-junior-boys", ranked(6, "b", gender="male", units=["A", "B"]), stage="final")
    )
    await harness.send(
        completed("sz-2022", "final-junior-girls", ranked(4, "g", gender="female", units=["A", "B"]), stage="final")
    )
    await harness.settle()
    pub = _team(harness, "junior-mixed-team")
    assert pub is not None and pub.places == []
    assert [r["place"] for r in pub.team_ranking] == [None, None]


async def test_awd6_reg12_source_section_cancelled_at_closing_publishes_the_team_score_with_a_note(harness):
    """AWD-6 + REG-12 (issue 16, Build 8; SZ 十一(二), 十二(一)): the women's final, cancelled
    at closing, arrives as section.completed with ``cancelled``: its own publication is
    cancelled with the reason, and the mixed team score — pending until then — is published,
    computed from the men's final, counting the women's section as absent and saying so."""
    await harness.send(configured("sz-2022"))
    men = ranked(6, "m", gender="male", units=["A", "B", "A", "B", "C", "C"])
    await harness.send(completed("sz-2022", "final-men", men, stage="final"))
    await harness.settle()
    pending = (await harness.client.get("/v1/events/sz-2022/teams/mixed-team")).json()
    assert pending["status"] == "pending" and pending["missing_sources"] == ["final-women"]

    reason = "3 entries (at most 4): section cancelled"
    cancelled = completed("sz-2022", "final-women", [], stage="final", name="女子个人组").model_copy(
        update={"cancelled": True, "cancel_reason": reason, "rounds_played": 0}
    )
    await harness.send(cancelled)
    await harness.settle()
    [women] = harness.published("final-women")
    assert women.cancelled and women.places == [] and women.notes == [f"cancelled at closing: {reason}"]
    team = _team(harness, "mixed-team")
    assert team is not None and team.places == []
    assert {r["unit_id"]: r["place"] for r in team.team_ranking} == {"A": None, "B": None, "C": None}
    assert all("female: 0 of 1 (section cancelled)" in r["note"] for r in team.team_ranking)
    [note] = team.notes
    assert f"女子个人组 (cancelled at closing: {reason})" in note and "sections that were played" in note
    shown = (await harness.client.get("/v1/events/sz-2022/teams/mixed-team")).json()
    assert shown["status"] == "published" and shown["missing_sources"] == [] and shown["notes"] == [note]


async def test_awd6_ny_team_points_sum_with_tie_rules(harness):
    """AWD-6 NY: best boy + best girl of a unit, points sum (higher better); tie → lower place
    sum; tie → the unit whose boy placed higher."""
    await harness.send(configured("ny-2022"))
    boys = [
        row(1, "b1", gender="male", unit="X", points=12),
        row(2, "b2", gender="male", unit="Y", points=11),
        row(3, "b3", gender="male", unit="Z", points=10),
        row(4, "b4", gender="male", unit="W", points=9),
    ]
    girls = [
        row(1, "g1", gender="female", unit="Z", points=12),
        row(2, "g2", gender="female", unit="W", points=11),
        row(3, "g3", gender="female", unit="Y", points=9),
        row(4, "g4", gender="female", unit="X", points=8),
    ]
    await harness.send(completed("ny-2022", "youth-male", boys))
    await harness.send(completed("ny-2022", "youth-female", girls))
    await harness.settle()
    pub = _team(harness, "youth-team")
    # X 12+8=20 (1+4=5), Y 11+9=20 (2+3=5), Z 10+12=22, W 9+11=20 (4+2=6)
    # Z first; X and Y tie on points and place sum → X's boy placed higher; W last on place sum
    assert [(r["unit_id"], r["place"], r["score"]) for r in pub.team_ranking] == [
        ("Z", 1, "22"),
        ("X", 2, "20"),
        ("Y", 3, "20"),
        ("W", 4, "20"),
    ]
    assert [p["items"] for p in pub.places][:4] == [["certificate", "trophy"]] * 3 + [["certificate"]]


def _boards(teams: int, played: dict[str, int]) -> list[BoardStat]:
    """Board 1 of every team: 10 board games, `played` overrides per player."""
    stats = []
    for t in range(1, teams + 1):
        for board in (1, 2, 3):
            pid = f"t{t}b{board}"
            games = played.get(pid, 10)
            stats.append(
                BoardStat(
                    entrant_id=f"t{t}",
                    player_id=pid,
                    name=pid.upper(),
                    board=board,
                    games_played=games,
                    board_games=10,
                    points=2 * games - t,
                    wins=games - 1,
                )
            )
    return stats


async def test_awd3_awd7_nt_award_count_and_best_boards(harness):
    """AWD-3: 7 teams → top 6 awarded. AWD-7: one award per board; the board-1 player with the
    best score played 6 of 10 board games (60 % < 70 %) and is passed over; 7 of 10 is eligible."""
    await harness.send(configured("nt-2023"))
    standings = [row(i, f"t{i}", name=f"Team {i}", points=14 - i) for i in range(1, 8)]
    stats = _boards(7, {"t1b1": 6, "t2b1": 7})
    # the scores: t1b1 2*6-1 = 11 (ineligible), t2b1 2*7-2 = 12, t3b1 2*10-3 = 17 (best eligible)
    stats = [s.model_copy(update={"points": 30.0}) if s.player_id == "t1b1" else s for s in stats]
    await harness.send(
        completed(
            "nt-2023",
            "mixed-team",
            standings,
            kind="team",
            board_stats=stats,
            tiebreaks=["match_points", "opp_match_points"],
        )
    )
    await harness.settle()
    [pub] = harness.published("mixed-team")
    assert [bool(p["items"]) for p in pub.places] == [True] * 6 + [False]
    winners = {b["board"]: b["player_id"] for b in pub.best_boards}
    assert winners[1] == "t3b1" and winners[2] == "t1b2" and winners[3] == "t1b3"
    detail = (await harness.client.get("/v1/events/nt-2023/sections/mixed-team/best-boards")).json()
    board1 = next(b for b in detail["boards"] if b["board"] == 1)
    assert [c["player_id"] for c in board1["ineligible"]] == ["t1b1"]
    assert "t2b1" in [c["player_id"] for c in board1["eligible"]]
    certs = (
        await harness.client.get("/v1/events/nt-2023/sections/mixed-team/certificates", params={"entrant_id": "t3b1"})
    ).json()["rows"]
    assert certs[0]["lines"] == ["Best board 1", "certificate"] and certs[0]["unit_name"] == "Team 3"


async def test_awd7_participation_boundary_69_and_70_percent(harness):
    """AWD-7: 69 of 100 board games is not enough, 70 of 100 is (inclusive)."""
    await harness.send(configured("nt-2023"))
    standings = [row(1, "t1"), row(2, "t2")]
    stats = [
        BoardStat(
            entrant_id="t1", player_id="a", name="A", board=1, games_played=69, board_games=100, points=138, wins=69
        ),
        BoardStat(
            entrant_id="t2", player_id="b", name="B", board=1, games_played=70, board_games=100, points=100, wins=40
        ),
    ]
    await harness.send(
        completed("nt-2023", "junior-boys-team", standings, kind="team", board_stats=stats, tiebreaks=["match_points"])
    )
    await harness.settle()
    [pub] = harness.published("junior-boys-team")
    assert [(b["board"], b["player_id"]) for b in pub.best_boards] == [(1, "b")]
