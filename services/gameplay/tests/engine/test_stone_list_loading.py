"""PLAY-3: a position given as stone lists is read by a quick loader when the lists are lists or
tuples of (x, y) tuples of plain ints (what callers pass), and by the validating loader for any
other shape; both read the same position, and a malformed one is refused with the validating
loader's words whatever its shape."""

from __future__ import annotations

import random

import pytest

from gameplay.engine import _core, reference

SIZE = 15
CELLS = [(x, y) for x in range(SIZE) for y in range(SIZE)]


class Coord(int):
    """An int subclass: not a plain int, so it takes the validating loader."""


def _positions(count: int, seed: int):
    rng = random.Random(seed)
    cells = list(CELLS)
    for _ in range(count):
        rng.shuffle(cells)
        nb = rng.randint(4, 80)
        nw = rng.randint(0, nb)
        yield cells[:nb], cells[nb : nb + nw]


def test_play3_quick_and_validating_loaders_read_the_same_position():
    """PLAY-3: on 1,500 random positions of every density (edges and corners included) the
    quick loader's answer equals the validating loader's, reached by generators, lists of
    lists, int subclasses, or a single odd stone at the end of the list."""
    fouls = 0
    for black, white in _positions(1500, seed=33):
        quick = _core.forbidden_points(black, white)
        fouls += len(quick)
        assert _core.forbidden_points(tuple(black), tuple(white)) == quick
        assert _core.forbidden_points((list(p) for p in black), iter(white)) == quick
        assert _core.forbidden_points(black, [(Coord(x), Coord(y)) for x, y in white]) == quick
        assert _core.forbidden_points(black[:-1] + [list(black[-1])], white) == quick
    assert fouls > 300


def test_play3_quick_loader_agrees_with_the_reference():
    """PLAY-3: the compiled core fed by the quick loader equals the plain-Python reference."""
    for black, white in _positions(150, seed=34):
        assert _core.forbidden_points(black, white) == reference.forbidden_points(black, white)


@pytest.mark.parametrize("container", [list, tuple])
@pytest.mark.parametrize(
    ("black", "white", "message"),
    [
        ([(7, 7), (8, 8), (7, 7)], [], "listed twice"),
        ([(7, 7)], [(1, 1), (7, 7)], "overlaps"),
        ([(7, 7), (15, 3)], [], "off the 15x15 board"),
        ([(7, 7)], [(3, -1)], "off the 15x15 board"),
        ([(7, 7), (2**70, 3)], [], "off the 15x15 board"),
        ([(7, 7), (True, 3)], [], "integers"),
        ([(7, 7), (3, 3, 3)], [], "(x, y) pair"),
        ([(7, 7), 3], [], "(x, y) pair"),
    ],
)
def test_play3_malformed_stone_lists_are_refused_in_the_validating_words(container, black, white, message):
    """PLAY-3: a mistake anywhere in a list or tuple the quick loader reads is refused with the
    same ValueError the validating loader raises."""
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _core.forbidden_points(container(black), container(white))
