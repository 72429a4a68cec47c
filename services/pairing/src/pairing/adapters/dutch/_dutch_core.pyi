"""Type stub for the compiled loops of the fast Dutch engine (see _dutch_core.pyx, fast.py)."""

from collections.abc import Mapping
from typing import Any

Edge = dict[str, Any]

#: every key of an edge dict in gacrux's order, with the values every pair shares (read-only)
EDGE_TEMPLATE: Mapping[str, Any]

class EdgeList(list[Edge]): ...

def compact(edges: list[Edge]) -> EdgeList: ...
def head(edges: list[Edge], stop: int) -> list[Edge]: ...
def build_edges(
    competitors: list[dict[str, Any]], opponents: list[list[Any]], size: int, rnd: int, maxmeets: int, blob: int
) -> EdgeList: ...
def sorted_edges(opponents: list[list[Any]]) -> list[Edge]: ...
def select_edges(edges: list[Edge], inside: list[bool], condition: str | None) -> list[Edge]: ...
def select_cross_edges(edges: list[Edge], first_side: list[bool], second_side: list[bool]) -> list[Edge]: ...
def select_pab_edges(edges: list[Edge], pab: int) -> list[Edge]: ...
def whohasmet_histogram(nodes: list[dict[str, Any]], edges: list[Edge]) -> list[int]: ...
def hamilton_order(edges: list[Edge]) -> tuple[EdgeList, list[int]]: ...
def count_level(
    edges: EdgeList,
    highs: list[int],
    start: int,
    level: int,
    node_id: dict[int, int],
    hist: list[int],
    ll_id: dict[int, int],
    ll_hist: list[int],
    ff_id: dict[int, int],
    fl_hist: list[int],
    lf_hist: list[int],
) -> int: ...
def update_edge(
    table: Any, edge: Edge, quality_keys: tuple[str, ...], df1: int, uf1: int, df2: int, uf2: int
) -> None: ...
def heterogeneous_weights(
    table: Any,
    scorelevel: int,
    edges: list[Edge],
    bsn: dict[int, int],
    M: int,
    quality_keys: tuple[str, ...],
    df1: int,
    uf1: int,
    df2: int,
    uf2: int,
) -> None: ...
def homogeneous_weights(
    table: Any,
    scorelevel: int,
    edges: list[Edge],
    bsn: dict[int, int],
    S: int,
    B3: int,
    B4: int,
    B5: int,
    quality_keys: tuple[str, ...],
    df1: int,
    uf1: int,
    df2: int,
    uf2: int,
) -> None: ...
def weighted_edges(table: Any, mode: str, category: Any, edges: list[Edge]) -> list[tuple[int, int, int]]: ...
