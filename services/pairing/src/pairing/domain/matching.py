"""The minimum-weight perfect matching the Dutch engine asks for: networkx's blossom algorithm as
published (its tie-breaking included, which the FIDE-exact agreement depends on), on a graph
whose adjacency reads skip networkx's view objects."""

from __future__ import annotations

import networkx
from networkx.algorithms.matching import max_weight_matching


class _PlainGraph(networkx.Graph):
    """A ``networkx.Graph`` whose ``G[v]`` is the adjacency dict itself (no view object per call).

    ``max_weight_matching`` only reads ``G[v][w].get(weight)``, ``G.neighbors``, ``G.nodes``
    and ``G.edges``: all give the same values in the same order as on a plain ``networkx.Graph``.
    """

    def __getitem__(self, node):
        return self._adj[node]


def min_weight_matching(edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """``networkx.min_weight_matching`` of the graph built from ``edges`` (same result, same order)."""
    graph = _PlainGraph()
    graph.add_weighted_edges_from(edges)
    if len(graph.edges) == 0:
        return max_weight_matching.orig_func(graph, maxcardinality=True)
    graph_edges = graph.edges(data="weight", default=1)
    max_weight = 1 + max(weight for _, _, weight in graph_edges)
    inverted = _PlainGraph()
    inverted.add_weighted_edges_from((u, v, max_weight - weight) for u, v, weight in graph_edges)
    return max_weight_matching.orig_func(inverted, maxcardinality=True)
