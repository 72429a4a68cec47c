"""Type stub for the compiled blossom matching (see _blossom.pyx, matching.py)."""

from collections.abc import Hashable
from typing import Any

MAX_BITS: int

def max_weight_matching(
    nodes: list[Hashable], edges: list[tuple[Any, Any, int]], maxcardinality: bool = False
) -> set[tuple[Any, Any]] | None: ...
def min_weight_matching(edges: list[tuple[Any, Any, Any]]) -> set[tuple[Any, Any]] | None: ...
