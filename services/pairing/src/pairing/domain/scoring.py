"""Round points: two-game rounds (PAIR-5) and team matches (PAIR-9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .model import Board, Code, Outcome

# A single game's result from one player's side.
WIN, DRAW, LOSS = "W", "D", "L"
_GAME_VALUE = {WIN: 2, DRAW: 1, LOSS: 0}


@dataclass(frozen=True)
class TwoGamePoints:
    """PAIR-5: round points by the pair's total (W=2, D=1, L=0 per game: 4..0)."""

    # 2W or 1W+1D → 2; 1W+1L or 2D → 1; 2L or 1L+1D → 0
    by_total: Mapping[int, float] = field(default_factory=lambda: {4: 2, 3: 2, 2: 1, 1: 0, 0: 0})


def two_game_round_points(g1: str, g2: str, table: TwoGamePoints = TwoGamePoints()) -> float:
    """Round points of one player from their two games (PAIR-5)."""
    try:
        total = _GAME_VALUE[g1] + _GAME_VALUE[g2]
    except KeyError as e:
        raise ValueError(f"game result must be W, D or L, got {e.args[0]!r}") from None
    return table.by_total[total]


def two_game_round_outcome(g1: str, g2: str, table: TwoGamePoints = TwoGamePoints()) -> Outcome:
    """Round outcome of a two-game pairing, games given from the board's first player's side.

    The round is recorded as a win/draw/loss of the round so Swiss pairing and tiebreaks run
    on round results (PAIR-5 "paired on round results").
    """
    mine = two_game_round_points(g1, g2, table)
    inv = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}
    theirs = two_game_round_points(inv[g1], inv[g2], table)
    if mine > theirs:
        return Outcome.FIRST_WINS
    if mine < theirs:
        return Outcome.SECOND_WINS
    return Outcome.DRAW


def two_game_movers(board: Board) -> tuple[tuple[int, int], tuple[int, int]]:
    """Who moves first in each game of a two-game round (PAIR-5).

    The player given the first colour by the pairing moves first (black) in game 1; game 2
    swaps, so each player moves first once.
    """
    return (board.first, board.second), (board.second, board.first)


@dataclass(frozen=True)
class MatchPoints:
    """PAIR-9: more game points → win, equal → draw, fewer → loss (values configurable)."""

    win: float = 2
    draw: float = 1
    loss: float = 0


def match_points(game_points_a: float, game_points_b: float, mp: MatchPoints = MatchPoints()) -> tuple[float, float]:
    if game_points_a > game_points_b:
        return mp.win, mp.loss
    if game_points_a < game_points_b:
        return mp.loss, mp.win
    return mp.draw, mp.draw


def code_for_match(mine: float, theirs: float) -> Code:
    return Code.WIN if mine > theirs else Code.LOSS if mine < theirs else Code.DRAW


def board_points(
    outcomes: Sequence[Outcome], game_points: Mapping[Code, float] | None = None
) -> list[tuple[float, float]]:
    """Game points (first mover, second mover) per board from each board's Outcome."""
    gp = game_points or {Code.WIN: 2, Code.DRAW: 1, Code.LOSS: 0, Code.FORFEIT_WIN: 2, Code.FORFEIT_LOSS: 0}
    return [(gp[o.codes()[0]], gp[o.codes()[1]]) for o in outcomes]
