"""Gomoku rules engine: the public API of ``gameplay.engine``.

``classify`` / ``forbidden_points`` / ``line_length`` delegate to the rules core selected by
``GAMEPLAY_ENGINE`` (``backend.core``: the compiled ``_core`` or the plain-Python ``reference``);
``IMPLEMENTATION`` names it. The rest is pure Python on top of whichever core is selected.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import backend, reference
from .backend import IMPLEMENTATION
from .clock import ClockConfig
from .coords import (
    BOARD_SIZE,
    CENTRE,
    Point,
    format_moves,
    from_notation,
    on_board,
    parse_moves,
    to_notation,
    transform,
)
from .errors import IllegalAction
from .game import Action, Colour, Game, LegalActions, Reason, Result, RuleSet
from .opening_protocol import FIRST, SECOND, OpeningConfig, OpeningProtocol, Phase, check_offers, offer_key
from .openings import OPENINGS, Opening, canonical_symmetry, get_opening, identify_opening
from .records import GameRecord, MoveRecord, OpeningRecord, ResultRecord, parse_psq, record_game
from .rounds import PairGame, Playoff, PlayoffConfig, PlayoffGame, RoundPointsTable, RoundResult, two_game_round_points


# Looked up at call time so that the selected core (backend.core) is always the one used.
def classify(black: Iterable[Point], white: Iterable[Point], point: Point) -> str:
    """What a black stone on ``point`` would be: five, overline, double_four, double_three, none."""
    return backend.core.classify(black, white, point)


def forbidden_points(black: Iterable[Point], white: Iterable[Point]) -> dict[Point, str]:
    """Every empty point where black may not play, with the kind of foul."""
    return backend.core.forbidden_points(black, white)


def line_length(stones: Iterable[Point], point: Point) -> int:
    """Longest run of ``stones`` through ``point`` (point counted)."""
    return backend.core.line_length(stones, point)


__all__ = [
    "IMPLEMENTATION",
    "classify",
    "forbidden_points",
    "line_length",
    "reference",
    "backend",
    "BOARD_SIZE",
    "CENTRE",
    "Point",
    "to_notation",
    "from_notation",
    "format_moves",
    "parse_moves",
    "on_board",
    "transform",
    "IllegalAction",
    "Game",
    "RuleSet",
    "Colour",
    "Reason",
    "Result",
    "Action",
    "LegalActions",
    "OPENINGS",
    "Opening",
    "identify_opening",
    "get_opening",
    "canonical_symmetry",
    "OpeningProtocol",
    "OpeningConfig",
    "Phase",
    "FIRST",
    "SECOND",
    "check_offers",
    "offer_key",
    "ClockConfig",
    "PairGame",
    "RoundResult",
    "RoundPointsTable",
    "two_game_round_points",
    "Playoff",
    "PlayoffConfig",
    "PlayoffGame",
    "GameRecord",
    "MoveRecord",
    "OpeningRecord",
    "ResultRecord",
    "record_game",
    "parse_psq",
]
