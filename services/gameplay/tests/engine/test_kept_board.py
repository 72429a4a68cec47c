"""PLAY-3: the board a game keeps (``KeptBoard``) judges forbidden points from state kept move
by move; after any sequence of moves and take-backs that state equals the state rebuilt from
the stones alone, and its answers equal the stone-list functions' and the reference's."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import _core, reference

SIZE = 15


def _stones(board) -> tuple[list, list]:
    black = [p for p, is_black in board.moves() if is_black]
    white = [p for p, is_black in board.moves() if not is_black]
    return black, white


# A script of actions: ("place", x, y, black) or ("undo",); clustered near the centre, where
# shapes form, and black-heavy so that fouls are frequent.
_place = st.tuples(st.just("place"), st.integers(2, 12), st.integers(2, 12), st.sampled_from([True, True, True, False]))
_script = st.lists(st.one_of(_place, _place, _place, st.just(("undo",))), min_size=1, max_size=120)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_script)
def test_play3_kept_state_equals_state_rebuilt_after_moves_and_undos(script):
    """PLAY-3: after every action of a random place/undo script, the kept pattern entries,
    summaries and suspect cells equal those rebuilt from scratch, and the kept board's
    forbidden points equal ``forbidden_points`` on its stone lists."""
    board = _core.KeptBoard()
    for action in script:
        if action[0] == "undo":
            if not board.moves():
                with pytest.raises(ValueError, match="no stone"):
                    board.undo()
                continue
            last = board.moves()[-1][0]
            assert board.undo() == last
        else:
            _, x, y, black = action
            if any(p == (x, y) for p, _ in board.moves()):
                with pytest.raises(ValueError, match="occupied"):
                    board.place((x, y), black)
                continue
            board.place((x, y), black)
        assert board._state() == board._rebuilt_state()
        black_stones, white_stones = _stones(board)
        assert board.forbidden_points() == _core.forbidden_points(black_stones, white_stones)


def _random_game_boards(seed: int, games: int):
    """Boards of random local games, taken back to a random earlier move now and then."""
    rng = random.Random(seed)
    for _ in range(games):
        board = _core.KeptBoard()
        occupied: set = set()
        for ply in range(rng.randint(15, 70)):
            while True:
                p = (rng.randint(3, 11), rng.randint(3, 11))
                if p not in occupied:
                    break
            board.place(p, ply % 2 == 0 or rng.random() < 0.3)
            occupied.add(p)
            if rng.random() < 0.1:
                for _ in range(rng.randint(1, 3)):
                    if board.moves():
                        occupied.discard(board.undo())
        yield board


def test_play3_kept_board_agrees_with_the_reference_on_random_games():
    """PLAY-3: on 60 random games (with take-backs) the kept board's forbidden points and its
    verdict on every empty point equal the plain-Python reference's, and the sample holds
    fouls of every kind."""
    kinds_seen = set()
    for board in _random_game_boards(20261206, 60):
        black, white = _stones(board)
        expected = reference.forbidden_points(black, white)
        assert board.forbidden_points() == expected, (black, white)
        assert board.forbidden_count() == board._forbidden_count_scan() == len(expected)
        kinds_seen.update(expected.values())
        occupied = set(black) | set(white)
        for x in range(SIZE):
            for y in range(SIZE):
                if (x, y) not in occupied:
                    assert board.classify((x, y)) == _core.classify(black, white, (x, y))
    assert kinds_seen == {"double_three", "double_four", "overline"}


def test_play3_stone_list_filter_agrees_with_the_full_scan():
    """PLAY-3: ``forbidden_points`` (packed suspect filter) equals ``_forbidden_points_scan``
    (every cell with black stones near) on 2,000 random positions of every density, edges
    and corners included."""
    rng = random.Random(7)
    fouls = 0
    cells = [(x, y) for x in range(SIZE) for y in range(SIZE)]
    for _ in range(2000):
        rng.shuffle(cells)
        nb = rng.randint(4, 90)
        nw = rng.randint(0, nb)
        black, white = cells[:nb], cells[nb : nb + nw]
        expected = _core._forbidden_points_scan(black, white)
        fouls += len(expected)
        assert _core.forbidden_points(black, white) == expected, (black, white)
    assert fouls > 500


def test_play3_kept_board_refuses_bad_input_and_survives_a_copy():
    """PLAY-3: off-board or malformed points are refused with ValueError; a pickled copy
    holds the same stones and answers the same."""
    board = _core.KeptBoard()
    for bad in [(15, 0), (-1, 3), "a1", (1.0, 2), (True, 1), (1, 2, 3), (2**70, 1)]:
        with pytest.raises(ValueError):
            board.place(bad, True)
    for p in [(7, 7), (8, 8), (7, 9), (9, 7)]:
        board.place(p, True)
    board.place((0, 0), False)
    with pytest.raises(ValueError, match="occupied"):
        board.classify((7, 7))
    copy = pickle.loads(pickle.dumps(board))
    assert copy.moves() == board.moves()
    assert copy.classify((8, 7)) == board.classify((8, 7)) == _core.classify(*_stones(board), (8, 7))
    assert copy._state() == board._state()


def test_play3_reference_kept_board_matches_the_compiled_one():
    """PLAY-3: the reference's KeptBoard (the protocol written plainly) answers as the
    compiled one on a few random games."""
    for board in _random_game_boards(99, 8):
        plain = reference.KeptBoard()
        for p, black in board.moves():
            plain.place(p, black)
        assert plain.forbidden_points() == board.forbidden_points()
        assert plain.moves() == board.moves()
        last = plain.undo()
        assert last == board.undo()
        assert plain.forbidden_points() == board.forbidden_points()


def test_play3_game_forbidden_points_follow_its_moves():
    """PLAY-3: a professional game's forbidden points (from its kept board) equal
    ``forbidden_points`` of its stones after every move of 30 random local games, and each
    black move's verdict equals ``classify`` on the stones before it."""
    from gameplay.engine import Game, RuleSet

    rng = random.Random(33)
    checked = 0
    for _ in range(30):
        game = Game(RuleSet.professional(), _core)
        played = [(7, 7)]
        game.play((7, 7))
        while game.result is None and len(played) < 90:
            ax, ay = rng.choice(played)
            p = (ax + rng.randint(-2, 2), ay + rng.randint(-2, 2))
            if not (0 <= p[0] < SIZE and 0 <= p[1] < SIZE) or p in played:
                continue
            black_to_move = len(played) % 2 == 0
            before = _core.classify(game.black, game.white, p) if black_to_move else None
            game.play(p)
            played.append(p)
            if before in ("overline", "double_four", "double_three"):
                assert game.result is not None and game.result.foul == before
            assert game.forbidden_points() == _core.forbidden_points(game.black, game.white)
            checked += 1
    assert checked > 300
