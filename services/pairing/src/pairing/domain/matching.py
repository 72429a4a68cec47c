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
    """``networkx.min_weight_matching`` of the graph built from ``edges`` (same result, same order).

    networkx builds the graph, reads its edges back and builds a second graph with the weights
    inverted; here the first graph is plain dicts filled in the same order (a node is added
    where it first appears, an edge given twice keeps its first place and its last weight), read
    back in the order ``Graph.edges`` would give, so the graph the algorithm runs on is the same.
    """
    adjacency: dict[int, dict[int, int]] = {}
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
    if not ordered:
        graph = _PlainGraph()
        graph.add_weighted_edges_from(edges)
        return max_weight_matching.orig_func(graph, maxcardinality=True)
    max_weight = 1 + max(weight for _, _, weight in ordered)
    inverted = _PlainGraph()
    inverted.add_weighted_edges_from((first, second, max_weight - weight) for first, second, weight in ordered)
    return max_weight_matching.orig_func(inverted, maxcardinality=True)
