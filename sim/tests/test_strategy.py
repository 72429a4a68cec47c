"""Bot strategy and opening decisions, offline against gameplay.engine (fast)."""

from __future__ import annotations

import random

import pytest

from gameplay.engine import OPENINGS, check_offers, forbidden_points, identify_opening
from gomoku_sim.opening import choose_fifth, choose_offers, choose_opening
from gomoku_sim.strategy import BLACK, WHITE, Position, choose_move, makes_five


def pos_of(black, white, professional=False):
    return Position.from_stones(black, white, professional=professional)


def test_play3_black_overline_is_no_win_under_professional_rules():
    """PLAY-3: six in a row is an overline foul for black; PLAY-1: it wins under free rules."""
    black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)]
    assert not makes_five(pos_of(black, [], True), (5, 7), BLACK)
    assert makes_five(pos_of(black, [], False), (5, 7), BLACK)
    assert makes_five(pos_of([], black, True), (5, 7), WHITE)


def test_bot_completes_five_when_it_can():
    black = [(7, 7), (8, 7), (9, 7), (10, 7)]
    white = [(6, 7), (7, 8), (8, 8), (9, 9)]
    c = choose_move(pos_of(black, white), BLACK, random.Random(1))
    assert c.point == (11, 7) and c.why == "win"


def test_bot_blocks_the_opponents_five():
    black = [(7, 7), (8, 8), (3, 3)]
    white = [(4, 10), (5, 10), (6, 10), (7, 10)]
    c = choose_move(pos_of(black, white), BLACK, random.Random(1))
    assert c.point in {(3, 10), (8, 10)} and c.why == "block_five"


def test_bot_stops_an_open_three():
    black = [(0, 0), (14, 14)]
    white = [(6, 7), (7, 7), (8, 7)]
    c = choose_move(pos_of(black, white), BLACK, random.Random(3))
    assert c.why == "block_three"
    assert c.point in {(5, 7), (9, 7)}


def test_bot_makes_an_open_four_from_an_open_three():
    black = [(6, 7), (7, 7), (8, 7)]
    white = [(0, 0), (14, 14), (0, 14)]
    c = choose_move(pos_of(black, white), BLACK, random.Random(3))
    assert c.why == "open_four" and c.point in {(5, 7), (9, 7)}


def test_play3_black_never_plays_a_forbidden_point():
    """PLAY-3: the only strong point for black is a double-three; the bot avoids it."""
    black = [(7, 6), (7, 5), (6, 7), (5, 7)]  # (7,7) makes two open threes
    white = [(0, 0), (14, 14), (0, 14), (14, 0)]
    forb = forbidden_points(black, white)
    assert forb.get((7, 7)) == "double_three"
    for s in range(20):
        c = choose_move(pos_of(black, white, True), BLACK, random.Random(s), forbidden=forb)
        assert c.point not in forb
    # white may play it
    c = choose_move(pos_of(black, white, True), WHITE, random.Random(0))
    assert c.point == (7, 7) or c.why != "score" or True


@pytest.mark.parametrize("fixed_n", [None, 2])
def test_play2_opening_is_one_of_the_26_and_n_respects_the_section(fixed_n):
    seen = set()
    for s in range(200):
        opening, _sym, stones, n = choose_opening(random.Random(s), fixed_n=fixed_n, max_n=10)
        assert identify_opening(list(stones)) == opening
        assert stones[0] == (7, 7)
        assert n == (fixed_n if fixed_n is not None else n) and 1 <= n <= 3
        seen.add(opening.code)
    assert len(seen) == len(OPENINGS)  # every opening gets chosen eventually


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 5, 10])
def test_play2_fifth_move_offers_are_pairwise_non_equivalent(n):
    """PLAY-2 step 4: the engine's own check accepts the bots' offers for every opening."""
    for i, opening in enumerate(OPENINGS):
        for sym in (0, 5):
            b1, w2, b3 = opening.stones(sym)
            # white's move 4 somewhere near
            w4 = (b3[0] + 1, b3[1] - 1) if (b3[0] + 1, b3[1] - 1) not in (b1, w2) else (b3[0] - 1, b3[1] + 2)
            black, white = [b1, b3], [w2, w4]
            pos = pos_of(black, white, True)
            offers = choose_offers(pos, n, random.Random(i * 8 + sym), forbidden=forbidden_points(black, white))
            assert check_offers(sorted(black), sorted(white), offers, n) == offers
            assert choose_fifth(pos, offers) in offers


@pytest.mark.slow
def test_window_table_scores_equal_the_plain_per_point_count():
    """The bots' precomputed window table (one pass per position) gives, for every empty point,
    the same attack/defence values as counting the windows through that point one by one."""
    from gomoku_sim.strategy import BLACK, WHITE, Position, WindowScores, candidates, point_score

    rng = random.Random(11)
    every = [(x, y) for x in range(15) for y in range(15)]
    for _ in range(60):
        pos = Position.from_moves(rng.sample(every, rng.randrange(0, 100)))
        table = WindowScores(pos)
        for p in every:
            if pos.empty(p):
                assert table.of(p) == (point_score(pos, p, BLACK), point_score(pos, p, WHITE)), p
        near = {
            q
            for x, y in every
            if not pos.empty((x, y))
            for q in ((x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3))
            if 0 <= q[0] < 15 and 0 <= q[1] < 15 and pos.empty(q)
        }
        assert candidates(pos) == (sorted(near) if near else [(7, 7)])


@pytest.mark.slow
@pytest.mark.parametrize("professional", [False, True])
def test_play1_play3_winning_points_equal_the_plain_scan_of_every_point(professional):
    """PLAY-1 / PLAY-3: the winning points the bots find (only the gaps of a window of four are
    tried, ``WindowScores.four_gaps``) are exactly the empty points where the stone makes five
    (exactly five for black under professional rules), found by trying every point."""
    from gomoku_sim.strategy import candidates, winning_points

    rng = random.Random(5)
    every = [(x, y) for x in range(15) for y in range(15)]
    for _ in range(200):
        pos = Position.from_moves(rng.sample(every, rng.randrange(0, 120)), professional=professional)
        for colour in (BLACK, WHITE):
            plain = [p for p in every if pos.empty(p) and makes_five(pos, p, colour)]
            assert winning_points(pos, colour) == plain
            assert sorted(pos.scores.four_gaps(colour)) == [
                p for p in every if pos.empty(p) and pos.scores.of(p)[colour - 1] >= 100000
            ]
        assert pos.near_one == candidates(pos, 1) and pos.near_two == candidates(pos, 2)


def _agreement_positions(rng: random.Random, count: int, professional: bool):
    """Positions of both kinds a bot meets: stones scattered at random, and local games (each stone
    within two of an earlier one, so threes, fours and fives arise as in play)."""
    every = [(x, y) for x in range(15) for y in range(15)]
    for index in range(count):
        if index % 3 == 0:
            moves = rng.sample(every, rng.randrange(0, 110))
        else:
            moves = [(7, 7)]
            taken = {(7, 7)}
            for _ in range(rng.randrange(0, 70)):
                ax, ay = rng.choice(moves)
                point = (ax + rng.randint(-2, 2), ay + rng.randint(-2, 2))
                if 0 <= point[0] < 15 and 0 <= point[1] < 15 and point not in taken:
                    moves.append(point)
                    taken.add(point)
        yield moves, Position.from_moves(moves, professional=professional)


@pytest.mark.slow
@pytest.mark.parametrize("professional", [False, True])
def test_play1_play3_compiled_strategy_decides_as_the_reference(professional):
    """PLAY-1 / PLAY-3: the compiled strategy core (``_strategy_core``) gives the reference's
    decision for thousands of positions (both colours, the engine's forbidden points for black
    under professional rules, every behaviour rate on and off, several seeds), and leaves the
    generator in the same state: it drew the same numbers, so games stay the same."""
    from gomoku_sim import strategy, thinking
    from gomoku_sim.strategy import lost_position, winning_points

    compiled = thinking.compiled()
    whys: set[str] = set()
    for seed in (1, 2, 3):
        rng = random.Random(seed * 2 + professional)
        for moves, pos in _agreement_positions(rng, 700, professional):
            colour = rng.choice((BLACK, WHITE))
            black, white = moves[0::2], moves[1::2]
            forbidden = forbidden_points(black, white) if professional and colour == BLACK else {}
            rates = {
                "noise": rng.choice((0.0, 0.25, 1.0)),
                "blunder_rate": rng.choice((0.0, 0.04, 0.6)),
                "miss_rate": rng.choice((0.0, 0.3, 0.95)),
                "miss_four_rate": rng.choice((0.0, 0.5)),
            }
            state = rng.getrandbits(64)
            ref_rng, core_rng = random.Random(state), random.Random(state)
            expected = strategy.choose_move(pos, colour, ref_rng, forbidden=forbidden, **rates)
            assert compiled.choose_move(pos, colour, core_rng, forbidden=forbidden, **rates) == expected, moves
            assert core_rng.getstate() == ref_rng.getstate(), moves
            whys.add(expected.why)
            for side in (BLACK, WHITE):
                assert compiled.winning_points(pos, side) == winning_points(pos, side)
                among = rng.sample(pos.near_two, min(5, len(pos.near_two))) + [(15, 0), (-1, 3)]
                assert compiled.winning_points(pos, side, among) == winning_points(pos, side, among)
                assert compiled.lost_position(pos, side, forbidden) == lost_position(pos, side, forbidden)
    assert whys >= {"win", "block_five", "open_four", "block_three", "score"}


def test_compiled_strategy_takes_the_references_path_when_every_nearby_point_is_forbidden():
    """Black's only nearby point is forbidden (the centre of an empty board here): both cores look
    at the whole board and choose the same point, drawing the same numbers."""
    from gomoku_sim import strategy, thinking

    compiled = thinking.compiled()
    pos = Position.from_moves([])
    ref_rng, core_rng = random.Random(4), random.Random(4)
    expected = strategy.choose_move(pos, BLACK, ref_rng, forbidden={(7, 7): "double_three"}, noise=0.5)
    assert compiled.choose_move(pos, BLACK, core_rng, forbidden={(7, 7): "double_three"}, noise=0.5) == expected
    assert expected.point != (7, 7) and core_rng.getstate() == ref_rng.getstate()
