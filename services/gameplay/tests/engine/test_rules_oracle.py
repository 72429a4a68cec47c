"""PLAY-3: the rules cores agree with an independent implementation, the test-only ``renju``
package (a dev dependency), on seeded random positions dense enough to hold many fouls."""

from __future__ import annotations

import random

import pytest
from renju.check_forbid import get_foul_type

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

RENJU_KINDS = {1: "double_three", 2: "double_four", 3: "overline"}


def _random_position(rng: random.Random):
    cells = [(x, y) for x in range(15) for y in range(15)]
    # crowd the stones around the centre, where shapes form
    cells.sort(key=lambda p: abs(p[0] - 7) + abs(p[1] - 7) + rng.random() * 6)
    pool = cells[:70]
    rng.shuffle(pool)
    nb, nw = rng.randint(10, 30), rng.randint(4, 22)
    return set(pool[:nb]), set(pool[nb : nb + nw])


def _oracle_fouls(black, white):
    grid = [[0] * 15 for _ in range(15)]
    for x, y in black:
        grid[x][y] = 1
    for x, y in white:
        grid[x][y] = 2
    out = {}
    for x in range(15):
        for y in range(15):
            if grid[x][y] == 0:
                kind = RENJU_KINDS.get(get_foul_type(grid, x, y))
                if kind:
                    out[(x, y)] = kind
    return out


def test_play3_forbidden_points_match_independent_oracle(ref_any_core):
    """PLAY-3: forbidden_points equals the renju package's verdict on 30 random positions."""
    rng = random.Random(20261129)
    fouls_seen = 0
    for _ in range(30):
        black, white = _random_position(rng)
        expected = _oracle_fouls(black, white)
        fouls_seen += len(expected)
        assert dict(ref_any_core.forbidden_points(black, white)) == expected, (sorted(black), sorted(white))
    assert fouls_seen > 40  # the sample really exercises forbidden shapes
