"""PAIR-6 / PAIR-7: tiebreaks against the 40 reference tournaments (both C.07 editions) and
hand-computed cases of FIDE C.07 Article 16."""

import csv
import glob
import os

import pytest

from pairing.domain.model import Board, Code, Outcome, Player, RoundPairing, Tournament, record_round, withdraw
from pairing.domain.tiebreaks import Edition, TiebreakConfig, compute_tiebreaks
from pairing.domain.trf import import_trf

DATA = os.path.join(os.path.dirname(__file__), "data", "tiebreak")
FILES = sorted(glob.glob(os.path.join(DATA, "t*.trf")))
COLUMNS = ["PTS", "BH", "BH/C1", "BH/M1", "SB", "WIN", "WON", "BPG", "BWG", "PS", "AOB"]


@pytest.mark.parametrize("edition", [Edition.FIDE_2024, Edition.FIDE_2026])
@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f)[:-4] for f in FILES])
def test_pair6_pair7_tiebreaks_agree_with_reference(path, edition):
    """Every column of the reference equals ours. The reference multiplies SB by raw game
    points (2/1/0); ours divides by the win value (PAIR-7: ÷ 2), so ours × 2 = reference."""
    t = import_trf(open(path).read())
    tb = compute_tiebreaks(t, cfg=TiebreakConfig(edition=edition))
    rows = list(csv.DictReader(open(path[:-4] + f".tb{int(edition)}.tsv"), delimiter="\t"))
    assert len(rows) == len(t.players)
    for row in rows:
        pid = int(row["StartNo"])
        for col in COLUMNS:
            mine = tb[pid][col] * (t.points.win if col == "SB" else 1)
            assert mine == pytest.approx(float(row[col]), abs=1e-9), (pid, col)


def test_reference_set_is_complete():
    assert len(FILES) == 40


def _t(n, rounds=3):
    return Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)), rounds_planned=rounds)


def test_pair6_own_unplayed_round_counts_as_dummy_with_own_score_2024():
    """Player 5 gets a pairing bye in round 1: the dummy has 5's final score (2024 rules)."""
    t = _t(5, 2)
    t = record_round(
        t, RoundPairing(1, (Board(1, 2), Board(3, 4)), {5: Code.PAIRING_BYE}), {0: Outcome.FIRST_WINS, 1: Outcome.DRAW}
    )
    t = record_round(
        t,
        RoundPairing(2, (Board(5, 1), Board(2, 3)), {4: Code.PAIRING_BYE}),
        {0: Outcome.FIRST_WINS, 1: Outcome.SECOND_WINS},
    )
    tb = compute_tiebreaks(t, ["BH"])
    assert tb[5]["PTS"] == 4
    assert tb[5]["BH"] == 4 + 2  # dummy (own 4) + player 1 (2)
    # 2026 (16.4.2): the dummy is capped at a draw per round: 1 × 2 rounds = 2
    tb26 = compute_tiebreaks(t, ["BH"], TiebreakConfig(edition=Edition.FIDE_2026))
    assert tb26[5]["BH"] == 2 + 2


def test_pair6_withdrawn_opponents_later_rounds_count_as_draws():
    """Player 4 loses to 1 in round 1 then withdraws: for 1's Buchholz, 4 has 0 + draw + draw."""
    t = _t(4)
    t = record_round(t, RoundPairing(1, (Board(1, 4), Board(2, 3)), {}), {0: Outcome.FIRST_WINS, 1: Outcome.DRAW})
    t = withdraw(t, 4)
    t = record_round(t, RoundPairing(2, (Board(2, 1),), {3: Code.PAIRING_BYE}), {0: Outcome.DRAW})
    t = record_round(t, RoundPairing(3, (Board(1, 3),), {2: Code.PAIRING_BYE}), {0: Outcome.DRAW})
    assert t.entries(4)[1].code is Code.ABSENT
    tb = compute_tiebreaks(t, ["BH"])
    assert tb[4]["PTS"] == 0
    # 1's opponents: 4 (adjusted 0+1+1 = 2), 2 (1+1+2 = 4), 3 (1+2+1 = 4)
    assert tb[1]["BH"] == 2 + 4 + 4


def test_pair6_cut_removes_voluntary_unplayed_round_first():
    """A half-point bye (voluntary) is cut before a lower real opponent (BH/C1)."""
    t = _t(4, 3)
    t = record_round(t, RoundPairing(1, (Board(1, 2), Board(3, 4)), {}), {0: Outcome.FIRST_WINS, 1: Outcome.FIRST_WINS})
    t = record_round(t, RoundPairing(2, (Board(1, 3), Board(2, 4)), {}), {0: Outcome.FIRST_WINS, 1: Outcome.FIRST_WINS})
    t = record_round(t, RoundPairing(3, (Board(2, 3),), {1: Code.HALF_BYE, 4: Code.ZERO_BYE}), {0: Outcome.DRAW})
    tb = compute_tiebreaks(t, ["BH", "BH/C1", "BH/M1"])
    # 1: opp 2 (3 pts), opp 3 (3 pts), dummy = own 5 (voluntary) -> BH 11; cut drops the dummy
    assert tb[1]["PTS"] == 5 and tb[1]["BH"] == 11
    assert tb[1]["BH/C1"] == 6
    assert tb[1]["BH/M1"] == 3


def test_pair6_forfeit_win_counts_as_win_but_not_won_over_the_board():
    t = _t(2, 1)
    t = record_round(t, RoundPairing(1, (Board(1, 2),), {}), {0: Outcome.FIRST_FORFEIT_WIN})
    tb = compute_tiebreaks(t, ["WIN", "WON"])
    assert tb[1]["PTS"] == 2 and tb[1]["WIN"] == 1 and tb[1]["WON"] == 0


def test_pair7_sonneborn_berger_is_half_per_draw():
    """SB: win counts the opponent's whole score, a draw half (points 2/1/0, ÷ 2)."""
    t = _t(3, 3)
    t = record_round(t, RoundPairing(1, (Board(1, 2),), {3: Code.PAIRING_BYE}), {0: Outcome.FIRST_WINS})
    t = record_round(t, RoundPairing(2, (Board(3, 1),), {2: Code.PAIRING_BYE}), {0: Outcome.DRAW})
    t = record_round(t, RoundPairing(3, (Board(2, 3),), {1: Code.PAIRING_BYE}), {0: Outcome.SECOND_WINS})
    tb = compute_tiebreaks(t, ["SB"], TiebreakConfig(round_robin=True))
    # 1: beat 2 (2 pts) -> 2, drew 3 (5 pts) -> 2.5 ; round robin: no dummy for the bye
    assert tb[1]["SB"] == 2 + 2.5


def test_pair7_sum_of_opponents_buchholz():
    t = _t(4, 1)
    t = record_round(t, RoundPairing(1, (Board(1, 2), Board(3, 4)), {}), {0: Outcome.FIRST_WINS, 1: Outcome.DRAW})
    tb = compute_tiebreaks(t, ["BH", "SOB"])
    assert tb[1]["SOB"] == tb[2]["BH"] == 2
