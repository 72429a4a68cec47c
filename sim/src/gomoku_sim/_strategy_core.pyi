"""Type stub for the compiled bot strategy (see _strategy_core.pyx and thinking.py)."""

import random
from collections.abc import Collection, Iterable, Mapping

from .strategy import Choice, Point, Position

def choose_move(
    pos: Position,
    colour: int,
    rng: random.Random,
    *,
    forbidden: Collection[Point] | Mapping[Point, str] = (),
    noise: float = 0.0,
    blunder_rate: float = 0.0,
    miss_rate: float = 0.0,
    miss_four_rate: float = 0.0,
) -> Choice: ...
def lost_position(pos: Position, colour: int, forbidden: Collection[Point] = ()) -> bool: ...
def winning_points(pos: Position, colour: int, among: Iterable[Point] | None = None) -> list[Point]: ...
