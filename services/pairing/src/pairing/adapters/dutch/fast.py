"""A faster run of gacrux's Dutch engine that pairs exactly as gacrux does: the adapter
``FastGacruxDutch`` behind the domain's port ``SwissEngine`` (ADR 0002, ADR 0013).

``FastDutch`` subclasses ``gacrux.pairingdutch.pairing_dutch`` and replaces only its hot spots
with code that computes the same values in the same order:

* the edge quality of a pair (``update_edge``, run for every candidate pair of every bracket),
  compiled, and the players' data of the round computed alone (``crosstable``,
  ``records``);
* the maximum-weight matching: networkx's own blossom algorithm compiled (``matching``,
  ``_blossom.pyx``: the same steps in the same order, so the same tie-breaking); gacrux's
  engine is imported without networkx (``pairing.domain.gacrux_import``);
* the per-pair loops (``_dutch_core``, compiled): the round's edges kept in arrays
  (``EdgeTable``: a pair's edge dict is made when something first reads it, a tenth of them
  in a late round), the sorted edge list, the filters applied after each bracket (``get_edges``,
  ``get_modifiededges``, the binary search, ``modify_edges``' scan for the blob's partners),
  the histograms of ``compute_hamilton``; the edge lists are ``EdgeList`` sequences of keys
  with each edge's ends and score levels alongside, which the filters read instead of dicts;
* the cyclic garbage collector is paused while a round is paired and its structures freed
  (:func:`collector_paused`, which restores the collector's previous state).

gacrux itself (the domain's :class:`pairing.domain.swiss.GacruxDutch`) stays the reference: the
tests pair random and reference tournaments with both and require identical boards and colours.
"""

from __future__ import annotations

import gc as garbage_collector
from collections.abc import Iterable

from ...domain.gacrux_import import pairing_dutch
from ...domain.swiss import GacruxDutch
from . import _dutch_core
from .crosstable import _DF1, _DF2, FastCrosstable
from .matching import min_weight_matching

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from contextlib import AbstractContextManager
    from typing import Any


class _CollectorPaused:
    """The block of :func:`collector_paused` (a class: contextlib is not imported for it)."""

    def __init__(self) -> None:
        self.enabled = False

    def __enter__(self) -> None:
        self.enabled = garbage_collector.isenabled()
        garbage_collector.disable()

    def __exit__(self, *exception: object) -> None:
        if self.enabled:
            garbage_collector.enable()


def collector_paused() -> _CollectorPaused:
    """Pause the cyclic garbage collector for the block, then restore its previous state.

    A round allocates a dict per pair of players (8,256 at 128 players), none in a reference
    cycle: reference counting frees them all, and the collections their allocation would
    trigger only traverse them in vain (the first after the round too, if they are still alive
    then: free the round's structures inside the block). The state is the process's: other
    threads see their collections delayed for the block's duration (tens of milliseconds;
    reference counting still frees their objects), and nested or concurrent blocks leave the
    collector as the outermost found it (a block entered while it was already paused does not
    resume it).
    """
    return _CollectorPaused()


class FastDutch(pairing_dutch):
    """gacrux's Dutch pairing with the hot spots above; same input, same output."""

    def get_crosstable(self, experimental, checkonly, verbose):
        return FastCrosstable(experimental, checkonly, verbose)

    def compute_pairing(self, checkonly, reportlevel=0):
        """gacrux's ``compute_pairing`` with the cyclic garbage collector paused (see
        :func:`collector_paused`)."""
        with collector_paused():
            return super().compute_pairing(checkonly, reportlevel)

    def list_edges(self, opponents):
        """gacrux's ``list_edges`` (the pairs that can meet, sorted): the crosstable's list when it
        still holds (it is collected while the edges are made), else compiled."""
        crosstable = self.crosstable
        if crosstable.sorted_edges is not None and opponents is crosstable.opponents:
            return crosstable.sorted_edges
        return _dutch_core.sorted_edges(opponents)

    def get_edges(self, nodes, edges, condition=None):
        """gacrux's ``get_edges`` (the edges with both ends in ``nodes``), compiled."""
        return _dutch_core.edges_within(nodes, edges, self.crosstable.BLOB + 1, condition)

    def edgeBinarySearch(self, edges, scorelevel):
        """gacrux's ``edgeBinarySearch``, on an ``EdgeList``'s arrays (no edge dict read)."""
        if type(edges) is _dutch_core.EdgeList:
            return _dutch_core.level_search(edges, scorelevel)
        return super().edgeBinarySearch(edges, scorelevel)

    def remove_pairs(self, nodes, edges, paired):
        """gacrux's ``remove_pairs``, the paired ids looked up in a set (the same nodes)."""
        npaired = [edge["ca"] for edge in paired] + [edge["cb"] for edge in paired]
        gone = set(npaired)
        mod_nodes = [node for node in nodes if node["cid"] not in gone]
        return (mod_nodes, self.get_edges(mod_nodes, edges), npaired)

    def modify_edges(self, S1nodes, S2nodes, edges, scorelevel, category, condition):
        """gacrux's ``modify_edges`` (a bracket's nodes and edges, the blob's edges added when
        one node is left over), the same steps: node ids looked up in sets, and the edges
        scanned for the blob's partners read from an ``EdgeList``'s arrays (no dict made)."""
        if category == 0:
            return (S1nodes, edges)
        cmp = self.competitors
        lim = scorelevel - category + 1
        nodeid1 = [node["cid"] for node in S1nodes if node["scorelevel"] >= lim]
        if S2nodes is None:
            (nodes2, nodeid2, addblob) = (S1nodes, nodeid1, len(nodeid1) % 2 == 1)
        else:
            nodeid2 = [node["cid"] for node in S2nodes if node["scorelevel"] >= lim]
            (nodes2, addblob) = (S2nodes, len(nodeid1) < len(nodeid2))
        new_edges = self.get_modifiededges(nodeid1, nodeid2, edges)
        if addblob:
            blob = 0 if self.pablevel >= scorelevel else self.crosstable.BLOB
            nodeid1.append(blob)
            add_edges = self._blob_edges(nodes2, edges, lim, blob, condition)
            new_edges += add_edges
            if len(add_edges) == 0:
                return (S1nodes, edges)
            kept = set(nodeid1)
            new_nodes = [node for node in S1nodes if node["cid"] in kept]
            new_nodes.append(cmp[blob])
            self.crosstable.update_crosstable(scorelevel, new_nodes, add_edges, self.pablevel, False)
        else:
            kept = set(nodeid1)
            snodes = S1nodes + S2nodes if S2nodes is not None else S1nodes
            new_nodes = [node for node in snodes if node["cid"] in kept]
        new_nodes = sorted(new_nodes, key=lambda s: (-s["scorelevel"], s[self.rank]))
        return (new_nodes, new_edges)

    def _blob_edges(self, nodes2, edges, lim, blob, condition):
        """The blob's edges of ``modify_edges`` (gacrux's loop, its ``new_edge`` quirk kept: the
        second loop clears ``qc`` on the last edge made, whichever edge it reads)."""
        cmp = self.competitors
        floated = _DF1 + _DF2
        add_edges = []
        new_edge = None
        S2nodesid = [node["cid"] for node in nodes2 if node["scorelevel"] == lim]
        if blob == 0:
            for node_id in S2nodesid:
                new_edge = self.opponents[node_id][0]
                if new_edge[condition]:
                    add_edges.append(new_edge)
        else:
            mid = self.edgeBinarySearch(edges, lim - 1)
            for low, high in _dutch_core.ends_from(edges, mid):
                if low in S2nodesid:
                    node_id = low
                elif high in S2nodesid:
                    node_id = high
                else:
                    continue
                new_edge = self.crosstable.create_edge(cmp[node_id], cmp[blob])
                if cmp[node_id]["flt"] & floated > 0:
                    new_edge["qc"] = False
                if new_edge[condition]:
                    add_edges.append(new_edge)
                    S2nodesid.remove(node_id)
                    if len(S2nodesid) == 0:
                        break
        for edge in add_edges:
            node_id = edge["ca"] if edge["ca"] > 0 and edge["ca"] < blob else edge["cb"]
            if cmp[node_id]["flt"] & floated > 0:
                new_edge["qc"] = False  # gacrux's: the last edge made, not this one
        return add_edges

    def get_modifiededges(self, nodeid1, nodeid2, edges, condition=None):
        return _dutch_core.cross_edges(nodeid1, nodeid2, edges, self.crosstable.BLOB + 1)

    def compute_whohasmet_histogram(self, nodes, edges):
        return _dutch_core.whohasmet_histogram(nodes, edges)

    def find_pab(self, nodes, edges):
        """gacrux's ``find_pab``, the final edge filter compiled."""
        pab = self.pablevel
        cmp = self.competitors
        hamilton = self.hamilton
        if (
            self.optimize
            and pab == -1
            and len(edges) > 0
            and len(hamilton) > 0
            and hamilton[-1].get("rem_hamilton", -1) >= 0
        ):
            pab = cmp[edges[-1]["cb"]]["scorelevel"] if cmp[0]["rfp"] else 0
        if pab == -1 and len(edges) > 0:
            (_, _, pab) = self.find_weighted_pab(nodes, edges)
        if pab == -1 and self.verbose:
            print("No legal pairing")
        self.pablevel = pab
        return (None, pab, nodes, _dutch_core.select_pab_edges(edges, pab))

    def compute_hamilton(self, nodes, edges):
        """gacrux's ``compute_hamilton``, the per-edge counting compiled."""
        levels = self.levels
        hamilton: list[dict] = [{} for _ in range(levels)]
        self.pablevel = -1
        if self.checkonly:
            return hamilton
        rest_nodes = nodes[::-1]
        rest_edges, highs = _dutch_core.hamilton_order(edges)
        highs.append(levels)
        nodeptr = [0] * (levels + 1)
        lastn = 0
        for index, node in enumerate(rest_nodes + [{"scorelevel": levels}]):
            if (firstn := node["scorelevel"]) > lastn:
                nodeptr[lastn + 1] = index
                lastn = firstn
        node_id = {node["cid"]: index for index, node in enumerate(rest_nodes)}
        hist = [0] * len(rest_nodes)
        state = _HamiltonLevel(self, rest_nodes, nodeptr, 0)
        laste = 0
        index = 0
        while True:
            firste = highs[index]
            if firste > laste:
                rest = hamilton[laste]
                if laste > 0:
                    state.record(rest)
                test_nodes = rest_nodes[: nodeptr[laste + 1]]
                (rest["rem_pairs"], rest["rem_unpaired"], rest["rem_hamilton"]) = self.is_complete(
                    test_nodes, rest_edges[:index], hist=hist[: nodeptr[laste + 1]], pab=firste == levels
                )
                if index == len(rest_edges):
                    break
                laste = firste
                state = _HamiltonLevel(self, rest_nodes, nodeptr, laste)
            index = state.count_from(rest_edges, highs, index, laste, node_id, hist)
        return hamilton

    def weighted_match(self, nodes, edges):
        matching = min_weight_matching(_dutch_core.weighted_pairs(edges, 0))
        return len(nodes) - 2 * len(matching)

    def find_weighted_pab(self, nodes, edges):
        pablevel = 0
        # gacrux's compute_pab_weight, then the weighted pairs
        matching = min_weight_matching(_dutch_core.pab_weighted_pairs(edges))
        wpairs = sorted([((a, b) if a < b else (b, a)) for (a, b) in matching])
        if len(wpairs) < len(nodes) // 2:
            return (len(wpairs), len(wpairs) * 2 - len(nodes), -1)  # no legal pairing
        (white, pab) = wpairs[0]
        if white == 0:  # the pairing-allocated bye
            pablevel = self.competitors[pab]["scorelevel"]
        return (len(wpairs), 0, pablevel)

    def pair_weighted_round(self, bracket, nodes, edges, pairingmode, numpairs, category):
        scorelevel = bracket["scorelevel"]
        (modified_nodes, modified_edges) = self.modify_edges(nodes, None, edges, scorelevel, category, "canmeet")
        if len(modified_nodes) == 0:
            return []
        crosstable = self.crosstable
        if pairingmode == "HE":
            crosstable.update_hetrogenious(scorelevel, modified_nodes, modified_edges, bracket["bsne"])
        elif pairingmode == "HO":
            below = [node for node in modified_nodes if node["scorelevel"] <= scorelevel]
            bracket["bsno"] = self.update_bsn(scorelevel, below)
            crosstable.update_homogenious(scorelevel, modified_edges, bracket["bsno"], numpairs)
        elif pairingmode == "BI":
            bracket["bsnb"] = {node["cid"]: i + 1 for i, node in enumerate(modified_nodes)}
            crosstable.update_hetrogenious(scorelevel, modified_nodes, modified_edges, bracket["bsnb"])
            crosstable.update_bipartite(
                scorelevel, modified_edges, bracket["bsnb"], nodes[len(nodes) // 2]["cid"], nodes[-1]["cid"]
            )
        weighted = _dutch_core.weighted_edges(crosstable, pairingmode, category, modified_edges)
        if self.checkonly and len(nodes) == 2 * len(edges):
            return [(a, b) for (a, b, _) in weighted]
        return min_weight_matching(weighted)


class _HamiltonLevel:
    """The per-level histograms of gacrux's ``compute_hamilton`` (ll/fl/lf_hist)."""

    def __init__(self, engine: pairing_dutch, rest_nodes: list, nodeptr: list[int], level: int):
        self.engine = engine
        self.ff_nodes = rest_nodes[nodeptr[level - 1] : nodeptr[level]] if level > 0 else []
        self.ff_id = {node["cid"]: index for index, node in enumerate(self.ff_nodes)}
        self.ll_nodes = rest_nodes[nodeptr[level] : nodeptr[level + 1]] if level > 0 else []
        self.ll_id = {node["cid"]: index for index, node in enumerate(self.ll_nodes)}
        self.ll_hist = [0] * len(self.ll_nodes)
        self.fl_hist = [0] * len(self.ff_nodes)
        self.lf_hist = [0] * len(self.ll_nodes)

    def count_from(
        self, edges: _dutch_core.EdgeList, highs: list, start: int, level: int, node_id: dict, hist: list
    ) -> int:
        """Count the edges from ``start`` up to the first above ``level`` (gacrux's per-edge loop)."""
        return _dutch_core.count_level(
            edges, highs, start, level, node_id, hist, self.ll_id, self.ll_hist, self.ff_id, self.fl_hist, self.lf_hist
        )

    def record(self, rest: dict) -> None:
        is_complete = self.engine.is_complete
        (rest["cur_pairs"], rest["cur_unpaired"], rest["cur_hamilton"]) = is_complete(
            self.ll_nodes, None, weight=False, hist=self.ll_hist
        )
        (_, _, first_half) = is_complete(self.ll_nodes, None, weight=False, hist=self.fl_hist)
        (_, _, second_half) = is_complete(self.ff_nodes, None, weight=False, hist=self.lf_hist)
        rest["cross_hamilton"] = min(first_half, second_half)


class FastGacruxDutch(GacruxDutch):
    """The port ``SwissEngine`` paired by :class:`FastDutch`: the reference's round structure and
    answer, its algorithm with the hot spots above (same pairings, a fraction of the time).

    ``keep_structures``: keep every round's structures for the engine's lifetime instead of
    freeing them (for a process that exits right after pairing without freeing anything, like
    ``pairing-engine``: freeing a late round of 128 players' structures costs a tenth of it).
    """

    def __init__(self, experimental: Iterable[str] = (), via_trf: bool = False, keep_structures: bool = False):
        super().__init__(experimental, via_trf)
        self.kept: list[object] | None = [] if keep_structures else None

    def done_with(self, *structures: object) -> None:
        if self.kept is not None:
            self.kept.append(structures)

    def algorithm(self) -> Any:
        return FastDutch

    def pairing_scope(self) -> AbstractContextManager[object]:
        # the round's structures are freed inside the pause (no collection then traverses them)
        return collector_paused()
