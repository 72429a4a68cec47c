"""What a finished game means for its pairing: contract reason names and round points.

Single games score PAIR-4 points; two-game rounds score PAIR-5 with PLAY-6 (a flag in game 1
loses the whole round); a playoff (PLAY-PLAYOFF) ends when ``Playoff.winner`` is known.
Decision: a no-show in game 1 of a two-game round forfeits the whole round (the absent player
cannot play game 2 either, PAIR-6); both absent is a double forfeit scoring nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import ClockConfig, PairGame, Playoff, PlayoffConfig, RoundPointsTable, two_game_round_points
from ..engine.game import Result

#: engine reason -> contract ``GameReason``
REASONS = {
    "five": "five",
    "forbidden": "forbidden",
    "time_forfeit": "time",
    "resignation": "resignation",
    "no_show": "no_show",
    "arbiter": "arbiter",
    "draw_agreement": "agreement",
    "draw_passes": "passes",
    "draw_full_board": "full_board",
    "draw_both_flags": "both_flags",
}


@dataclass(frozen=True)
class FinishedGame:
    """A finished game seen from its pairing: ``winner`` is the pairing player "a" (moves first
    in game 1), "b", or None."""

    winner: str | None
    reason: str  # engine reason value
    double_forfeit: bool = False


@dataclass(frozen=True)
class Next:
    """What follows a finished game: another game (``first_mover`` a/b, ``stage`` pair/single)
    or the pairing's outcome in round points of a and b."""

    game_no: int | None = None
    first_mover: str | None = None
    stage: str | None = None
    a_points: int | None = None
    b_points: int | None = None


def after_game(kind: str, games: list[FinishedGame], table: RoundPointsTable = RoundPointsTable()) -> Next:
    """``kind``: "single", "two_game" or "playoff"; ``games``: the pairing's finished games in order."""
    last = games[-1]
    if last.double_forfeit:
        return Next(a_points=table.loss, b_points=table.loss)
    if kind == "playoff":
        playoff = Playoff(PlayoffConfig(ClockConfig(1), ClockConfig(1)))
        following = None
        for game in games:
            following = playoff.record(game.winner)  # type: ignore[arg-type]
        if playoff.winner is None:
            assert following is not None
            return Next(game_no=following.number, first_mover=following.first_mover, stage=following.stage)
        return Next(
            a_points=table.win if playoff.winner == "a" else table.loss,
            b_points=table.win if playoff.winner == "b" else table.loss,
        )
    if kind == "two_game":
        first_game = PairGame(games[0].winner, "time_forfeit" if games[0].reason == "time_forfeit" else games[0].reason)  # type: ignore[arg-type]
        if len(games) == 1:
            if first_game.flagged is None and games[0].reason != "no_show":
                return Next(game_no=2, first_mover="b", stage="pair")
            if games[0].reason == "no_show":
                pts = {games[0].winner: table.win}
                return Next(a_points=pts.get("a", table.loss), b_points=pts.get("b", table.loss))
            points = two_game_round_points(first_game, None, table)
        else:
            second_game = PairGame(games[1].winner, games[1].reason)  # type: ignore[arg-type]
            points = two_game_round_points(first_game, second_game, table)
        return Next(a_points=points.a, b_points=points.b)
    winner = last.winner
    if winner is None:
        return Next(a_points=table.draw, b_points=table.draw)
    return Next(
        a_points=table.win if winner == "a" else table.loss, b_points=table.win if winner == "b" else table.loss
    )


def reason_name(result: Result) -> str:
    return REASONS[result.reason.value]
