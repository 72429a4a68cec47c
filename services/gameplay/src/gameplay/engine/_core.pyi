"""Type stub for the compiled rules core (see _core.pyx and backend.py)."""
from collections.abc import Iterable

Point = tuple[int, int]

KINDS: tuple[str, str, str, str, str]
BOARD_SIZE: int

def classify(black: Iterable[Point], white: Iterable[Point], point: Point) -> str: ...
def forbidden_points(black: Iterable[Point], white: Iterable[Point]) -> dict[Point, str]: ...
def line_length(stones: Iterable[Point], point: Point) -> int: ...
