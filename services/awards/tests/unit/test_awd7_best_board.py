"""AWD-7: NT best-board award — one per board, ≥ 70 % of the board's games, playoff
games excluded, ordered by score, win rate, wins, team's place."""

from __future__ import annotations

from decimal import Decimal

import pytest

from awards.domain import (
    BestBoardConfig,
    BoardGame,
    BoardRecord,
    Outcome,
    best_boards,
    board_record_from_games,
    is_eligible,
)


def rec(
    pid: str, board: int = 1, played: int = 7, total: int = 7, points: int = 10, wins: int = 5, team: str | None = None
) -> BoardRecord:
    team = team or f"team-{pid}"
    return BoardRecord(pid, pid.upper(), team, team.upper(), board, played, total, points, wins)


@pytest.mark.parametrize(
    "played, total, eligible",
    [
        (69, 100, False),
        (70, 100, True),
        (71, 100, True),
        (4, 7, False),
        (5, 7, True),
        (7, 7, True),
        (0, 0, False),
    ],
)
def test_awd7_seventy_percent_threshold(played, total, eligible):
    """AWD-7: eligible when games played ≥ 70 % of the board's games (69 % is not enough)."""
    assert is_eligible(rec("x", played=played, total=total, wins=0), Decimal(70)) is eligible


def test_awd7_threshold_is_configurable():
    """AWD-7: the percentage comes from configuration."""
    assert is_eligible(rec("x", played=6, total=10, wins=0), Decimal(60))
    assert not is_eligible(rec("x", played=6, total=10, wins=0), Decimal("60.5"))


def test_awd7_69_vs_70_percent_in_the_award(seed):
    """AWD-7: the higher score at 69 % is passed over for the player at 70 %."""
    results = best_boards(
        "nt-mixed",
        [rec("a", played=69, total=100, points=130, wins=65), rec("b", played=70, total=100, points=100, wins=40)],
        {},
        seed.NT.best_board,
    )
    board1 = results[0]
    assert [w.record.player_id for w in board1.winners] == ["b"]
    assert [c.record.player_id for c in board1.ineligible] == ["a"]


def test_awd7_one_award_per_board(seed):
    """AWD-7: one result per board 1..3; a board with nobody eligible has no winner."""
    results = best_boards("nt-mixed", [rec("a", 1), rec("b", 2), rec("c", 3, played=3, wins=2)], {}, seed.NT.best_board)
    assert [(r.board, [w.record.player_id for w in r.winners]) for r in results] == [(1, ["a"]), (2, ["b"]), (3, [])]


@pytest.mark.parametrize(
    "a, b, winner, why",
    [
        (dict(points=11, wins=5), dict(points=10, wins=5), "a", "score"),
        (dict(points=10, wins=5, played=6), dict(points=10, wins=5, played=7), "a", "win rate 5/6 > 5/7"),
        (dict(points=10, wins=4, played=7, team="t2"), dict(points=10, wins=4, played=7, team="t1"), "b", "team place"),
    ],
)
def test_awd7_order_score_winrate_wins_team_place(seed, a, b, winner, why):
    """AWD-7 order: score, then win rate, then wins, then the team's place."""
    results = best_boards("nt-mixed", [rec("a", **a), rec("b", **b)], {"t1": 1, "t2": 2}, seed.NT.best_board)
    assert [w.record.player_id for w in results[0].winners] == [winner], why


def test_awd7_wins_after_equal_win_rate():
    """AWD-7: equal score and win rate (both 4/6 vs 6/9) — more wins is ahead."""
    cfg = BestBoardConfig(min_played_percent=Decimal(50))
    results = best_boards(
        "s", [rec("a", played=6, total=9, points=12, wins=4), rec("b", played=9, total=9, points=12, wins=6)], {}, cfg
    )
    assert [c.record.player_id for c in results[0].ranking] == ["b", "a"]


def test_awd7_fully_equal_candidates_share(seed):
    """AWD-7: equal on every criterion (same team place) → both listed as winners."""
    results = best_boards("s", [rec("a", team="t1"), rec("b", team="t2")], {"t1": 3, "t2": 3}, seed.NT.best_board)
    assert {w.record.player_id for w in results[0].winners} == {"a", "b"}


def test_awd7_playoff_games_excluded_and_absences_not_played():
    """AWD-7: playoff games do not count at all; an absence (forfeit loss) counts in the
    board's games but not as played; a forfeit win counts as a played win."""
    W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS
    games = [
        BoardGame(W, 2),
        BoardGame(D, 1),
        BoardGame(L, 0, absent=True),
        BoardGame(W, 2),
        BoardGame(W, 2),
        BoardGame(L, 0),
        BoardGame(L, 0, absent=True),
        BoardGame(W, 2, playoff=True),
        BoardGame(W, 2, playoff=True),
    ]
    r = board_record_from_games("p", "P", "t", "T", 1, games)
    assert (r.games_played, r.board_games, r.points, r.wins) == (5, 7, Decimal(7), 3)
    assert is_eligible(r, Decimal(70)) is True  # 5/7 = 71.4 %
    r2 = board_record_from_games("p", "P", "t", "T", 1, games + [BoardGame(L, 0, absent=True)])
    assert is_eligible(r2, Decimal(70)) is False  # 5/8 = 62.5 %


def test_awd7_records_must_be_consistent():
    """AWD-7: played ≤ board games, wins ≤ played; boards outside 1..3 refused."""
    with pytest.raises(ValueError):
        rec("x", played=8, total=7)
    with pytest.raises(ValueError):
        best_boards("s", [rec("x", board=4)], {}, BestBoardConfig())
