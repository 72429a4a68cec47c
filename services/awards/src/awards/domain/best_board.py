"""AWD-7: best-board award (最佳台次奖) of a team section — one per board.

Eligibility: games played on that board ≥ ``min_played_percent`` of the board's games;
playoff games are excluded from everything. Order: the configured criteria (NT: score,
win rate, wins, the team's place). Entrants equal on every criterion share the award.

Decision for unplayed games (the rules leave it open): a game the player was absent for
(forfeit loss) counts among the board's games but not as played; a forfeit win counts
as played and won (the player was present, PAIR-6); a team bye is not a board game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from .config import BestBoardConfig, BoardCriterion
from .model import Number


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class BoardGame:
    """One game of a player on their board, for :func:`board_record_from_games`."""

    outcome: Outcome
    points: Number
    #: the player did not turn up (forfeit loss): a board game, not a played one
    absent: bool = False
    playoff: bool = False


@dataclass(frozen=True)
class BoardRecord:
    """Per-player, per-board totals *excluding playoff games* (mirrors the ``BoardStat``
    contract): ``games_played`` by the player of the ``board_games`` their team's board had."""

    player_id: str
    name: str
    team_id: str
    team_name: str
    board: int
    games_played: int
    board_games: int
    points: Number
    wins: int

    def __post_init__(self) -> None:
        if isinstance(self.points, float):
            raise TypeError("points must be Decimal or int")
        if not 0 <= self.games_played <= self.board_games or not 0 <= self.wins <= self.games_played:
            raise ValueError(f"{self.player_id}: inconsistent counts")


def board_record_from_games(
    player_id: str, name: str, team_id: str, team_name: str, board: int, games: Iterable[BoardGame]
) -> BoardRecord:
    """Aggregate single games into a :class:`BoardRecord`, dropping playoff games."""
    played = total = wins = 0
    points: Decimal = Decimal(0)
    for game in games:
        if game.playoff:
            continue
        total += 1
        if game.absent:
            continue
        played += 1
        points += Decimal(game.points)
        wins += game.outcome is Outcome.WIN
    return BoardRecord(player_id, name, team_id, team_name, board, played, total, points, wins)


@dataclass(frozen=True)
class BoardCandidate:
    record: BoardRecord
    eligible: bool
    #: games played / board games (exact)
    share_played: Fraction
    win_rate: Fraction
    team_place: int | None


@dataclass(frozen=True)
class BestBoardResult:
    section_id: str
    board: int
    #: the award holders (several only if equal on every criterion); empty if nobody eligible
    winners: tuple[BoardCandidate, ...]
    #: eligible candidates in award order
    ranking: tuple[BoardCandidate, ...]
    ineligible: tuple[BoardCandidate, ...]
    items: tuple[str, ...] = ()


def is_eligible(record: BoardRecord, min_played_percent: Decimal | int) -> bool:
    """games_played ≥ percent × board_games (exact; no games on the board → not eligible)."""
    if record.board_games == 0:
        return False
    return Decimal(record.games_played) * 100 >= Decimal(min_played_percent) * record.board_games


def _key(candidate: BoardCandidate, order: tuple[BoardCriterion, ...]) -> tuple[object, ...]:
    values: list[object] = []
    for criterion in order:
        if criterion is BoardCriterion.SCORE:
            values.append(-Decimal(candidate.record.points))
        elif criterion is BoardCriterion.WIN_RATE:
            values.append(-candidate.win_rate)
        elif criterion is BoardCriterion.WINS:
            values.append(-candidate.record.wins)
        else:  # TEAM_PLACE; an unknown team place sorts last
            values.append(candidate.team_place if candidate.team_place is not None else 10**9)
    return tuple(values)


def best_boards(
    section_id: str, records: Iterable[BoardRecord], team_places: Mapping[str, int], config: BestBoardConfig
) -> tuple[BestBoardResult, ...]:
    """AWD-7: one result per board 1..``config.boards`` (winners empty if nobody qualifies)."""
    by_board: dict[int, list[BoardCandidate]] = {b: [] for b in range(1, config.boards + 1)}
    for record in records:
        if record.board not in by_board:
            raise ValueError(f"{record.player_id}: board {record.board} outside 1..{config.boards}")
        share = Fraction(record.games_played, record.board_games) if record.board_games else Fraction(0)
        rate = Fraction(record.wins, record.games_played) if record.games_played else Fraction(0)
        by_board[record.board].append(
            BoardCandidate(
                record, is_eligible(record, config.min_played_percent), share, rate, team_places.get(record.team_id)
            )
        )
    results: list[BestBoardResult] = []
    for board, candidates in by_board.items():
        ranking = sorted(
            (c for c in candidates if c.eligible), key=lambda c: (_key(c, config.order), c.record.player_id)
        )
        winners = (
            tuple(c for c in ranking if _key(c, config.order) == _key(ranking[0], config.order)) if ranking else ()
        )
        results.append(
            BestBoardResult(
                section_id, board, winners, tuple(ranking), tuple(c for c in candidates if not c.eligible), config.items
            )
        )
    return tuple(results)
