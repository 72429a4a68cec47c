"""Glicko-2 ratings (issue 32; ADR 0012): Glickman's published worked example, the period rules
and properties any rating list must keep."""

from __future__ import annotations

import random

import pytest

from awards.domain.ratings import GlickoParams, RatedGame, Rating, new_rating, rate_history, rate_period, update

PARAMS = GlickoParams(tau=0.5)


def test_glickmans_worked_example_is_reproduced() -> None:
    """ "Example of the Glicko-2 system" (Glickman, 2013): a 1500 / RD 200 / σ 0.06 player beats
    1400 (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300), τ = 0.5: 1464.06, RD 151.52,
    σ 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0), (Rating(1700, 300, 0.06), 0.0)]
    after = update(player, games, PARAMS)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.games == 3


def test_a_period_without_games_only_grows_the_deviation_up_to_the_start() -> None:
    player = Rating(1620, 80, 0.06, games=30)
    after = update(player, [], PARAMS)
    assert (after.rating, after.volatility, after.games) == (1620, 0.06, 30)
    assert 80 < after.rd < 81
    assert update(Rating(1620, 349.9, 0.06), [], PARAMS).rd == pytest.approx(350)


def test_a_period_rates_everyone_from_the_ratings_held_when_it_began() -> None:
    """Order of games in a period does not matter; newcomers start at 1500 / 350."""
    games = [RatedGame("a", "b", 1), RatedGame("b", "c", 0.5), RatedGame("c", "a", 0)]
    one = rate_period({}, games, PARAMS)
    other = rate_period({}, list(reversed(games)), PARAMS)
    assert one == other
    assert one["a"].rating > 1500 > one["b"].rating
    assert all(r.games == 2 for r in one.values())
    assert all(r.provisional(PARAMS) for r in one.values())


def test_a_draw_between_equals_moves_nobody_and_a_game_played_narrows_the_deviation() -> None:
    start = {"a": Rating(1700, 60, 0.06, 40), "b": Rating(1700, 60, 0.06, 40), "c": Rating(1700, 60, 0.06, 40)}
    after = rate_period(start, [RatedGame("a", "b", 0.5)], PARAMS)
    assert after["a"].rating == pytest.approx(1700) and after["b"].rating == pytest.approx(1700)
    assert after["a"].rd < after["c"].rd  # c sat the period out


def test_provisional_until_enough_games_and_a_small_deviation() -> None:
    params = GlickoParams(provisional_rd=110, provisional_games=9)
    assert Rating(1500, 100, 0.06, games=8).provisional(params)
    assert Rating(1500, 120, 0.06, games=50).provisional(params)
    assert not Rating(1500, 100, 0.06, games=9).provisional(params)
    assert new_rating(params).provisional(params)


def test_the_stronger_player_ends_higher_over_a_season() -> None:
    """Simulated: players of known strength, many periods: the list orders them by strength."""
    rng = random.Random(32)
    strength = {f"p{i}": i * 40 for i in range(12)}
    periods = []
    for month in range(12):
        games = []
        for _ in range(60):
            a, b = rng.sample(sorted(strength), 2)
            p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            games.append(RatedGame(a, b, 1.0 if rng.random() < p else 0.0))
        periods.append((f"2026-{month + 1:02d}", games))
    history = rate_history(periods, PARAMS)
    final = history[-1][1]
    assert len(history) == 12
    assert final["p11"].rating > final["p6"].rating > final["p0"].rating
    assert final["p11"].published() == round(final["p11"].rating)


@pytest.mark.parametrize("score", [2, -1, 0.25])
def test_a_rated_game_has_a_game_score(score: float) -> None:
    with pytest.raises(ValueError):
        RatedGame("a", "b", score)


def test_parameters_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError):
        GlickoParams(tau=0)
