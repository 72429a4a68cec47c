"""The boards a process keeps drawn (issue 33, ADR 0010): one per game, as of its version. They
were kept by game and version and all dropped at 20,000: every move of a long event added one, and
each clearing redrew every followed game's board at once."""

from __future__ import annotations

from gameplay_kit import played_game as game

from gameplay.service_layer.views import DrawnBoards


def test_a_new_version_replaces_the_games_board_and_an_unchanged_one_is_not_drawn_again():
    boards = DrawnBoards(size=10)
    first = boards.board(game(version=1))
    assert boards.board(game(version=1)) is first  # drawn once per version
    second = boards.board(game(version=2))
    assert second is not first and len(boards) == 1


def test_past_its_size_the_board_drawn_longest_ago_is_dropped_not_all():
    boards = DrawnBoards(size=3)
    kept = {n: boards.board(game(game_id=f"g{n}")) for n in range(3)}
    assert boards.board(game(game_id="g0")) is kept[0]  # g0 read again: now the most recent
    boards.board(game(game_id="g3"))  # a fourth game: g1, drawn longest ago, goes
    assert len(boards) == 3
    assert boards.board(game(game_id="g0")) is kept[0] and boards.board(game(game_id="g2")) is kept[2]
    assert boards.board(game(game_id="g1")) is not kept[1]  # drawn again
