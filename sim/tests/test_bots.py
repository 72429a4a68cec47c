"""Bots play whole games on the engine: legal every time, deterministic, seeded behaviour rates."""

from __future__ import annotations

import pytest

from gomoku_sim.bots import BotPolicy, decide, is_no_show, stall_ply
from gomoku_sim.offline import play_offline

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _summary(eg):
    g = eg.game
    return (
        tuple(g.moves),
        None if g.result is None else (g.result.winner, g.result.reason, g.result.foul),
        tuple((p, v, tuple(sorted(b.items(), key=str))) for p, v, b in eg.actions),
    )


def test_play2_bots_complete_professional_games_legally():
    """PLAY-2/PLAY-3: every opening step and move of the bots is accepted by the engine and
    black is never judged for a forbidden move."""
    results = []
    for i in range(12):
        eg = play_offline(
            f"g{i}", "alice", "bob", professional=True, seed=7, policy=BotPolicy.quiet(), fixed_n=2 if i % 2 else None
        )
        assert eg.game.is_over, eg.game.moves
        assert eg.game.result.reason.value != "forbidden"
        verbs = [v for _, v, _ in eg.actions]
        assert verbs[:2] == ["join", "join"] and verbs[2:5] == ["opening", "swap", "move"]
        assert "offers" in verbs and "choose" in verbs
        results.append(eg.game.result.reason.value)
    assert "five" in results


def test_play1_bots_complete_free_games():
    reasons = set()
    for i in range(10):
        eg = play_offline(f"f{i}", "p1", "p2", professional=False, seed=3, policy=BotPolicy.quiet())
        assert eg.game.is_over
        reasons.add(eg.game.result.reason.value)
    assert "five" in reasons


def test_decisions_are_a_pure_function_of_seed_game_and_state():
    for prof in (True, False):
        a = play_offline("g-42", "x", "y", professional=prof, seed=11)
        b = play_offline("g-42", "x", "y", professional=prof, seed=11)
        assert _summary(a) == _summary(b)
    runs = {
        _summary(play_offline("g-42", "x", "y", professional=True, seed=s, policy=BotPolicy.quiet()))[0]
        for s in range(6)
    }
    assert len(runs) > 1  # the seed matters
    # the same view asked twice gives the same answer
    eg = play_offline("g-1", "x", "y", professional=True, seed=1, policy=BotPolicy.quiet(), max_actions=9)
    v = eg.view()
    assert decide(v, v.to_act, BotPolicy(), 1) == decide(v, v.to_act, BotPolicy(), 1)


def test_play7_no_show_and_time_out_rates_are_seeded():
    """PLAY-7 / PLAY-5: configured rates of absent players and players who let the clock run."""
    pol = BotPolicy(no_show_rate=0.1, timeout_rate=0.1)
    n = 2000
    shows = sum(is_no_show(pol, 5, f"g{i}", "p") for i in range(n))
    stalls = sum(stall_ply(pol, 5, f"g{i}", "p") is not None for i in range(n))
    assert 120 < shows < 280 and 120 < stalls < 280
    assert [is_no_show(pol, 5, f"g{i}", "p") for i in range(50)] == [
        is_no_show(pol, 5, f"g{i}", "p") for i in range(50)
    ]
    assert not any(is_no_show(BotPolicy.quiet(), 5, f"g{i}", "p") for i in range(200))
    # a no-show never joins: the game stalls before the opening
    gid = next(f"g{i}" for i in range(n) if is_no_show(pol, 5, f"g{i}", "p"))
    eg = play_offline(gid, "p", "q", professional=False, seed=5, policy=pol)
    assert not eg.game.is_over and "p" not in eg.joined


def test_bots_resign_and_offer_draws_sometimes():
    pol = BotPolicy(no_show_rate=0, timeout_rate=0, resign_rate=1.0, draw_offer_rate=0.3, draw_from_ply=10)
    reasons = set()
    for i in range(20):
        eg = play_offline(f"d{i}", "a", "b", professional=bool(i % 2), seed=2, policy=pol)
        assert eg.game.is_over
        reasons.add(eg.game.result.reason.value)
    assert "resignation" in reasons and "draw_agreement" in reasons


def test_play1_play2_games_are_the_same_whichever_strategy_core_the_bots_think_with(monkeypatch):
    """The compiled strategy core and the plain-Python reference play the same games: the same
    moves, opening steps, resignations, draw offers and results, offline on the engine (both rules,
    the default behaviour rates and quiet players)."""
    from gomoku_sim import strategy, thinking

    compiled = thinking.compiled()
    assert thinking.CORE is compiled  # built by make install: the bots use it

    def games(core):
        monkeypatch.setattr(thinking, "CORE", core)
        return [
            _summary(play_offline(f"same-{i}", "a", "b", professional=bool(i % 2), seed=9, policy=policy))
            for i in range(16)
            for policy in (BotPolicy(), BotPolicy.quiet())
        ]

    with_compiled = games(compiled)
    assert games(strategy) == with_compiled
    reasons = {result[1].value for _moves, result, _actions in with_compiled if result is not None}
    assert {"five", "resignation"} <= reasons  # whole games, lost positions judged too
