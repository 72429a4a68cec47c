"""PAIR-11 round lifecycle: late entries, withdrawals, requested/forced byes, forbidden pairs,
never re-pairing past rounds; two-game rounds paired on round results (PAIR-5)."""

import pytest

from pairing.domain.model import (
    Board,
    Code,
    Outcome,
    Player,
    ResultError,
    RoundPairing,
    Tournament,
    add_player,
    record_round,
    withdraw,
)
from pairing.domain.swiss import ByeRules, NoLegalPairing, forbidden_from_units, pair_swiss_round


def _field(n=8, rounds=5, **kw):
    return Tournament(
        players=tuple(Player(i, f"P{i}", rating=2000 - i, **kw) for i in range(1, n + 1)), rounds_planned=rounds
    )


def _play(t, rp, outcome=Outcome.FIRST_WINS):
    return record_round(t, rp, {i: outcome for i in range(len(rp.boards))})


def test_pair11_next_round_only_after_all_results():
    t = _field()
    rp = pair_swiss_round(t)
    with pytest.raises(ResultError, match="no result"):
        record_round(t, rp, {0: Outcome.DRAW})
    with pytest.raises(ValueError, match="round 1 is next"):
        pair_swiss_round(t, 2)


def test_pair11_late_entry_joins_without_repairing_past_rounds():
    t = _field(7)
    r1 = pair_swiss_round(t)
    t = _play(t, r1)
    before = dict(t.history)
    t = add_player(t, Player(8, "Late", rating=1500))
    r2 = pair_swiss_round(t)
    assert any(8 in (b.first, b.second) for b in r2.boards)  # the late entry is paired
    assert {pid: t.history[pid] for pid in before} == before  # round 1 untouched
    t = _play(t, r2)
    assert t.entries(8)[0].code is Code.ABSENT and t.entries(8)[1].opponent is not None


def test_pair11_withdrawn_player_is_not_paired_again():
    t = _field(8)
    t = _play(t, pair_swiss_round(t))
    t = withdraw(t, 3)
    r2 = pair_swiss_round(t)
    assert all(3 not in (b.first, b.second) for b in r2.boards)
    assert r2.byes.get(3) is None
    t = _play(t, r2)
    assert t.entries(3)[1].code is Code.ABSENT


def test_pair11_requested_byes_half_or_zero_per_config_and_forced_bye():
    t = _field(8)
    rp = pair_swiss_round(t, requested_byes=[2], forced_byes=[5])
    assert rp.byes[2] is Code.HALF_BYE and rp.byes[5] is Code.FULL_BYE
    assert all(p not in (b.first, b.second) for b in rp.boards for p in (2, 5))
    rp0 = pair_swiss_round(t, requested_byes=[2], bye_rules=ByeRules(requested=Code.ZERO_BYE))
    assert rp0.byes[2] is Code.ZERO_BYE
    t = _play(t, rp)
    assert t.score(2) == 1 and t.score(5) == 2


def test_pair2_one_pairing_bye_per_player_over_a_tournament():
    t = _field(7, rounds=6)
    seen = []
    for _ in range(6):
        rp = pair_swiss_round(t)
        seen += [p for p, c in rp.byes.items() if c is Code.PAIRING_BYE]
        t = _play(t, rp, Outcome.DRAW)
    assert len(seen) == 6 and len(set(seen)) == 6


def test_pair2_forbidden_pairs_kept_apart_same_unit():
    players = tuple(Player(i, f"P{i}", unit="club" if i in (1, 2) else f"u{i}") for i in range(1, 5))
    t = Tournament(players=players, rounds_planned=3)
    t = Tournament(players=players, rounds_planned=3, forbidden=forbidden_from_units(t, 1, 3))
    assert t.forbidden[0].players == (1, 2)
    for _ in range(2):
        rp = pair_swiss_round(t)
        assert all({b.first, b.second} != {1, 2} for b in rp.boards)
        t = _play(t, rp, Outcome.DRAW)
    # round 3: 1 and 2 are the only pair left, so no legal pairing exists
    with pytest.raises(NoLegalPairing):
        pair_swiss_round(t)


def test_pair6_forfeit_does_not_block_a_rematch():
    t = _field(2, rounds=2)
    t = record_round(t, RoundPairing(1, (Board(1, 2),), {}), {0: Outcome.FIRST_FORFEIT_WIN})
    rp = pair_swiss_round(t)
    assert {rp.boards[0].first, rp.boards[0].second} == {1, 2}


def test_pair5_two_game_rounds_paired_on_round_results():
    t = _field(4, rounds=2)
    r1 = pair_swiss_round(t)
    # the rounds' outcomes as gameplay sends them (PAIR-5 points are gameplay's): W+D wins the
    # round, W+L draws it
    outcomes = {0: Outcome.FIRST_WINS, 1: Outcome.DRAW}
    t = record_round(t, r1, outcomes)
    winner = r1.boards[0].first
    assert t.score(winner) == 2
    r2 = pair_swiss_round(t)
    # the only round winner meets a player from the drawn pair (score group 1)
    opp = next(b.second if b.first == winner else b.first for b in r2.boards if winner in (b.first, b.second))
    assert t.score(opp) == 1


def test_pair11_arbiter_forced_pairing_bye_replaces_the_engines_bye():
    t = _field(7)
    rp = pair_swiss_round(t, forced_byes=[1], bye_rules=ByeRules(forced=Code.PAIRING_BYE))
    assert rp.byes == {1: Code.PAIRING_BYE} and len(rp.boards) == 3


def test_pair4_point_system_is_configuration_for_the_engine():
    """Half-point byes configured as zero: the engine sees the same scores as ours."""
    from dataclasses import replace

    from pairing.domain.model import PointSystem, RoundEntry

    t = _field(9, rounds=4)
    t = _play(t, pair_swiss_round(t, requested_byes=[4, 6]))
    zero = replace(t, points=PointSystem(half_bye=0))
    as_z = replace(
        t,
        history={
            p: tuple(replace(e, code=Code.ZERO_BYE) if e.code is Code.HALF_BYE else e for e in h)
            for p, h in t.history.items()
        },
    )
    assert zero.score(4) == as_z.score(4) == 0
    assert pair_swiss_round(zero) == pair_swiss_round(as_z)
    with pytest.raises(ValueError, match="forfeit"):
        pair_swiss_round(replace(t, points=PointSystem(forfeit_win=1)))
    assert isinstance(RoundEntry(1, None, None, Code.ABSENT).played, bool)


def test_pair2_start_numbers_with_gaps_pair_like_their_contiguous_order():
    """Ids need not be 1..n (removed entries, team ids): same pairing as the renumbered field."""
    ids = [1, 2, 3, 5, 7, 8, 10]
    gapped = Tournament(players=tuple(Player(i, f"P{i}") for i in ids), rounds_planned=3)
    dense = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 8)), rounds_planned=3)
    back = dict(enumerate(ids, 1))
    for _ in range(3):
        a, b = pair_swiss_round(gapped), pair_swiss_round(dense)
        assert a.pairs() == [(back[x], back[y] if y else 0) for x, y in b.pairs()]
        gapped, dense = _play(gapped, a), _play(dense, b)


def test_pair11_arbiter_correction_is_validated_before_publishing():
    from pairing.domain.checker import check_round
    from pairing.domain.model import active_players

    t = _field(4, rounds=3)
    r1 = pair_swiss_round(t)
    t = _play(t, r1, Outcome.DRAW)
    r2 = pair_swiss_round(t)
    parts = active_players(t, 2)
    assert check_round(t, r2, parts) == []
    b = r1.boards[0]
    rematch = RoundPairing(2, (Board(b.second, b.first), Board(r1.boards[1].first, r1.boards[1].second)), {})
    assert any("rematch" in p for p in check_round(t, rematch, parts))
