"""Ratings of a federation's players: Glicko-2 (ADR 0012), computed period by period.

Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) keeps per player a rating, a rating
deviation (RD: how uncertain the rating is) and a volatility. A rating period's games update
every player who played in it at once, from the ratings everybody held when it began; a player
who sat the period out keeps their rating and grows their RD (up to the starting RD), so a rating
nobody has seen tested for a long time counts as uncertain again. A rating is *provisional* while
its RD is above ``provisional_rd`` or fewer than ``provisional_games`` games have been rated.

Pure functions over plain values: the awards service feeds them the rated games of a
federation's events (an event setting says which games count) and stores the periods' lists.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko scale (1500 ± RD) and its internal one
SCALE = 173.7178
_PI2 = math.pi**2


@dataclass(frozen=True)
class GlickoParams:
    """The system's constants, fixed per federation (ADR 0012 gives the reasons for each)."""

    #: constrains the volatility's change; Glickman suggests 0.3–1.2
    tau: float = 0.5
    initial_rating: float = 1500.0
    initial_rd: float = 350.0
    initial_volatility: float = 0.06
    #: above this RD a rating is shown as provisional
    provisional_rd: float = 110.0
    #: fewer rated games than this: provisional whatever the RD
    provisional_games: int = 9
    #: convergence tolerance of the volatility iteration
    epsilon: float = 1e-6

    def __post_init__(self) -> None:
        if not (0 < self.tau <= 5 and self.initial_rd > 0 and self.initial_volatility > 0 and self.epsilon > 0):
            raise ValueError("Glicko-2 parameters out of range (tau in (0, 5], RD, volatility, epsilon > 0)")


@dataclass(frozen=True)
class Rating:
    rating: float
    rd: float
    volatility: float
    #: rated games so far
    games: int = 0

    def provisional(self, params: GlickoParams) -> bool:
        return self.rd > params.provisional_rd or self.games < params.provisional_games

    def published(self) -> int:
        """The whole number printed on lists and in the TRF rating column."""
        return int(math.floor(self.rating + 0.5))


def new_rating(params: GlickoParams) -> Rating:
    return Rating(params.initial_rating, params.initial_rd, params.initial_volatility)


@dataclass(frozen=True)
class RatedGame:
    """One game that counts: ``score`` is the first player's (1, 0.5 or 0). Forfeits never count."""

    first: str
    second: str
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0, 0.5, 1):
            raise ValueError(f"a rated game's score is 1, 0.5 or 0, not {self.score!r}")
        if self.first == self.second:
            raise ValueError("a player cannot play themselves")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / _PI2)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float, eps: float) -> float:
    """Step 5 of Glickman's example: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, opponents: Sequence[tuple[Rating, float]], params: GlickoParams) -> Rating:
    """One player's rating after a period: ``opponents`` holds each game's opponent (as rated when
    the period began) and the player's score. No games: only the RD grows (capped at the start RD)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    if not opponents:
        grown = min(math.sqrt(phi * phi + player.volatility**2), params.initial_rd / SCALE)
        return Rating(player.rating, grown * SCALE, player.volatility, player.games)
    v_inv = 0.0
    gain = 0.0
    for opponent, score in opponents:
        g = _g(opponent.rd / SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - (opponent.rating - 1500.0) / SCALE)))
        v_inv += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    sigma = _volatility(player.volatility, phi, v, v * gain, params.tau, params.epsilon)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma, player.games + len(opponents))


def rate_period(ratings: Mapping[str, Rating], games: Iterable[RatedGame], params: GlickoParams) -> dict[str, Rating]:
    """Everybody's rating after one period: players of the period updated together from the
    ratings held when it began (newcomers start at the initial rating), the others' RD grown."""
    played: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for game in games:
        played[game.first].append((game.second, game.score))
        played[game.second].append((game.first, 1.0 - game.score))
    start = new_rating(params)
    before = dict(ratings)
    for player in played:
        before.setdefault(player, start)
    return {
        player: update(rating, [(before[o], s) for o, s in played.get(player, ())], params)
        for player, rating in before.items()
    }


def rate_history(
    periods: Iterable[tuple[str, Sequence[RatedGame]]], params: GlickoParams
) -> list[tuple[str, dict[str, Rating]]]:
    """The list after each period, in order (``periods``: a period's label and its games). The
    whole history from the first game: recomputing is how corrections reach later lists."""
    ratings: dict[str, Rating] = {}
    lists = []
    for label, games in periods:
        ratings = rate_period(ratings, games, params)
        lists.append((label, ratings))
    return lists
