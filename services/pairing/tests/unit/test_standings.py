"""PAIR-7 standings with every tiebreak, REG-12 gender ranking, PAIR-8 ties and playoffs, PAIR-10."""

from pairing.domain.model import Board, Code, Outcome, Player, RoundPairing, Tournament, record_round
from pairing.domain.playoffs import ARBITER, PLAYOFF, apply_playoff, ties_needing_decision
from pairing.domain.ranking import rank
from pairing.domain.standings import ORDER_SWISS, cross_table, standings, standings_by_gender
from pairing.domain.teams import (
    ORDER_TEAM_ROUND_ROBIN,
    ORDER_TEAM_SWISS,
    Team,
    TeamTournament,
    board_one_players,
    pair_team_round_robin,
    pair_team_swiss_round,
    record_team_round,
    team_standings,
    team_values,
)


def _four():
    t = Tournament(
        players=(
            Player(1, "A", gender="m"),
            Player(2, "B", gender="f"),
            Player(3, "C", gender="m"),
            Player(4, "D", gender="f"),
        ),
        rounds_planned=2,
    )
    t = record_round(t, RoundPairing(1, (Board(1, 2), Board(3, 4))), {0: Outcome.FIRST_WINS, 1: Outcome.FIRST_WINS})
    t = record_round(t, RoundPairing(2, (Board(4, 1), Board(2, 3))), {0: Outcome.DRAW, 1: Outcome.DRAW})
    return t


def test_pair7_standings_list_every_tiebreak_and_mark_shared_places():
    rows = standings(_four(), ORDER_SWISS)
    assert [r.id for r in rows] == [1, 3, 2, 4]
    assert list(rows[0].values) == ["PTS", "BH", "BH/M1", "WIN"]
    # 1 and 3 both 3 pts; BH 1: 2(1)+4(1)=2, 3: 4(1)+2(1)=2; equal everywhere -> shared 1-2
    assert rows[0].place_label == "1-2" and rows[1].place_label == "1-2"
    assert rows[2].place_label == "3-4"
    row = rows[0].as_dict()
    assert row["shared"] is True and row["BH"] == 2


def test_reg12_merged_section_ranked_by_gender_separately():
    by = standings_by_gender(_four(), ORDER_SWISS)
    assert [r.id for r in by["m"]] == [1, 3] and [r.id for r in by["f"]] == [2, 4]
    assert by["f"][0].place == 1


def test_cross_table_cells():
    t = _four()
    ct = cross_table(t, standings(t, ORDER_SWISS))
    assert ct["players"][0]["rounds"][0] == {"round": 1, "opponent": 2, "colour": "first", "result": "1", "points": 2}
    assert ct["players"][0]["rounds"][1] == {"round": 2, "opponent": 4, "colour": "second", "result": "=", "points": 1}


def test_pair8_ties_touching_prize_places_need_playoff_else_shared():
    rows = standings(_four(), ORDER_SWISS)
    groups = ties_needing_decision(rows, decisive_places={1})
    assert len(groups) == 1 and groups[0].places == (1, 2) and set(groups[0].ids) == {1, 3}
    assert groups[0].action == PLAYOFF
    assert ties_needing_decision(rows, decisive_places={5, 6}) == []  # shared places stay shared
    sz = ties_needing_decision(rows, decisive_places={1, 2, 3, 4}, playoffs_allowed=False)
    assert [g.action for g in sz] == [ARBITER, ARBITER]


def test_pair8_playoff_result_folded_into_final_order():
    rows = standings(_four(), ORDER_SWISS)
    g = ties_needing_decision(rows, {1})[0]
    final = apply_playoff(rows, g, [3, 1])
    assert [(r.id, r.place_label) for r in final][:2] == [(3, "1"), (1, "2")]
    assert final[2].place_label == "3-4"  # untouched tie stays shared


def test_rank_orders_by_keys_descending():
    rows = rank([1, 2, 3], {1: {"PTS": 1, "X": 5}, 2: {"PTS": 2, "X": 0}, 3: {"PTS": 1, "X": 6}}, ["PTS", "X"])
    assert [r.id for r in rows] == [2, 3, 1] and not any(r.shared for r in rows)


def _teams(n=4):
    return TeamTournament(
        teams=tuple(Team(i, f"T{i}", (10 * i + 1, 10 * i + 2, 10 * i + 3)) for i in range(1, n + 1)), rounds_planned=3
    )


def test_pair9_pair10_team_swiss_round_and_tiebreaks():
    tt = _teams(4)
    rp = pair_team_swiss_round(tt)
    assert len(rp.boards) == 2
    pts = {0: [(2, 0), (1, 1), (2, 0)], 1: [(1, 1), (1, 1), (0, 2)]}
    tt = record_team_round(tt, rp, pts)
    vals = team_values(tt)
    w = rp.boards[0].first
    assert vals[w]["MP"] == 2 and vals[w]["GP"] == 5 and (vals[w]["B1"], vals[w]["B2"], vals[w]["B3"]) == (2, 1, 2)
    rp2 = pair_team_swiss_round(tt)
    met = {frozenset((b.first, b.second)) for b in rp.boards}
    assert all(frozenset((b.first, b.second)) not in met for b in rp2.boards)
    rows = team_standings(tt, ORDER_TEAM_SWISS)
    assert rows[0].id == w and list(rows[0].values)[:4] == ["MP", "OMP", "OMP/M1", "GP"]


def test_pair10_team_round_robin_order_and_board_one_playoff():
    tt = _teams(3)
    for r in range(1, 4):
        rp = pair_team_round_robin(tt, r)
        assert sum(1 for c in rp.byes.values() if c is Code.PAIRING_BYE) == 1
        tt = record_team_round(tt, rp, {0: [(1, 1), (1, 1), (1, 1)]})
    rows = team_standings(tt, ORDER_TEAM_ROUND_ROBIN)
    assert list(rows[0].values) == ["MP", "GP", "SB", "B1", "B2", "B3"]
    assert all(r.shared for r in rows)  # everything drawn: still tied -> board-1 playoff
    assert board_one_players(tt, [r.id for r in rows]) == [11, 21, 31]
