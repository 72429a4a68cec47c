"""Type stub for the compiled networkx matching (see _matching.pyx)."""

from collections.abc import Hashable, Iterable
from typing import Any

def min_weight_matching(weighted: Iterable[tuple[Any, Any, Any]]) -> set[tuple[Any, Any]]: ...
def max_weight_matching(
    adj: dict[Hashable, dict[Hashable, Any]], edges: list[tuple[Any, Any, Any]], maxcardinality: bool = False
) -> set[tuple[Any, Any]]: ...
