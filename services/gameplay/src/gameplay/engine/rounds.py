"""Multi-game units: the two-game round (PAIR-5, PLAY-6) and the playoff (PLAY-PLAYOFF).

Players of a unit are ``a`` (moves first in game 1) and ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .clock import ClockConfig

RoundPlayer = Literal["a", "b"]
A: RoundPlayer = "a"
B: RoundPlayer = "b"


def _other(player: RoundPlayer) -> RoundPlayer:
    return B if player == A else A


@dataclass(frozen=True)
class PairGame:
    """Result of one game of a two-game round, seen from the round's players.

    ``winner`` is ``a``, ``b`` or None (draw); ``reason`` uses the game's result reasons
    (``five``, ``forbidden``, ``resignation``, ``time_forfeit`` ...). A ``time_forfeit`` means
    the loser's flag fell.
    """

    winner: RoundPlayer | None
    reason: str = "five"

    def __post_init__(self) -> None:
        if self.winner not in (A, B, None):
            raise ValueError(f"winner must be 'a', 'b' or None, not {self.winner!r}")
        if self.reason == "time_forfeit" and self.winner is None:
            raise ValueError("a time forfeit has a winner (both flags down is 'draw_both_flags')")

    @property
    def flagged(self) -> RoundPlayer | None:
        return _other(self.winner) if self.reason == "time_forfeit" and self.winner else None


@dataclass(frozen=True)
class RoundPointsTable:
    """PAIR-5: 2W or 1W+1D -> ``win``; 1W+1L or 2D -> ``draw``; 2L or 1L+1D -> ``loss``."""

    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class RoundResult:
    a: int  # round points of player a
    b: int
    games: tuple[PairGame, PairGame]  # the games as scored (a forfeit turns both into losses)
    forfeited_by: RoundPlayer | None = None  # PLAY-6: flag fell in game 1


def two_game_round_points(
    game1: PairGame, game2: PairGame | None, table: RoundPointsTable = RoundPointsTable()
) -> RoundResult:
    """Round points of a two-game round (PAIR-5), with PLAY-6: a player whose flag falls in
    game 1 loses the whole round (both games), whether or not game 2 is played."""
    if game1.flagged is not None:
        loser = game1.flagged
        lost = PairGame(_other(loser), "time_forfeit")
        pts = {loser: table.loss, _other(loser): table.win}
        return RoundResult(pts[A], pts[B], (game1, lost), forfeited_by=loser)
    if game2 is None:
        raise ValueError("game 2 is needed unless game 1 was lost on time")
    balance = {A: 0, B: 0}  # wins minus losses
    for game in (game1, game2):
        if game.winner is not None:
            balance[game.winner] += 1
            balance[_other(game.winner)] -= 1

    def points(player: RoundPlayer) -> int:
        return table.win if balance[player] > 0 else table.draw if balance[player] == 0 else table.loss

    return RoundResult(points(A), points(B), (game1, game2))


# -- playoff (加赛) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayoffConfig:
    """Clocks of the playoff: the pair of games and the sudden-death single games."""

    pair_clock: ClockConfig
    single_clock: ClockConfig


@dataclass(frozen=True)
class PlayoffGame:
    number: int  # 1-based
    stage: Literal["pair", "single"]
    first_mover: RoundPlayer
    clock: ClockConfig


@dataclass
class Playoff:
    """PLAY-PLAYOFF: two games, each player moving first once; if the pair leaves the players
    level (1W+1L or two draws), single games until one is won.

    Decision (the seeds are silent): the single games alternate the first mover, continuing the
    alternation of the pair (game 3 like game 1)."""

    config: PlayoffConfig
    results: list[RoundPlayer | None] = field(default_factory=list)

    def next_game(self) -> PlayoffGame | None:
        """The game to play next, or None when the playoff is decided."""
        if self.winner is not None:
            return None
        number = len(self.results) + 1
        first = A if number % 2 == 1 else B
        if number <= 2:
            return PlayoffGame(number, "pair", first, self.config.pair_clock)
        return PlayoffGame(number, "single", first, self.config.single_clock)

    def record(self, winner: RoundPlayer | None) -> PlayoffGame | None:
        """Enter the result of the current game (None = draw); returns the next game."""
        if self.winner is not None:
            raise ValueError("the playoff is already decided")
        if winner not in (A, B, None):
            raise ValueError(f"winner must be 'a', 'b' or None, not {winner!r}")
        self.results.append(winner)
        return self.next_game()

    @property
    def winner(self) -> RoundPlayer | None:
        if len(self.results) >= 2:
            wins = {A: 0, B: 0}
            for winner in self.results[:2]:
                if winner is not None:
                    wins[winner] += 1
            if wins[A] != wins[B]:
                return A if wins[A] > wins[B] else B
        for winner in self.results[2:]:
            if winner is not None:
                return winner
        return None
