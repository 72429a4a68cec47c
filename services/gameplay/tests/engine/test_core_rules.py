"""Hand-built classics for the compiled core (PLAY-3 forbidden moves, PLAY-1 line length).

Positions are written as lines of text laid along a direction from a start point:
``X`` black, ``O`` white, ``.`` empty, ``*`` the point being classified (empty). Each
case cites the Renju (RIF) reasoning that decides it.
"""

from __future__ import annotations

import pytest

from gameplay.engine import _core

ROW, COL, DIAG, ANTI = (1, 0), (0, 1), (1, 1), (1, -1)


def lay(*lines):
    """Merge lines ``(pattern, start, direction)`` into (black, white, point)."""
    black, white, point = set(), set(), None
    for pattern, (x0, y0), (dx, dy) in lines:
        for i, ch in enumerate(pattern):
            p = (x0 + i * dx, y0 + i * dy)
            if ch == "X":
                black.add(p)
            elif ch == "O":
                white.add(p)
            elif ch == "*":
                assert point in (None, p), "one point per position"
                point = p
    assert not (black & white)
    return sorted(black), sorted(white), point


def kind(*lines):
    black, white, point = lay(*lines)
    return _core.classify(black, white, point)


# Lines through h8 = (7, 7): a pattern whose k-th character sits on (7, 7) starts k cells back.
def through_h8(pattern, direction):
    k = pattern.index("*")
    return pattern, (7 - k * direction[0], 7 - k * direction[1]), direction


IN_LINE = [
    # (id, pattern, expected, why)
    ("X.XXX.X middle", "X.X*X.X", "double_four", "two fours on one line, different four stones"),
    ("X.XXX.X end", "*.XXX.X", "none", "only the left four runs through the move; XXX.X was there"),
    ("XX.XX.XX", "XX.*X.XX", "double_four", "two fours sharing the middle pair"),
    ("XXX.X.XXX", "XXX.*.XXX", "double_four", "two fours sharing the middle stone"),
    ("straight four", ".XX*X.", "none", "a straight four is ONE four: two completions, same four stones"),
    ("XX.X.XX gap -> XXXX.XX", "XX*X.XX", "none", "one four only: the other gap would make seven"),
    ("XX.X.XX middle", "XX.*.XX", "none", "no four at all: each gap gives an unbroken four, not five"),
    ("five", "XX*XX", "five", "exactly five"),
    ("five at edge of line", "*XXXX.", "five", "exactly five"),
    ("overline six", "XXX*XX", "overline", "six in a row"),
    ("overline six end", "*XXXXX", "overline", "six in a row"),
    ("overline seven", "XXX*XXX", "overline", "seven in a row"),
    ("single open three", ".XX*..", "none", "one three is legal"),
]


@pytest.mark.parametrize("direction", [ROW, COL, DIAG, ANTI], ids=["row", "col", "diag", "anti"])
@pytest.mark.parametrize(("pattern", "expected"), [(c[1], c[2]) for c in IN_LINE], ids=[c[0] for c in IN_LINE])
def test_play3_single_line_shapes(pattern, expected, direction):
    """PLAY-3: in-line double fours, overlines, the XX.X.XX near miss, in all 4 directions."""
    assert kind(through_h8(pattern, direction)) == expected


def test_play3_xx_x_xx_near_miss_is_exactly_one_four():
    """PLAY-3: XX.X.XX with a gap filled (XXXX.XX) is one four: alone it is legal, and one
    more four in another direction makes it a double four (so it counted exactly once)."""
    line = through_h8("XX*X.XX", ROW)
    assert kind(line) == "none"
    assert kind(line, through_h8("XX*X", COL)) == "double_four"
    # With the open end blocked by white there is no four left on the row at all.
    assert kind(through_h8("OXX*X.XX", ROW), through_h8("XX*X", COL)) == "none"


def test_play3_double_three_basic_cross():
    """PLAY-3: two open threes through the move is a double three; one is legal."""
    assert kind(through_h8(".X*X.", ROW), through_h8(".X*X.", COL)) == "double_three"
    assert kind(through_h8(".X*X.", ROW), through_h8(".X.*X.", DIAG)) == "double_three"
    assert kind(through_h8(".X*X.", ROW)) == "none"


def test_play3_five_wins_over_overline():
    """PLAY-3: exactly five wins even when the same stone makes an overline elsewhere."""
    assert kind(through_h8("XX*XX", ROW), through_h8("XX*XXX", COL)) == "five"


def test_play3_five_wins_over_double_four():
    """PLAY-3: exactly five wins even when the same stone makes a double four."""
    assert kind(through_h8("XX*XX", ROW), through_h8("XX*X", COL), through_h8("X*XX", DIAG)) == "five"
    assert kind(through_h8("XX*XX", ROW), through_h8("X.X*X.X", COL)) == "five"


def test_play3_five_wins_over_double_three():
    """PLAY-3: exactly five wins even when the same stone makes a double three."""
    assert kind(through_h8("XX*XX", ROW), through_h8(".X*X.", COL), through_h8(".X*X.", DIAG)) == "five"


def test_play3_four_three_is_legal():
    """PLAY-3: 4-3 (one four and one three) is legal."""
    assert kind(through_h8("OXXX*.", ROW), through_h8(".X*X.", COL)) == "none"


def test_play3_four_three_three_is_double_three_foul():
    """PLAY-3: 4-3-3 is a double-three foul."""
    assert kind(through_h8("OXXX*.", ROW), through_h8(".X*X.", COL), through_h8("..*XX.", DIAG)) == "double_three"


def test_play3_four_four_three_is_double_four_foul():
    """PLAY-3: 4-4-3 is a double-four foul (double four outranks double three)."""
    assert kind(through_h8("OXXX*.", ROW), through_h8(".*XXX.", DIAG), through_h8(".X*X.", COL)) == "double_four"


def test_play3_overline_outranks_double_four():
    """PLAY-3: overline > double four > double three when several apply."""
    assert kind(through_h8("XXX*XX", ROW), through_h8("XX*X", COL), through_h8("X*XX", DIAG)) == "overline"


def test_play3_three_blocked_by_edge_is_not_a_three():
    """PLAY-3: XXX against the board edge cannot become a straight four, so it is no three;
    the same stones one cell in from the edge are an open three."""
    # Row from the left edge: move a8 = (0, 7), b8 c8 black. Column through a8: open three.
    black, white, point = lay(("*XX...", (0, 7), ROW), (".X*X..", (0, 5), COL))
    assert point == (0, 7)
    assert _core.classify(black, white, point) == "none"
    # One column to the right, .*XX... is an open three: now a double three.
    black, white, point = lay((".*XX...", (0, 7), ROW), (".X*X..", (1, 5), COL))
    assert _core.classify(black, white, point) == "double_three"
    # Diagonal ending in the corner a1: a1 b2 black, move c3 -> blocked, plus an open row three.
    black, white, point = lay(("XX*..", (0, 0), DIAG), (".X*X.", (0, 2), ROW))
    assert point == (2, 2)
    assert _core.classify(black, white, point) == "none"


def test_play3_three_blocked_by_white_is_not_a_three():
    """PLAY-3: a three whose straight four is prevented by a white stone is no three."""
    assert kind(through_h8("OX*X.O", ROW), through_h8(".X*X.", COL)) == "none"
    assert kind(through_h8("OXX*..", ROW), through_h8(".X*X.", COL)) == "none"
    # ..XXX.O: the four towards the white stone is blocked, but the other one
    # (.XXXX.O) is straight -- the O sits beyond its five point -- so this IS a three.
    assert kind(through_h8("..X*X.O", ROW), through_h8(".X*X.", COL)) == "double_three"


def test_play3_split_three_counts_like_an_open_three():
    """PLAY-3: .X.XX. is a three (its gap makes a straight four)."""
    assert kind(through_h8(".X.*X.", ROW), through_h8(".X*X.", COL)) == "double_three"


def test_play3_straight_four_needs_both_ends_to_make_exactly_five():
    """PLAY-3: in X..XXX.. the left straight-four point is spoiled (its four would make six
    with the far X) but the right one is fine, so it is a three. In X.XXX.. the stones are
    a four (the gap makes five), and XXXX. next to X. is no straight four: 4-3, legal."""
    assert kind(through_h8("X..X*X..", ROW), through_h8(".X*X.", COL)) == "double_three"
    assert kind(through_h8("X.X*X..", ROW), through_h8(".X*X.", COL)) == "none"


def test_play3_recursive_three_whose_point_is_double_four_is_not_a_three():
    """PLAY-3: the row .X.X*. (move h8) has one straight-four point, f8 = (5, 7). With a
    column four above f8 (f9, f10, f11) that point is itself a double four (row four +
    column four), so the row is not a three: with the open column three through h8 the
    move is legal. Without the f-column stones it is a double three."""
    row = ("X.X*", (4, 7), ROW)
    column_three = through_h8(".*XX.", COL)
    base = lay(row, column_three)
    assert _core.classify(*base) == "double_three"
    f_column = ("XXX", (5, 8), COL)
    assert _core.classify(*lay(row, column_three, f_column)) == "none"
    # The completion point really is a double four once h8 is placed.
    black, white, _ = lay(row, column_three, f_column)
    assert _core.classify(black + [(7, 7)], white, (5, 7)) == "double_four"


def test_play3_three_whose_completion_makes_five_is_not_a_three():
    """PLAY-3: a three counts only if its straight four is made WITHOUT making a five: the
    row .X.X*. completes only on f8, and f8 also completes the f4-f7 column to five."""
    row = ("X.X*", (4, 7), ROW)
    column_three = through_h8(".*XX.", COL)
    f_column_four = ("XXXX", (5, 3), COL)  # f4..f7, so f8 makes exactly five
    assert _core.classify(*lay(row, column_three, f_column_four)) == "none"
    black, white, _ = lay(row, column_three, f_column_four)
    assert _core.classify(black + [(7, 7)], white, (5, 7)) == "five"


def test_play3_recursion_two_levels_deep():
    """PLAY-3 (recursive): the completion point's own threes are judged the same way. The
    row three's only point f8 is a 4-3-3 (a double three, each of its threes checked in
    turn), so the row is no three and h8 with one other three is legal."""
    row = ("X.X*", (4, 7), ROW)  # f8 = (5,7) is the row's only straight-four point
    column_three = through_h8(".*XX.", COL)
    # f8 with h8 placed: row four (e8 f8 g8 h8), split column three (f8 . f10 f11) and
    # anti-diagonal three (d10 e9 f8) -> 4-3-3, itself a double three.
    f_col = (".XX.", (5, 8), COL)
    f_anti = ("XX", (3, 9), ANTI)
    black, white, point = lay(row, column_three, f_col, f_anti)
    assert _core.classify(black + [(7, 7)], white, (5, 7)) == "double_three"
    assert _core.classify(black, white, point) == "none"


def test_play3_forbidden_points_lists_every_foul_with_kind():
    """PLAY-3: forbidden_points returns each empty forbidden point with its kind."""
    black = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)]
    assert _core.forbidden_points(black, []) == {(6, 7): "overline"}
    cross = [(6, 7), (8, 7), (7, 6), (7, 8)]
    assert _core.forbidden_points(cross, []) == {(7, 7): "double_three"}
    assert _core.forbidden_points([], []) == {}
    # A five point is a win, never listed.
    assert _core.forbidden_points([(3, 3), (4, 3), (5, 3), (6, 3)], []) == {}


def test_play3_forbidden_points_matches_classify_on_every_point():
    """PLAY-3: forbidden_points agrees with classify point by point."""
    black, white, _ = lay(through_h8("X.X*X.X", ROW), through_h8(".X*X.", COL), through_h8("XX*.XX", DIAG))
    fouls = _core.forbidden_points(black, white)
    occupied = set(black) | set(white)
    for x in range(15):
        for y in range(15):
            if (x, y) in occupied:
                continue
            k = _core.classify(black, white, (x, y))
            assert fouls.get((x, y), "none" if k in ("none", "five") else "missing") == k
    assert fouls  # the position has at least one foul


# ---------------------------------------------------------------- PLAY-1 line length


@pytest.mark.parametrize(
    ("stones", "point", "expected"),
    [
        ([], (7, 7), 1),
        ([(8, 7), (9, 7)], (7, 7), 3),
        ([(0, 0), (1, 1), (2, 2), (3, 3)], (4, 4), 5),  # diagonal from the corner
        ([(1, 1), (2, 2), (3, 3), (4, 4)], (0, 0), 5),  # the corner itself
        ([(14, 0), (13, 1), (12, 2), (11, 3), (10, 4)], (9, 5), 6),  # anti-diagonal from a corner
        ([(x, 14) for x in range(1, 15)], (0, 14), 15),  # the whole top edge
        ([(0, y) for y in range(10)], (0, 10), 11),
        ([(5, 7), (6, 7), (8, 7), (9, 7), (10, 7)], (7, 7), 6),  # the point joins two runs
        ([(5, 7), (6, 7), (9, 7), (10, 7)], (7, 7), 3),  # a gap stops the run
        ([(7, 7), (8, 8)], (7, 7), 2),  # point already among the stones counts once
        ([(14, 13), (14, 12)], (14, 14), 3),
    ],
)
def test_play1_line_length(stones, point, expected):
    """PLAY-1: longest line through the point, point counted, clipped at the edges."""
    assert _core.line_length(stones, point) == expected


# ---------------------------------------------------------------- input validation


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: _core.classify([(15, 0)], [], (7, 7)), "off the 15x15 board"),
        (lambda: _core.classify([(-1, 3)], [], (7, 7)), "off the 15x15 board"),
        (lambda: _core.classify([], [(0, 15)], (7, 7)), "off the 15x15 board"),
        (lambda: _core.classify([], [], (7, 15)), "off the 15x15 board"),
        (lambda: _core.classify([(7, 7)], [], (7, 7)), "occupied"),
        (lambda: _core.classify([], [(7, 7)], (7, 7)), "occupied"),
        (lambda: _core.classify([(3, 3)], [(3, 3)], (7, 7)), "overlaps"),
        (lambda: _core.classify([(3, 3), (3, 3)], [], (7, 7)), "twice"),
        (lambda: _core.classify([(3, 3, 3)], [], (7, 7)), "(x, y) pair"),
        (lambda: _core.classify([3], [], (7, 7)), "(x, y) pair"),
        (lambda: _core.forbidden_points([(2, 2)], [(2, 2)]), "overlaps"),
        (lambda: _core.forbidden_points([(20, 2)], []), "off the 15x15 board"),
        (lambda: _core.line_length([(1, 1)], (15, 1)), "off the 15x15 board"),
        (lambda: _core.line_length([(1, 1), (1, 1)], (2, 2)), "twice"),
        (lambda: _core.classify([(2**70, 0)], [], (7, 7)), "off the 15x15 board"),
        (lambda: _core.classify([(True, 0)], [], (7, 7)), "integers"),
        (lambda: _core.classify([(1.0, 0)], [], (7, 7)), "integers"),
        (lambda: _core.classify([], [], ("h", 8)), "integers"),
        (lambda: _core.classify(7, [], (7, 7)), "collection"),
        (lambda: _core.forbidden_points("h8", []), "collection"),
        (lambda: _core.line_length(None, (7, 7)), "collection"),
    ],
)
def test_play1_invalid_input_raises_value_error(call, message):
    """PLAY-1: off-board coordinates, overlapping stones and occupied points are refused."""
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_core_accepts_lists_sets_and_generators():
    """PLAY-3: stones may come as any iterable of (x, y) pairs."""
    black = [(6, 7), (8, 7), (7, 6), (7, 8)]
    expected = "double_three"
    assert _core.classify(black, [], (7, 7)) == expected
    assert _core.classify(set(black), (), [7, 7]) == expected
    assert _core.classify((list(p) for p in black), iter([]), (7, 7)) == expected


def test_play3_needs_recursion_marks_only_possible_double_threes():
    """PLAY-3: the benchmark's selector -- two potential threes and nothing stronger."""
    cross = [(6, 7), (8, 7), (7, 6), (7, 8)]
    assert _core._needs_recursion(cross, [], (7, 7)) is True
    assert _core._needs_recursion(cross[:2], [], (7, 7)) is False  # one three
    black, white, point = lay(through_h8("XX*X", ROW), through_h8("XX*X", COL))
    assert _core._needs_recursion(black, white, point) is False  # double four decided first
    with pytest.raises(ValueError, match="occupied"):
        _core._needs_recursion(cross, [], (6, 7))


def test_play3_open_three_survives_while_one_straight_four_point_is_legal():
    """PLAY-3 (recursive): the row .X*X. has two straight-four points, f8 and j8. A column
    four above f8 makes f8 a double four, but j8 is still legal, so the row is a three and
    h8 (with the column three h9 h10) is a double three. With j8 spoiled the same way the
    row is no three and h8 is legal."""
    base = [(6, 7), (8, 7), (7, 8), (7, 9)]
    above_f8 = [(5, 8), (5, 9), (5, 10)]
    above_j8 = [(9, 8), (9, 9), (9, 10)]
    assert _core.classify(base, [], (7, 7)) == "double_three"
    assert _core.classify(base + above_f8, [], (7, 7)) == "double_three"
    assert _core.classify(base + above_f8 + [(7, 7)], [], (5, 7)) == "double_four"
    assert _core.classify(base + above_f8 + [(7, 7)], [], (9, 7)) == "none"
    assert _core.classify(base + above_f8 + above_j8, [], (7, 7)) == "none"


def test_play3_forbidden_points_equals_classify_on_every_point_random():
    """PLAY-3: forbidden_points (which skips points with fewer than 4 black stones within 5
    on their lines) lists exactly the points classify calls forbidden, on 1,500 seeded dense
    random clusters anywhere on the board."""
    import random

    rng = random.Random(20261129)
    fouls_seen = 0
    for _ in range(1_500):
        cx, cy, r = rng.randrange(15), rng.randrange(15), rng.randint(2, 7)
        xs, ys = range(max(0, cx - r), min(15, cx + r + 1)), range(max(0, cy - r), min(15, cy + r + 1))
        cells = [(x, y) for x in xs for y in ys]
        rng.shuffle(cells)
        nb = int(len(cells) * rng.uniform(0.1, 0.5))
        nw = int(len(cells) * rng.uniform(0.0, 0.25))
        black, white = cells[:nb], cells[nb : nb + nw]
        occupied = set(black) | set(white)
        expected = {}
        for x in range(15):
            for y in range(15):
                if (x, y) not in occupied:
                    k = _core.classify(black, white, (x, y))
                    if k not in ("none", "five"):
                        expected[(x, y)] = k
        assert _core.forbidden_points(black, white) == expected, (black, white)
        fouls_seen += len(expected)
    assert fouls_seen > 1_000
