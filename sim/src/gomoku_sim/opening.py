"""Bot decisions in the designated-opening procedure (PLAY-2): pure functions of the position
and a seeded ``random.Random``.

Uses only the engine's public tables (the 26 openings, their symmetries, and ``offer_key``,
which decides when two fifth-move offers are equivalent).
"""

from __future__ import annotations

import random
from collections.abc import Collection

from gameplay.engine import OPENINGS, Opening, offer_key

from .strategy import BLACK, WHITE, Point, Position, candidates, evaluate

# Openings known to favour black strongly (the tentative black is more willing to lay them
# out and the other player more willing to take black after the swap).
BLACK_FAVOURED = frozenset({"D2", "D3", "D4", "D5", "D7", "D9", "D12", "I2", "I3", "I4", "I7", "I8", "I9", "I10"})


def choose_opening(
    rng: random.Random, *, fixed_n: int | None, max_n: int = 10, n_choices: tuple[int, ...] = (1, 2, 3)
) -> tuple[Opening, int, tuple[Point, Point, Point], int]:
    """Step 1: an opening, a board symmetry of it, its three stones and N (declared unless
    the section fixes it)."""
    opening = OPENINGS[rng.randrange(len(OPENINGS))]
    symmetry = rng.randrange(8)
    stones = opening.stones(symmetry)
    if fixed_n is not None:
        n = fixed_n
    else:
        allowed = [k for k in n_choices if k <= max_n] or [1]
        n = allowed[rng.randrange(len(allowed))]
    return opening, symmetry, stones, n


def take_black(rng: random.Random, opening_code: str | None, n: int | None) -> bool:
    """Step 2, the swap after three: does the second player take black? More fifth-move
    offers help white (white picks among them), so a large N makes black less attractive."""
    p = 0.7 if opening_code in BLACK_FAVOURED else 0.35
    if n is not None and n >= 3:
        p -= 0.2
    return rng.random() < p


def choose_offers(pos: Position, n: int, rng: random.Random, *, forbidden: Collection[Point] = ()) -> list[Point]:
    """Step 4: black's N fifth-move offers, best first, pairwise non-equivalent (the same
    position up to rotation, reflection or translation counts once), never forbidden."""
    black = sorted((x, y) for x in range(15) for y in range(15) if pos.grid[x][y] == BLACK)
    white = sorted((x, y) for x in range(15) for y in range(15) if pos.grid[x][y] == WHITE)
    banned = set(forbidden)
    pool = [p for p in candidates(pos, 3) if p not in banned]
    scored = sorted(((evaluate(pos, p, BLACK) * (1.0 + 0.3 * rng.random()), p) for p in pool), reverse=True)
    seen: set[tuple] = set()
    offers: list[Point] = []
    for _, p in scored:
        key = offer_key(black, white, p)
        if key in seen:
            continue
        seen.add(key)
        offers.append(p)
        if len(offers) == n:
            return offers
    # a crowded neighbourhood: widen to the whole board
    for x in range(15):
        for y in range(15):
            p = (x, y)
            if pos.empty(p) and p not in banned and p not in offers:
                key = offer_key(black, white, p)
                if key not in seen:
                    seen.add(key)
                    offers.append(p)
                    if len(offers) == n:
                        return offers
    raise ValueError(f"cannot find {n} non-equivalent fifth-move offers")


def choose_fifth(pos: Position, offers: list[Point]) -> Point:
    """Step 5: white takes the offer that leaves black the weakest position."""
    return min(offers, key=lambda p: (evaluate(pos, p, BLACK), p))
