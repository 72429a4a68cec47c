"""Both rules cores refuse the same malformed positions (switching GAMEPLAY_ENGINE changes nothing)."""

from __future__ import annotations

import pytest

from gameplay.engine import _core, reference

CORES = [pytest.param(reference, id="reference"), pytest.param(_core, id="cython")]
BAD = [
    pytest.param([(7, 7), (7, 7)], [], "listed twice", id="black-duplicate"),
    pytest.param([], [(1, 1), (1, 1)], "(1, 1)", id="white-duplicate"),
    pytest.param([(7, 7)], [(7, 7)], "", id="both-colours"),
    pytest.param([(15, 0)], [], "", id="off-board"),
]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("black,white,words", BAD)
def test_play3_malformed_positions_are_refused_alike(core, black, white, words):
    with pytest.raises(ValueError) as err:
        core.forbidden_points(black, white)
    assert words in str(err.value)
