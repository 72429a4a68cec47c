"""The minimum-weight perfect matching the Dutch engine asks for: networkx's blossom algorithm,
compiled (``_blossom_core.pxi``: the same algorithm step for step, so the same matching among
several optimal ones, which the FIDE-exact agreement depends on).

Two builds of it: ``_blossom`` (128-bit integers, weights up to 120 bits: nearly every call)
and ``_blossom_wide`` (384-bit, up to 376 bits). networkx itself stays the reference
(:func:`networkx_min_weight_matching`; the tests hold both builds to it) and the fallback for
weights neither takes (non-``int``, or wider). It is imported only then: importing networkx
costs about 100 ms, a third of a ``pairing-engine`` run before this. ``_blossom_wide`` too is
loaded on the first call that needs it (a late round of a few hundred players never does).
"""

from __future__ import annotations

from . import _blossom

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from typing import Any


def min_weight_matching(edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """``networkx.min_weight_matching`` of the graph built from ``edges`` (same set)."""
    matching = _blossom.min_weight_matching(edges)
    if matching is None:
        from . import _blossom_wide

        matching = _blossom_wide.min_weight_matching(edges)
    if matching is None:
        return networkx_min_weight_matching(edges)
    return matching


def networkx_min_weight_matching(edges: list[tuple[Any, Any, Any]]) -> set[tuple[Any, Any]]:
    """``networkx.min_weight_matching`` of the graph built from ``edges`` (same result, same order).

    networkx builds the graph, reads its edges back and builds a second graph with the weights
    inverted; here the first graph is plain dicts filled in the same order (a node is added
    where it first appears, an edge given twice keeps its first place and its last weight), read
    back in the order ``Graph.edges`` would give, so the graph the algorithm runs on is the same.
    """
    from networkx.algorithms.matching import max_weight_matching

    adjacency: dict[Any, dict[Any, Any]] = {}
    for first, second, weight in edges:
        if first not in adjacency:
            adjacency[first] = {}
        if second not in adjacency:
            adjacency[second] = {}
        adjacency[first][second] = weight
        adjacency[second][first] = weight
    ordered = []
    seen = set()
    for node, neighbours in adjacency.items():
        for neighbour, weight in neighbours.items():
            if neighbour not in seen:
                ordered.append((node, neighbour, weight))
        seen.add(node)
    inverted = _plain_graph()
    if not ordered:
        inverted.add_weighted_edges_from(edges)
        return max_weight_matching.orig_func(inverted, maxcardinality=True)
    max_weight = 1 + max(weight for _, _, weight in ordered)
    inverted.add_weighted_edges_from((first, second, max_weight - weight) for first, second, weight in ordered)
    return max_weight_matching.orig_func(inverted, maxcardinality=True)


def _plain_graph() -> Any:
    """A ``networkx.Graph`` whose ``G[v]`` is the adjacency dict itself (no view object per call).

    ``max_weight_matching`` only reads ``G[v][w].get(weight)``, ``G.neighbors``, ``G.nodes``
    and ``G.edges``: all give the same values in the same order as on a plain ``networkx.Graph``.
    """
    import networkx

    class PlainGraph(networkx.Graph):
        def __getitem__(self, node):
            return self._adj[node]

    return PlainGraph()
