"""PLAY-3 forbidden moves (and PLAY-1 line length), table-driven, run against every rules core
found: the plain-Python reference always, the compiled core when it is built.

Diagrams: rows top to bottom, ``X`` black, ``O`` white, ``.`` empty, ``*`` the black move judged.
"""

from __future__ import annotations

import pytest

from gameplay.engine import reference


def on_row(pattern: str, y: int = 7, x0: int = 3):
    """A one-line position laid along row ``y`` from column ``x0``."""
    black, white, point = set(), set(), None
    for i, ch in enumerate(pattern):
        p = (x0 + i, y)
        if ch == "X":
            black.add(p)
        elif ch == "O":
            white.add(p)
        elif ch == "*":
            point = p
    return black, white, point


IN_LINE = [
    # (case, pattern, expected)
    ("five exactly", "XX*XX", "five"),
    ("overline of six", "XX*XXX", "overline"),
    ("overline of seven", "XXX*XXX", "overline"),
    ("X.XXX.X two fours on one line", "X.X*X.X", "double_four"),
    ("XX.XX.XX two fours on one line", "XX.X*.XX", "double_four"),
    ("XXX.X.XXX two fours on one line", "XXX.*.XXX", "double_four"),
    ("straight four is one four", ".XX*X.", "none"),
    ("XX.X.XX holds no second four", "XX.*.XX", "none"),
    ("XXXX.XX is one four (other gap makes seven)", "XX*X.XX", "none"),
    ("single open three", "..X*X..", "none"),
]


@pytest.mark.parametrize("case,pattern,expected", IN_LINE, ids=[c[0] for c in IN_LINE])
def test_play3_in_line_shapes(ref_any_core, case, pattern, expected):
    """PLAY-3: fives, overlines and the in-line double fours X.XXX.X, XX.XX.XX, XXX.X.XXX."""
    black, white, point = on_row(pattern)
    assert ref_any_core.classify(black, white, point) == expected


# Two-dimensional classics. Each diagram is placed with its bottom-left cell on (3, 3).
DIAGRAMS = [
    (
        "double three (open threes crossing)",
        """
        .......
        ...X...
        ...X...
        .XX*...
        .......
        .......
     """,
        "double_three",
    ),
    (
        "double four (two lines)",
        """
        ...X...
        ...X...
        ...X...
        XXX*...
        .......
     """,
        "double_four",
    ),
    (
        "4-3 is legal",
        """
        .......
        ...X...
        ...X...
        OXX*X..
        .......
        .......
     """,
        "none",
    ),
    (
        "4-3-3 is a double three",
        """
        .........
        .........
        ...X.X...
        ...XX....
        XXX*.....
        .........
        .........
     """,
        "double_three",
    ),
    (
        "4-4-3 is a double four",
        """
        ....X....
        ....X....
        ....X....
        ..XX*....
        .....X...
        ......X..
        .......X.
        .........
     """,
        "double_four",
    ),
    (
        "five with an overline elsewhere wins: five",
        """
        ...X...
        ...X...
        ...X...
        .XX*XX.
        ...X...
        ...X...
        .......
     """,
        "five",
    ),
    (
        "five with a double four wins: five",
        """
        ...X...
        ...X...
        ...X...
        .XX*XX.
        ..X....
        .X.....
        X......
     """,
        "five",
    ),
    (
        "five with a double three wins: five",
        """
        .......
        ...X...
        ...X...
        .XX*XX.
        ..X....
        .X.....
        .......
     """,
        "five",
    ),
    (
        "three blocked by the white stone is no three",
        """
        .......
        ...X...
        ...X...
        .OX*X..
        .......
        .......
     """,
        "none",
    ),
    (
        "three one step from a white stone is still a three",
        """
        .......
        ...X...
        ...X...
        O.X*X..
        .......
        .......
     """,
        "double_three",
    ),
]


@pytest.mark.parametrize("case,diagram,expected", DIAGRAMS, ids=[c[0] for c in DIAGRAMS])
def test_play3_classics(ref_any_core, ref_diagram, case, diagram, expected):
    """PLAY-3 classics: double three, double four, 4-3 legal, 4-3-3 / 4-4-3 fouls, five wins
    over any forbidden shape, a three blocked by white."""
    black, white, point = ref_diagram(diagram, origin=(3, 3))
    assert ref_any_core.classify(black, white, point) == expected


def test_play3_three_blocked_by_edge(ref_any_core):
    """PLAY-3: a three against the board edge cannot become a straight four, so it is no three."""
    # column a: a1 a2 * ; the row three through the point is open
    black = {(0, 1), (0, 2), (1, 3), (2, 3)}
    point = (0, 3)
    assert ref_any_core.classify(black, set(), point) == "none"
    # the same shapes away from the edge make a double three
    shifted = {(x + 3, y + 3) for x, y in black}
    assert ref_any_core.classify(shifted, set(), (3, 6)) == "double_three"


# Recursive threes: the split three X*.X through h8 has one straight-four point, i8.
SPLIT_THREE = {(6, 7), (9, 7)}
REAL_THREE = {(6, 8), (5, 9)}  # anti-diagonal open three with h8


def test_play3_double_three_when_both_threes_are_real(ref_any_core):
    """PLAY-3: control case -- the split three and the anti-diagonal three make a double three."""
    assert ref_any_core.classify(SPLIT_THREE | REAL_THREE, set(), (7, 7)) == "double_three"


def test_play3_three_whose_completion_is_double_four_does_not_count(ref_any_core):
    """PLAY-3 recursion: i8 (the only straight-four point of the row three) would be a double
    four (row straight four + column four i9 i10 i11), so the row is no three: h8 is legal."""
    column = {(8, 8), (8, 9), (8, 10)}
    black = SPLIT_THREE | REAL_THREE | column
    assert ref_any_core.classify(black | {(7, 7)}, set(), (8, 7)) == "double_four"
    assert ref_any_core.classify(black, set(), (7, 7)) == "none"


def test_play3_three_whose_completion_makes_five_is_not_a_three(ref_any_core):
    """PLAY-3: a row that becomes a straight four only by a stone that also makes a five
    (column i9..i12) is not a three ("without at the same time making a five")."""
    column = {(8, 8), (8, 9), (8, 10), (8, 11)}
    black = SPLIT_THREE | REAL_THREE | column
    assert ref_any_core.classify(black | {(7, 7)}, set(), (8, 7)) == "five"
    assert ref_any_core.classify(black, set(), (7, 7)) == "none"


def test_play3_forbidden_points_lists_every_foul(ref_any_core):
    """PLAY-3: forbidden_points agrees with classify point by point."""
    black = {(6, 7), (9, 7), (6, 8), (5, 9), (4, 7), (5, 7), (8, 8), (7, 9)}
    white = {(10, 7), (3, 3)}
    fouls = ref_any_core.forbidden_points(black, white)
    expected = {}
    for x in range(15):
        for y in range(15):
            if (x, y) in black or (x, y) in white:
                continue
            k = reference.classify(black, white, (x, y))
            if k in ("overline", "double_four", "double_three"):
                expected[(x, y)] = k
    assert expected  # the position has fouls to find
    assert dict(fouls) == expected


@pytest.mark.parametrize(
    "stones,point,expected",
    [
        ({(1, 0), (2, 0)}, (0, 0), 3),
        ({(1, 1), (2, 2), (4, 4), (5, 5)}, (3, 3), 5),
        ({(7, 8), (7, 9), (8, 7)}, (7, 7), 3),
        (set(), (14, 14), 1),
    ],
)
def test_play1_line_length(ref_any_core, stones, point, expected):
    """PLAY-1: longest run through the point, the point counted."""
    assert ref_any_core.line_length(stones, point) == expected


@pytest.mark.parametrize(
    "black,white,point",
    [
        ({(7, 7)}, set(), (7, 7)),  # occupied
        ({(7, 7)}, {(7, 7)}, (1, 1)),  # a point holds both colours
        (set(), set(), (15, 0)),  # off the board
        (set(), set(), (1,)),  # not a pair
        ({(1.0, 2)}, set(), (3, 3)),  # not integers
    ],
)
def test_play3_reference_rejects_bad_input(black, white, point):
    """PLAY-3 reference core: bad input is refused with a clear ValueError."""
    with pytest.raises(ValueError):
        reference.classify(black, white, point)
