# cython: language_level=3
"""Compiled loops over gacrux's per-pair edges (see fast.py, which uses them).

Each function computes exactly what the Python code it replaces computes, in the same order:
the edges are the same dict objects, the lists hold them in the same order, the values are
equal (ints read back from the arrays are new int objects; the rest are gacrux's). They remove the interpreter's per-pair overhead (the field has
n * (n + 1) / 2 pairs: at 1,024 players these loops run half a million times each), and the
memory of the edges themselves: the round's edges live in compact arrays (``EdgeTable``), each
pair's dict made only when something reads it, and the edge lists gacrux passes around are
``EdgeList`` sequences whose filters read the arrays, not the dicts (``_edge_store.pxi``).
"""

from cpython cimport array
from cpython.list cimport PyList_GET_ITEM
from libc.string cimport memcpy

import array
from types import MappingProxyType

cdef array.array _INTS = array.array("i")

# every key of an edge dict in gacrux's create_edge order, with the values that are the same for
# every pair; EdgeTable's dicts copy it and FastCrosstable.create_edge spreads it (EDGE_TEMPLATE),
# so the two make the same dicts key for key (test_pair2_created_edges_equal_the_built_edges)
cdef dict _EDGE_TEMPLATE = {
    "ca": 0,
    "cb": 0,
    "sa": 0,
    "sb": 0,
    "canmeet": False,
    "isblob": False,
    "played": 0,
    "unplayed": 0,
    "qlevel": -1,
    "quality": None,
    "weight": 0,
    "qcweight": 0,
    "heweight": 0,
    "howeight": 0,
    "colordiff": "  ",
    "qc": False,
}
EDGE_TEMPLATE = MappingProxyType(_EDGE_TEMPLATE)

include "_edge_store.pxi"


def compact(object edges):
    """``edges`` as an ``EdgeList`` (itself when it already is one)."""
    return _compacted(edges)


def build_edges(list competitors, Py_ssize_t size, object rnd, object maxmeets, Py_ssize_t blob):
    """The round's ``EdgeTable``: the edge of every pair ``a <= b`` of ``competitors[0..size]``.

    Each pair's dict, made when first read, is key for key the one ``FastCrosstable.create_edge``
    (gacrux's ``create_edge`` with ``update_canmeet`` in line) makes when not only checking;
    ``bhasmet.count(a)`` is the count of ``a`` among ``b``'s opponents (``_count_played``).

    Returns the table and what ``sorted_edges`` returns for it right after (the pairs that can
    meet, sorted), collected as the pairs are read; valid while no ``canmeet`` changes.
    """
    cdef Py_ssize_t low, high, width = size + 1, key
    cdef list unplayed = [], levels = []
    cdef dict second
    # what each pair reads of its players, read once per player: whether ready for pairing
    # (rfp), topscorer, colour preference (1: w2, 2: b2, else 0), score level
    cdef bytearray ready = bytearray(width), tops = bytearray(width), absolute = bytearray(width)
    cdef array.array level_ints = array.clone(_INTS, width, zero=True)
    cdef int top_level = -1
    for high in range(width):
        second = competitors[high]
        unplayed.append(rnd - 1 - second["num"].get("val", 0))
        ready[high] = 1 if second["rfp"] else 0
        tops[high] = 1 if second["top"] else 0
        cop = second["cop"]
        absolute[high] = 1 if cop == "w2" else 2 if cop == "b2" else 0
        levels.append(second["scorelevel"])
        level_ints.data.as_ints[high] = second["scorelevel"]
        if high < size and level_ints.data.as_ints[high] > top_level:
            top_level = level_ints.data.as_ints[high]
    cdef EdgeTable table = EdgeTable(width, blob, levels, unplayed)
    cdef dict odd_played = _count_played(competitors, table)
    cdef int *played = table.played.data.as_ints
    cdef unsigned char[:] meet = table.meet
    cdef long meets_limit = maxmeets
    cdef bint canmeet
    cdef _LevelGroups groups = _LevelGroups(table, top_level + 1)
    for low in range(width):
        for high in range(low, width):
            key = low * width + high
            if odd_played is not None and high in odd_played:
                played[key] += (<dict>odd_played[high]).get(low, 0)
            if played[key] < meets_limit and low != high and ready[low] and ready[high]:
                canmeet = True
            else:
                canmeet = low < blob and high == blob
            if canmeet and not tops[low] and not tops[high] and absolute[low] and absolute[high] == absolute[low]:
                canmeet = False
            meet[key] = canmeet
            if canmeet and low < high < size:
                groups.add(key, low, high, level_ints.data.as_ints[low], level_ints.data.as_ints[high])
    return table, groups.done()


cdef dict _count_played(list competitors, EdgeTable table):
    """Into ``table.played[low * width + high]``: how often ``low`` is among ``high``'s opponents
    (``num``, but its ``val``), for ``low <= high`` (the only pairs read from ``high``'s side).
    An opponent that is not an ``int`` is counted in the returned dict (by ``high``, then the
    opponent: looked up by equality as gacrux's ``count`` would); None when there is none."""
    cdef Py_ssize_t high, width = table.width
    cdef int *played = table.played.data.as_ints
    cdef dict odd = None
    for high in range(width):
        for name, opp in (<dict>competitors[high]["num"]).items():
            if name == "val":
                continue
            if isinstance(opp, int):
                if 0 <= opp <= high:
                    played[<Py_ssize_t>opp * width + high] += 1
                continue
            if odd is None:
                odd = {}
            counts = odd.setdefault(high, {})
            counts[opp] = counts.get(opp, 0) + 1
    return odd


def sorted_edges(list opponents):
    """gacrux's ``list_edges``: the pairs that can meet (the last column, the blob, left out),
    sorted on (-min(sa, sb), -max(sa, sb), ca, cb), as an ``EdgeList``.

    Line ``i`` holds ``ca == i`` and ``cb`` rising, so the lines read in order are already in
    (ca, cb) order: grouping them by the score levels, keeping that order within each group,
    is the same sort. Rows of an ``EdgeTable`` are read from its arrays (no dict made).
    """
    if opponents and type(opponents[0]) is EdgeRow:
        return (<EdgeRow>opponents[0]).table.sorted_edges()
    cdef Py_ssize_t index, column, width
    cdef list line
    cdef list found = []
    cdef _ListSource source = _ListSource(found)
    cdef dict edge
    cdef dict groups = {}
    for index in range(len(opponents)):
        line = opponents[index]
        width = len(line) - 1
        for column in range(index + 1, width):
            edge = line[column]
            if not edge["canmeet"]:
                continue
            found.append(edge)
            first, second = edge["sa"], edge["sb"]
            groups.setdefault((first, second) if first < second else (second, first), []).append(len(found) - 1)
    cdef _Builder out = _Builder(source, len(found))
    for level_key in sorted(groups, key=_descending):
        for index in groups[level_key]:
            edge = found[index]
            out.add(index, edge["ca"], edge["cb"], edge["sa"], edge["sb"])
    return out.done()


def select_edges(object edges, list inside, object condition):
    """``[edge for edge in edges if inside[edge["ca"]] and inside[edge["cb"]] (and edge[condition])]``
    as an ``EdgeList``; ``inside`` is a list of booleans indexed by competitor id."""
    cdef EdgeList given = _compacted(edges)
    cdef bytearray flags = bytearray(len(inside))
    cdef Py_ssize_t index
    for index in range(len(inside)):
        flags[index] = 1 if inside[index] else 0
    return _select(given, len(given), flags, condition)


cdef EdgeList _select(EdgeList given, Py_ssize_t stop, bytearray flags, object condition):
    """``given[:stop]``'s edges with both ends flagged (and ``edge[condition]``)."""
    cdef _Builder out = _Builder(given.source, stop)
    cdef unsigned char[:] flag = flags
    cdef int *ekey = given.key.data.as_ints
    cdef int *eca = given.ca.data.as_ints
    cdef int *ecb = given.cb.data.as_ints
    cdef int *esa = given.sa.data.as_ints
    cdef int *esb = given.sb.data.as_ints
    cdef int *okey = out.key.data.as_ints
    cdef int *oca = out.ca.data.as_ints
    cdef int *ocb = out.cb.data.as_ints
    cdef int *osa = out.sa.data.as_ints
    cdef int *osb = out.sb.data.as_ints
    cdef Py_ssize_t index, kept = 0
    cdef int ca, cb
    for index in range(stop):
        ca = eca[index]
        cb = ecb[index]
        if flag[ca] and flag[cb]:
            if not condition or given.at(index)[condition]:
                okey[kept] = ekey[index]
                oca[kept] = ca
                ocb[kept] = cb
                osa[kept] = esa[index]
                osb[kept] = esb[index]
                kept += 1
    out.count = kept
    return out.done()


def edges_within(list nodes, object edges, Py_ssize_t width, object condition):
    """gacrux's ``get_edges`` (the edges with both ends in ``nodes``; ids below ``width``): the
    edges below the nodes' lowest score level cut off by ``edgeBinarySearch``, then filtered;
    the same steps on the arrays, as an ``EdgeList`` (``[]`` when nothing can match)."""
    if len(nodes) == 0 or len(edges) == 0:
        return []
    cdef EdgeList given = _compacted(edges)
    cdef long msl = nodes[-1]["scorelevel"] - 1
    cdef Py_ssize_t stop = len(given), mid
    if min(given.sa.data.as_ints[0], given.sb.data.as_ints[0]) < msl:
        return []
    if min(given.sa.data.as_ints[stop - 1], given.sb.data.as_ints[stop - 1]) <= msl and msl >= 0:
        mid = level_search(given, msl)
        if mid < stop:
            stop = mid
    cdef bytearray flags = bytearray(width)
    for node in nodes:
        flags[node["cid"]] = 1
    return _select(given, stop, flags, condition)


def cross_edges(list first_ids, list second_ids, object edges, Py_ssize_t width):
    """gacrux's ``get_modifiededges``: the edges from ``first_ids`` to ``second_ids`` (ids below
    ``width``), a plain list (gacrux extends it in place)."""
    cdef list first_side = [False] * width
    cdef list second_side = [False] * width
    for node in first_ids:
        first_side[node] = True
    for node in second_ids:
        second_side[node] = True
    return select_cross_edges(edges, first_side, second_side)


def select_cross_edges(object edges, list first_side, list second_side):
    """``[edge for edge in edges if first_side[edge["ca"]] and second_side[edge["cb"]]]`` (a plain
    list: gacrux extends it in place)."""
    cdef Py_ssize_t index, count = len(edges)
    cdef dict edge
    cdef list out = []
    if type(edges) is not EdgeList:
        for edge in edges:
            if first_side[edge["ca"]] and second_side[edge["cb"]]:
                out.append(edge)
        return out
    cdef EdgeList given = <EdgeList>edges
    cdef int[:] eca = given.ca
    cdef int[:] ecb = given.cb
    for index in range(count):
        if first_side[eca[index]] and second_side[ecb[index]]:
            out.append(given.at(index))
    return out


def select_pab_edges(object edges, int pab):
    """``[edge for edge in edges if edge["ca"] != 0 or edge["sb"] == pab]`` as an ``EdgeList``."""
    cdef EdgeList given = _compacted(edges)
    cdef Py_ssize_t index, count = len(given)
    cdef int[:] eca = given.ca
    cdef int[:] esb = given.sb
    cdef _Builder out = _Builder(given.source, count)
    for index in range(count):
        if eca[index] != 0 or esb[index] == pab:
            out.add_from(given, index)
    return out.done()


def whohasmet_histogram(list nodes, object edges):
    """gacrux's ``compute_whohasmet_histogram``: per node, the number of its edges."""
    cdef dict node_id = {}
    cdef Py_ssize_t index
    for index in range(len(nodes)):
        node_id[nodes[index]["cid"]] = index
    cdef list hist = [0] * len(nodes)
    cdef dict edge
    cdef Py_ssize_t first, second
    if type(edges) is not EdgeList:
        for edge in edges:
            first = node_id[edge["ca"]]
            second = node_id[edge["cb"]]
            hist[first] = hist[first] + 1
            hist[second] = hist[second] + 1
        return hist
    cdef int[:] eca = (<EdgeList>edges).ca
    cdef int[:] ecb = (<EdgeList>edges).cb
    for index in range(len(edges)):
        first = node_id[eca[index]]
        second = node_id[ecb[index]]
        hist[first] = hist[first] + 1
        hist[second] = hist[second] + 1
    return hist


def hamilton_order(object edges):
    """The edges stably sorted on (max(sa, sb), min(sa, sb)) as an ``EdgeList``, and that max per
    edge (the stable ``sorted(range(n), key=keys.__getitem__)`` of ``compute_hamilton``: a
    counting sort on the pair of levels, stable, is the same sort)."""
    cdef EdgeList given = _compacted(edges)
    cdef Py_ssize_t count = len(given), index, at
    cdef int *esa = given.sa.data.as_ints
    cdef int *esb = given.sb.data.as_ints
    cdef int first, second, levels = 0
    for index in range(count):
        first = esa[index] if esa[index] > esb[index] else esb[index]
        second = esa[index] + esb[index] - first
        if second < 0:
            return _hamilton_order_sorted(given)
        if first >= levels:
            levels = first + 1
    # where each (max, min) bucket starts, buckets in (max, min) order
    cdef array.array starts = array.clone(_INTS, levels * levels + 1, zero=True)
    cdef int *start = starts.data.as_ints
    for index in range(count):
        first = esa[index] if esa[index] > esb[index] else esb[index]
        start[(first * levels + esa[index] + esb[index] - first) + 1] += 1
    for at in range(levels * levels):
        start[at + 1] += start[at]
    cdef _Builder out = _Builder(given.source, count)
    cdef list highs = [None] * count
    cdef Py_ssize_t slot
    cdef object high
    for index in range(count):
        first = esa[index] if esa[index] > esb[index] else esb[index]
        slot = start[first * levels + esa[index] + esb[index] - first]
        start[first * levels + esa[index] + esb[index] - first] += 1
        out.key.data.as_ints[slot] = given.key.data.as_ints[index]
        out.ca.data.as_ints[slot] = given.ca.data.as_ints[index]
        out.cb.data.as_ints[slot] = given.cb.data.as_ints[index]
        out.sa.data.as_ints[slot] = esa[index]
        out.sb.data.as_ints[slot] = esb[index]
        high = first
        highs[slot] = high
    out.count = count
    return out.done(), highs


cdef tuple _hamilton_order_sorted(EdgeList given):
    """``hamilton_order`` for any levels: the groups of a dict, sorted."""
    cdef dict groups = {}
    cdef list group
    cdef int first, second
    cdef Py_ssize_t index
    cdef object key
    for index in range(len(given)):
        first = given.sa.data.as_ints[index]
        second = given.sb.data.as_ints[index]
        key = (first, second) if first > second else (second, first)
        group = groups.get(key)
        if group is None:
            groups[key] = [index]
        else:
            group.append(index)
    cdef _Builder out = _Builder(given.source, len(given))
    cdef list highs = []
    for key in sorted(groups):
        group = groups[key]
        for index in group:
            out.add_from(given, index)
        highs.extend([key[0]] * len(group))
    return out.done(), highs


def count_level(
    EdgeList edges, list highs, Py_ssize_t start, object level, dict node_id, list hist,
    dict ll_id, list ll_hist, dict ff_id, list fl_hist, list lf_hist,
):
    """Count ``edges[start:]`` while ``highs[index] <= level`` into the histograms of
    ``compute_hamilton`` (``hist``) and its ``_HamiltonLevel.count``; return the next index.
    ``highs`` ends with a sentinel above every level, which stops the loop."""
    cdef Py_ssize_t index = start
    cdef Py_ssize_t slot
    cdef int first, second, ca, cb
    cdef int[:] eca = edges.ca
    cdef int[:] ecb = edges.cb
    cdef int[:] esa = edges.sa
    cdef int[:] esb = edges.sb
    while not highs[index] > level:
        ca = eca[index]
        cb = ecb[index]
        slot = node_id[ca]
        hist[slot] = hist[slot] + 1
        slot = node_id[cb]
        hist[slot] = hist[slot] + 1
        first = esa[index]
        second = esb[index]
        if first == second:
            slot = ll_id[ca]
            ll_hist[slot] = ll_hist[slot] + 1
            slot = ll_id[cb]
            ll_hist[slot] = ll_hist[slot] + 1
        if first - second == 1 or first - second == -1:
            if first < second:
                slot = ff_id[ca]
                fl_hist[slot] = fl_hist[slot] + 1
                slot = ll_id[cb]
                lf_hist[slot] = lf_hist[slot] + 1
            else:
                slot = ff_id[cb]
                fl_hist[slot] = fl_hist[slot] + 1
                slot = ll_id[ca]
                lf_hist[slot] = lf_hist[slot] + 1
        index += 1
    return index


def head(object edges, Py_ssize_t stop):
    """``edges[:stop]`` (an ``EdgeList`` when ``edges`` is one)."""
    if type(edges) is not EdgeList:
        return edges[:stop]
    return (<EdgeList>edges)[:stop]


def level_search(EdgeList edges, long scorelevel):
    """gacrux's ``edgeBinarySearch`` (the first edge whose lower score level is ``scorelevel``,
    else ``len(edges) + 1``), the same steps on the arrays."""
    cdef Py_ssize_t left = 0, right = len(edges) - 1, mid
    cdef long low_mid, low_before
    cdef int *esa = edges.sa.data.as_ints
    cdef int *esb = edges.sb.data.as_ints
    while left <= right:
        mid = (left + right) // 2
        low_mid = min(esa[mid], esb[mid])
        if low_mid == scorelevel:
            if mid == 0:
                return mid
            low_before = min(esa[mid - 1], esb[mid - 1])
            if low_before == scorelevel + 1:
                return mid
            elif low_before > scorelevel + 1:
                left = mid + 1
            else:
                right = mid - 1
        elif low_mid > scorelevel:
            left = mid + 1
        else:
            right = mid - 1
    return len(edges) + 1


def weighted_pairs(object edges, object weight):
    """``[(edge["ca"], edge["cb"], weight) for edge in edges]`` (no dict read for an ``EdgeList``)."""
    cdef dict edge
    if type(edges) is not EdgeList:
        return [(edge["ca"], edge["cb"], weight) for edge in edges]
    cdef EdgeList given = <EdgeList>edges
    cdef Py_ssize_t index
    return [(given.ca.data.as_ints[index], given.cb.data.as_ints[index], weight) for index in range(len(given))]


def pab_weighted_pairs(object edges):
    """gacrux's ``compute_pab_weight`` (each edge's ``weight``: its ``sb`` for the bye's pairs,
    else 0), then ``[(edge["ca"], edge["cb"], edge["weight"]) for edge in edges]``; an
    ``EdgeTable``'s dicts not made yet get the weight when they are."""
    cdef dict edge
    cdef list out = []
    if type(edges) is not EdgeList:
        for edge in edges:
            edge["weight"] = edge["sb"] if edge["ca"] == 0 else 0
        return [(edge["ca"], edge["cb"], edge["weight"]) for edge in edges]
    cdef EdgeList given = <EdgeList>edges
    cdef Py_ssize_t index
    cdef int ca
    cdef object weight
    for index in range(len(given)):
        ca = given.ca.data.as_ints[index]
        weight = given.sb.data.as_ints[index] if ca == 0 else 0
        given.source.set_weight(given.key.data.as_ints[index], weight)
        out.append((ca, given.cb.data.as_ints[index], weight))
    return out


cdef tuple _QC10_TO_QC17 = ("QC10", "QC11", "QC12", "QC13", "QC14", "QC15", "QC16", "QC17")
cdef tuple _QC18_TO_QC21 = ("QC18", "QC19", "QC20", "QC21")
cdef dict _COLOUR_LETTER = {"nc": "n", "w0": "w", "w1": "W", "w2": "W", "b0": "b", "b1": "B", "b2": "B"}


def update_edge(object table, dict edge, tuple quality_keys, int df1, int uf1, int df2, int uf2):
    """``FastCrosstable.update_edge`` compiled: the quality of one pair for the bracket being
    paired (``table.scorelevel``), the same values in the same dict and list objects.

    ``quality_keys`` are the keys of a fresh quality dict (gacrux's criteria, in order), the
    four ints the float bits (gacrux's ``flt``); the topscorer criteria (C.10, C.11) are left to
    ``table._topscorers``.
    """
    _update_edge(_Bracket(table, quality_keys, df1, uf1, df2, uf2), edge)


cdef class _Bracket:
    """What a pair's quality reads of the crosstable (``table``), read once for a bracket's
    loop over its edges (nothing in the loop changes the crosstable's attributes): the score
    level and the blob at once, the rest when a first pair that can meet needs them (as
    gacrux's ``update_edge`` reads them)."""

    cdef object table, scorelevel_object, maxmeets, pablevel, rnd
    cdef long scorelevel
    cdef Py_ssize_t maxpsd, blob
    cdef list competitors
    cdef dict weight
    cdef tuple keys
    cdef int df1, uf1, df2, uf2
    cdef bint started

    def __cinit__(self, object table, tuple quality_keys, int df1, int uf1, int df2, int uf2):
        self.table = table
        self.scorelevel_object = table.scorelevel
        self.blob = table.BLOB
        self.keys = quality_keys
        self.df1, self.uf1, self.df2, self.uf2 = df1, uf1, df2, uf2
        self.started = False

    cdef int start(self) except -1:
        if self.started:
            return 0
        cdef object table = self.table
        self.maxpsd = table.maxpsd
        self.scorelevel = self.scorelevel_object
        self.competitors = table.competitors
        self.maxmeets = table.maxmeets
        self.weight = table.weight
        self.pablevel = table.pablevel
        self.rnd = table.rnd
        self.started = True
        return 0


def heterogeneous_weights(
    object table, long scorelevel, object edges, dict bsn, Py_ssize_t M,
    tuple quality_keys, int df1, int uf1, int df2, int uf2,
):
    """The per-edge loop of gacrux's ``update_hetrogenious`` (after its ``init_heweights``): each
    edge's quality updated (``update_edge``), its HE1 and HE2 criteria and ``heweight``; the
    same values in the same objects, in the same order."""
    cdef Py_ssize_t elen = len(bsn) + 1
    cdef _Bracket bracket = _Bracket(table, quality_keys, df1, uf1, df2, uf2)
    cdef dict weight = table.weight
    cdef list competitors = table.competitors
    cdef dict edge, quality
    cdef list first_criterion, second_criterion
    cdef object ca, cb, heweight
    cdef long first_level, second_level
    cdef Py_ssize_t first_bsn, second_bsn, e1, e2
    for edge in edges:
        ca = edge["ca"]
        cb = edge["cb"]
        _update_edge(bracket, edge)
        quality = edge["quality"]
        first_criterion = [0] * M
        second_criterion = [0] * M
        quality["HE1"] = first_criterion
        quality["HE2"] = second_criterion
        heweight = 0
        first_level = (<dict>competitors[ca])["scorelevel"]
        second_level = (<dict>competitors[cb])["scorelevel"]
        first_bsn = bsn.get(ca, elen)
        second_bsn = bsn.get(cb, elen)
        if first_bsn > second_bsn:
            first_bsn, second_bsn = second_bsn, first_bsn
            first_level, second_level = second_level, first_level
        if first_level > scorelevel and second_level <= scorelevel:
            e1 = 1 if second_bsn == elen else 0
            e2 = second_bsn - M if second_bsn < elen else 0
            first_criterion[first_bsn - 1] = e1
            second_criterion[first_bsn - 1] = e2
            heweight += (<list>weight["HE1"])[first_bsn - 1] * e1
            heweight += (<list>weight["HE2"])[first_bsn - 1] * e2
        edge["heweight"] = heweight


def homogeneous_weights(
    object table, long scorelevel, object edges, dict bsn, object S, object B3, object B4, object B5,
    tuple quality_keys, int df1, int uf1, int df2, int uf2,
):
    """The per-edge loop of gacrux's ``update_homogenious`` (after its ``init_howeights``): each
    edge's quality updated (``update_edge``), its HO1-HO5 criteria and ``howeight``; the same
    values in the same objects, in the same order."""
    cdef _Bracket bracket = _Bracket(table, quality_keys, df1, uf1, df2, uf2)
    cdef dict weight = table.weight
    cdef object ho4_weight = sum(weight["HO4"])
    cdef list competitors = table.competitors
    cdef dict edge, quality
    cdef object ca, cb, howeight, first_bsn, second_bsn
    cdef long first_level, second_level
    for edge in edges:
        edge["howeight"] = 0
        ca = edge["ca"]
        cb = edge["cb"]
        _update_edge(bracket, edge)
        quality = edge["quality"]
        quality["HO1"] = 0
        quality["HO2"] = 0
        quality["HO3"] = [0] * B3
        quality["HO4"] = [1] * B4
        quality["HO5"] = [0] * B5
        howeight = ho4_weight
        first_level = (<dict>competitors[ca])["scorelevel"]
        second_level = (<dict>competitors[cb])["scorelevel"]
        if first_level == scorelevel and second_level == scorelevel:
            first_bsn = bsn[ca]
            second_bsn = bsn[cb]
            if first_bsn > second_bsn:
                first_bsn, second_bsn = second_bsn, first_bsn
            if edge["canmeet"]:
                if first_bsn > S:
                    quality["HO1"] = 1
                    howeight += weight["HO1"]
                quality["HO2"] = first_bsn - 1
                howeight += (first_bsn - 1) * weight["HO2"]
                if first_bsn <= S:
                    quality["HO3"][S - first_bsn] = 1
                    howeight += weight["HO3"][S - first_bsn]
                else:
                    quality["HO4"][first_bsn - S - 1] = 0
                    howeight -= weight["HO4"][first_bsn - S - 1]
                quality["HO5"][first_bsn - 1] = second_bsn - first_bsn
                howeight += weight["HO5"][first_bsn - 1] * (second_bsn - first_bsn)
        edge["howeight"] = howeight


def weighted_edges(object table, str mode, object category, object edges):
    """``[(edge["ca"], edge["cb"], table.update_weight(mode, category, edge)) for edge in edges]``,
    gacrux's ``update_weight`` in line (the same keys set in the same order); an unknown mode
    goes to ``update_weight`` itself, which refuses it."""
    cdef dict edge
    cdef list out = []
    cdef object weight, factor = None, own = None
    if mode == "HE":
        factor, own = table.weight["HE0"], "heweight"
    elif mode == "HO":
        factor, own = table.weight["HO0"], "howeight"
    elif mode == "BI":
        factor, own = table.weight["B0"], "biweight"
    elif mode != "QC":
        return [(edge["ca"], edge["cb"], table.update_weight(mode, category, edge)) for edge in edges]
    for edge in edges:
        if own is None:
            weight = edge["qcweight"]
        else:
            weight = edge["qcweight"] * factor + edge[own]
        edge["mode"] = mode
        edge["levels"] = category
        edge["weight"] = weight
        out.append((edge["ca"], edge["cb"], weight))
    return out


# A pair's fresh quality dict, copied from a template (a copy is one block copied, where
# dict.fromkeys and the zeros set one key at a time): without criteria for a pair that cannot
# meet (dict.fromkeys(quality_keys)); for one that can, the same keys in the same order with
# the zeros ``_update_edge`` sets (its lists stay None here: each pair gets its own).
cdef object _templates_keys = None
cdef dict _empty_quality = None
cdef dict _pair_quality = None


cdef object _make_quality_templates(tuple quality_keys):
    global _templates_keys, _empty_quality, _pair_quality
    cdef dict pair = dict.fromkeys(quality_keys)
    pair["QC6"] = 0
    pair["QC7"] = None
    pair["QN8"] = 0
    pair["QC8"] = None
    pair["QC9"] = 0
    pair["QMM"] = None
    cdef object name
    for name in _QC10_TO_QC17:
        pair[name] = 0
    for name in _QC18_TO_QC21:
        pair[name] = None
    _empty_quality = dict.fromkeys(quality_keys)
    _pair_quality = pair
    _templates_keys = quality_keys


cdef _update_edge(_Bracket bracket, dict edge):
    scorelevel_object = bracket.scorelevel_object
    if edge["qlevel"] == scorelevel_object and <Py_ssize_t>edge["cb"] < bracket.blob:
        return
    edge["qlevel"] = scorelevel_object
    if bracket.keys is not _templates_keys:
        _make_quality_templates(bracket.keys)
    cdef dict quality
    if not edge["canmeet"]:
        edge["quality"] = _empty_quality.copy()
        return
    quality = _pair_quality.copy()
    edge["quality"] = quality
    bracket.start()
    cdef Py_ssize_t maxpsd = bracket.maxpsd
    cdef long scorelevel = bracket.scorelevel
    cdef list competitors = bracket.competitors
    cdef dict first = competitors[edge["ca"]]
    cdef dict second = competitors[edge["cb"]]
    cdef long first_level = first["scorelevel"]
    cdef long second_level = second["scorelevel"]
    if first_level < second_level:
        first, second = second, first
        first_level, second_level = second_level, first_level
    # the template holds the zeros; the lists are new for each pair, set in the same order
    quality["QC7"] = [0] * maxpsd
    quality["QC8"] = [0] * (maxpsd + 1)
    quality["QMM"] = [0] * (bracket.maxmeets - 1)
    cdef object name
    for name in _QC18_TO_QC21:
        quality[name] = [0] * maxpsd
    cdef long level = first_level - scorelevel
    cdef int c14 = 0, c15 = 0, c16 = 0, c17 = 0
    cdef dict weight = bracket.weight
    cdef object cweight = 0
    # the sums of QMM and QC18-QC21 (each list holds one 1 at most), for qc below
    cdef int flagged = 0
    if first_level >= scorelevel and second_level == scorelevel:
        cweight = _inside_bracket(bracket, edge, first, second, quality, weight)
        c15 = quality["QC15"]
        c17 = quality["QC17"]
        flagged = sum(quality["QMM"])
    elif first_level >= scorelevel and second_level < scorelevel:
        cweight, c14, c16 = _downfloat(bracket, first, second_level, quality, weight, maxpsd, level)
    cdef int floated
    cdef Py_ssize_t slot
    for name, floated in zip(_QC18_TO_QC21, (c14, c15, c16, c17)):
        if floated and level > 0:
            slot = maxpsd - level
            (<list>quality[name])[slot] = 1
            cweight += (<list>weight[name])[slot]
            flagged += 1
    cdef long below = scorelevel - 1
    cdef long reach
    if first_level >= below and second_level < below:
        quality["QN8"] = 1
        cweight += weight["QN8"]
        reach = (first_level if first_level > second_level else second_level) - below
        if reach > 0:
            slot = maxpsd + 1 - reach
            (<list>quality["QC8"])[slot] = 1
            cweight += (<list>weight["QC8"])[slot]
    # gacrux's sum of QC9, QMM, QC10, QC11, QC14-QC17 and QC18-QC21 (integers: any order)
    edge["qc"] = (
        quality["QC9"]
        + flagged
        + quality["QC10"]
        + quality["QC11"]
        + quality["QC14"]
        + quality["QC15"]
        + quality["QC16"]
        + quality["QC17"]
    ) == 0
    edge["qcweight"] = cweight


cdef object _inside_bracket(_Bracket bracket, dict edge, dict first, dict second, dict quality, dict weight):
    """C.9-C.13, C.15, C.17 for a pair whose lower player belongs to the bracket (its weight;
    the C.15 and C.17 flags are left in ``quality``)."""
    cdef object cweight = 0
    cdef int uf1 = bracket.uf1, uf2 = bracket.uf2
    if bracket.pablevel and second["scorelevel"] == 0:
        quality["QC9"] = bracket.rnd - 1 - (<dict>first["num"]).get("val", 0)
        cweight += weight["QC9"] * quality["QC9"]
    if edge["canmeet"] and edge["played"] > 0 and bracket.maxmeets > 1:
        (<list>quality["QMM"])[edge["played"] - 1] = 1
    if (first["top"] or second["top"]) and first["cid"] > 0 and second["cid"] > 0:
        cweight += bracket.table._topscorers(first, second, quality)
    cdef str first_cop = first["cop"]
    cdef str second_cop = second["cop"]
    if first_cop != "nc" and first_cop[0].lower() == second_cop[0].lower():
        quality["QC12"] = 1
        cweight += weight["QC12"]
    if quality["QC12"] == 1 and int(first_cop[1]) > 0 and int(second_cop[1]) > 0:
        quality["QC13"] = 1
        cweight += weight["QC13"]
    edge["colordiff"] = _COLOUR_LETTER.get(first_cop, first_cop[0].upper()) + _COLOUR_LETTER.get(
        second_cop, second_cop[0].upper()
    )
    first_acc, second_acc = first["acc"], second["acc"]
    cdef bint first_below = first_acc < second_acc
    cdef bint first_above = first_acc > second_acc
    cdef long first_flt = first["flt"], second_flt = second["flt"]
    if first_below and (first_flt & uf1) or first_above and (second_flt & uf1):
        quality["QC15"] = 1
        cweight += weight["QC15"]
    if first_below and (first_flt & uf2) or first_above and (second_flt & uf2):
        quality["QC17"] = 1
        cweight += weight["QC17"]
    return cweight


cdef tuple _downfloat(
    _Bracket bracket, dict first, long second_level, dict quality, dict weight, Py_ssize_t maxpsd, long level
):
    """C.6, C.7, C.9, C.14, C.16 for a pair that floats the higher player down: its weight and
    the C.14 and C.16 float flags (for C.18-C.21)."""
    quality["QC6"] = 1
    cdef object cweight = weight["QC6"]
    cdef Py_ssize_t slot
    if level > 0:
        slot = maxpsd - level
        (<list>quality["QC7"])[slot] = 1
        cweight += (<list>weight["QC7"])[slot]
    if bracket.pablevel and second_level == 0:
        quality["QC9"] = bracket.rnd - 1 - (<dict>first["num"]).get("val", 0)
        cweight += weight["QC9"] * quality["QC9"]
    cdef long first_flt = first["flt"]
    cdef int c14 = 1 if first_flt & bracket.df1 else 0
    cdef int c16 = 1 if first_flt & bracket.df2 else 0
    cdef bint same_level = bracket.scorelevel_object == first["scorelevel"]
    if c14 and same_level:
        quality["QC14"] = 1
        cweight += weight["QC14"]
    if c16 and same_level:
        quality["QC16"] = 1
        cweight += weight["QC16"]
    return cweight, c14, c16


def ends_from(object edges, Py_ssize_t start):
    """Yield ``(edge["ca"], edge["cb"])`` for ``edges[start:]`` in order (no dict read for an
    ``EdgeList``; a generator: the caller may stop early)."""
    cdef EdgeList given
    cdef Py_ssize_t index
    if type(edges) is not EdgeList:
        for edge in edges[start:]:
            yield (edge["ca"], edge["cb"])
        return
    given = <EdgeList>edges
    for index in range(start, len(given)):
        yield (given.ca.data.as_ints[index], given.cb.data.as_ints[index])
