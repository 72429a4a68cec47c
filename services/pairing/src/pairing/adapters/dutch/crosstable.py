"""gacrux's Dutch crosstable with its hot spots replaced by code computing the same values.

Used by :class:`.fast.FastDutch` (see there): the players' data from
:mod:`.records`, the per-pair loop of ``list_edges`` and the edge quality of a pair
compiled (``_dutch_core``), and a bracket's total quality without gacrux's enum look-ups.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from gacrux.crosstable import ACC, ACX, COD, CSQ, FLT, NUM, PTS, PTX, RFP, RIP, TOP, flt
from gacrux.crosstabledutch import crosstable_dutch, qdefs

from . import _dutch_core
from . import records as dutch_records

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from typing import Any

    Edge = dict[str, Any]

_QUALITY_KEYS = tuple(member.name for member in qdefs if member.value < qdefs.QL.value)
_DF1, _UF1, _DF2, _UF2 = flt.DF1.value, flt.UF1.value, flt.DF2.value, flt.UF2.value
# the quality criteria a bracket's total sums, by the pairing mode of the edge (compute_weight):
# the C criteria always, the heterogeneous ones in HE mode, the homogeneous ones in HO mode
_C_CRITERIA = tuple(name for index, name in enumerate(_QUALITY_KEYS) if index < qdefs.HE1.value)
_SUMMED_BY_MODE = {
    "HE": tuple(name for index, name in enumerate(_QUALITY_KEYS) if index < qdefs.HO1.value),
    "HO": _C_CRITERIA + tuple(name for index, name in enumerate(_QUALITY_KEYS) if index >= qdefs.HO1.value),
}
# every criterion's name in qdefs' order (its iteration: no aliases), and the name of each value
# (qdefs(value).name: an alias's value gives the member defined first)
_CRITERIA = tuple(member.name for member in qdefs)
_NAME_OF_VALUE = {value: qdefs(value).name for value in {member.value for member in qdefs}}
# _dutch_core's edge template as a plain dict (spreading a dict copies it at once; the read-only
# mapping is read key by key)
_EDGE_TEMPLATE = dict(_dutch_core.EDGE_TEMPLATE)


class FastCrosstable(crosstable_dutch):
    """gacrux's Dutch crosstable with the per-pair quality computed without enum look-ups."""

    direct = False  # compute_tiebreak returned the records module's records, not gacrux's tiebreaks
    # the pairs that can meet, sorted as gacrux's pairing lists them, while that list_edges
    # would find the same (collected by build_edges as it makes the edges)
    sorted_edges: list[Edge] | None = None

    def compute_tiebreak(self, tournament, rnd):
        """The players' pairing data from :mod:`.records` (the same values as gacrux's
        tiebreaks, computed alone) where it covers the tournament; else gacrux's."""
        if self.checkonly or not dutch_records.supported(tournament, rnd - 1):
            return super().compute_tiebreak(tournament, rnd)
        self.direct = True
        return dutch_records.pairing_records(tournament, rnd - 1)

    def list_edges(self, cmps, maxmeets, topcolor, prohibited):
        """gacrux's ``list_edges`` with the per-pair loop compiled (``_dutch_core.build_edges``): the
        matrix of edges is an ``EdgeTable``'s rows, a pair's dict made when first read."""
        if self.checkonly:
            return super().list_edges(cmps, maxmeets, topcolor, prohibited)
        self.cmps = cmps
        self.size = self.BLOB = size = len(cmps.keys()) + 1
        self.ilen = 0
        self.score2level = None
        self.level2score = None
        record = self._record if self.direct else self._competitor
        competitors = self.competitors = [record(cmps, index) for index in range(size + 1)]
        self.numtop = 0
        for index in range(size + 1):
            competitors[0]["rfp"] ^= competitors[index]["rfp"]
        self.level2score = acc = sorted({c["acc"] for c in competitors if c["rfp"] or c["cid"] == 0})
        self.score2level = score2level = {acc[i]: i for i in range(len(acc))}
        competitors[0]["scorelevel"] = 0
        for index in range(1, size):
            competitor = competitors[index]
            competitor["scorelevel"] = score2level[competitor["acc"]] if competitor["rfp"] else 0
        competitors[size]["scorelevel"] = -1
        self.assign_tpn(competitors, size)
        # the edges in arrays, each pair's dict made when first read; the rows stand for gacrux's matrix
        table, self.sorted_edges = _dutch_core.build_edges(competitors, size, self.rnd, self.maxmeets, self.BLOB)
        self.edge_table = table
        opponents = self.opponents = table.rows()
        for elem in prohibited:
            if elem["firstRound"] <= self.rnd <= elem["lastRound"]:
                self.sorted_edges = None  # some canmeet changes below
                for first, second in list(combinations(elem["competitors"], 2)):
                    table.forbid(first, second)  # opponents[first][second]["canmeet"] = ...["qc"] = False
        return (competitors, opponents)

    def _competitor(self, cmps: dict, index: int) -> dict:
        """gacrux's competitor record (``list_edges``), the same values."""
        tbval = cmps[index]["tiebreakDetails"] if index in cmps else None
        competitor = {
            "cid": index,
            "rnk": cmps[index]["orgrank"] if index in cmps else index,
            "pts": tbval[PTS]["val"] if tbval else Decimal("0.0"),
            "ptx": tbval[PTX]["val"] if tbval else Decimal("-1.0"),
            "acc": tbval[ACC]["val"] if tbval else Decimal("-1.0"),
            "acx": tbval[ACX]["val"] if tbval else Decimal("-1.0"),
            "rfp": tbval[RFP]["val"] not in ["", "N"] if tbval else False,
            "hst": tbval[RFP] if tbval else {},
            "num": tbval[NUM] if tbval else {},
            "rip": tbval[RIP]["val"] if tbval else 0,
            "cod": tbval[COD]["val"] if tbval else 0,
            "csq": " " + tbval[CSQ]["val"] if tbval else " ",
            "flt": tbval[FLT]["val"] if tbval else 0,
            "top": tbval[TOP]["val"] if tbval else False,
            "cop": self.color_preference(tbval[COD]["val"], tbval[CSQ]["val"]) if tbval else "  ",
        }
        if index in cmps and not cmps[index]["present"]:
            competitor["rfp"] = False
        return competitor

    def _record(self, records: dict, index: int) -> dict:
        """The competitor record of ``_competitor`` from :func:`.records.pairing_records`."""
        found = records.get(index)
        if found is None:
            return self._competitor({}, index)
        competitor = {"cid": index, **found}
        competitor["csq"] = " " + found["csq"]
        competitor["cop"] = self.color_preference(found["cod"], found["csq"])
        return competitor

    def create_edge(self, nodea, nodeb, bhasmet=None):
        """gacrux's ``create_edge`` with its ``update_canmeet`` (C.1, C.3) in line."""
        if self.checkonly:
            return super().create_edge(nodea, nodeb, bhasmet)
        (first, second) = (nodea, nodeb) if nodea["cid"] <= nodeb["cid"] else (nodeb, nodea)
        low, high = first["cid"], second["cid"]
        played = bhasmet.count(low) if bhasmet is not None else 0
        canmeet = (
            played < self.maxmeets
            and low != high
            and first["rfp"]
            and second["rfp"]
            or low < self.BLOB
            and high == self.BLOB
        )
        if canmeet and not first["top"] and not second["top"]:
            cop = first["cop"]
            if (cop == "w2" or cop == "b2") and second["cop"] == cop:
                canmeet = False
        # the keys and the values every pair shares: _dutch_core's template, which EdgeTable copies
        return {
            **_EDGE_TEMPLATE,
            "ca": low,
            "cb": high,
            "sa": first["scorelevel"],
            "sb": second["scorelevel"],
            "canmeet": canmeet,
            "isblob": high == self.BLOB,
            "played": played,
            "unplayed": self.rnd - 1 - second["num"].get("val", 0),
            "qc": canmeet,
        }

    def update_edge(self, edge: Edge) -> None:
        """gacrux's ``update_edge`` (the quality of a pair for the bracket being paired): the same
        values, compiled (``_dutch_core.update_edge``; C.10 and C.11 in ``_topscorers``)."""
        _dutch_core.update_edge(self, edge, _QUALITY_KEYS, _DF1, _UF1, _DF2, _UF2)

    def get_edge_quality(self, edge: Edge) -> Edge:
        """gacrux's ``get_edge_quality`` (update the pair's quality unless current), in one call."""
        _dutch_core.update_edge(self, edge, _QUALITY_KEYS, _DF1, _UF1, _DF2, _UF2)
        return edge

    def update_hetrogenious(self, scorelevel, nodes, edges, bsn):
        """gacrux's ``update_hetrogenious`` (the heterogeneous criteria of a bracket's edges), its
        per-edge loop compiled (``_dutch_core.heterogeneous_weights``; the same values)."""
        moved_down = self.M = sum(self.mdp)
        self.ilen = 0
        self.init_heweights(scorelevel, bsn)
        _dutch_core.heterogeneous_weights(
            self, scorelevel, edges, bsn, moved_down, _QUALITY_KEYS, _DF1, _UF1, _DF2, _UF2
        )

    def update_homogenious(self, scorelevel, edges, bsn, pairs):
        """gacrux's ``update_homogenious`` (the homogeneous criteria of a bracket's edges), its
        per-edge loop compiled (``_dutch_core.homogeneous_weights``; the same values). gacrux's
        names: ``B`` the bracket's size, ``S`` its pairs, ``B3``-``B5`` the HO3-HO5 lengths."""
        size = self.B = len(bsn)
        self.B3 = pairs
        self.B4 = size - pairs
        self.B5 = size - 1
        self.ilen = 0
        self.init_howeights(scorelevel, pairs, size - 2 * pairs)
        _dutch_core.homogeneous_weights(
            self, scorelevel, edges, bsn, pairs, self.B3, self.B4, self.B5, _QUALITY_KEYS, _DF1, _UF1, _DF2, _UF2
        )

    def cascade_weights(self, depth, start, stop):
        """gacrux's ``cascade_weights`` (each criterion's weight, the lowest first) with the
        criteria's names looked up once; the same values."""
        running = 1
        weight = self.weight
        for cval in range(stop.value, start.value - 1, -1):
            nval = _NAME_OF_VALUE[cval]
            if isinstance(depth[nval], int):
                (running, weight[nval], depth[nval]) = (running * depth[nval], running, len(str(depth[nval])))
            elif isinstance(depth[nval], list):
                weight[nval] = [0] * len(depth[nval])
                for index in range(len(weight[nval]) - 1, -1, -1):
                    (running, weight[nval][index], depth[nval][index]) = (
                        running * depth[nval][index],
                        running,
                        len(str(weight[nval][index])),
                    )
            else:
                super().cascade_weights({nval: depth[nval]}, qdefs(cval), qdefs(cval))  # gacrux's refusal
        return running

    def init_cweights(self, scorelevel, nodes):
        """gacrux's ``init_cweights`` (the depths and weights of the C criteria for a bracket)
        without its per-node enum look-ups; the same values, set in the same order."""
        field_depth = len(nodes) + 1  # gacrux's cc
        mdp = self.mdp
        c7len = len(mdp)
        c8len = c7len + 1
        mmlen = self.maxmeets - 1
        self.weight = weight = dict.fromkeys(_CRITERIA, 0)
        self.depth = depth = dict.fromkeys(_CRITERIA, 0)
        bsize = 0
        nbsize = 0
        tops = down1 = up1 = down2 = up2 = 0
        for node in nodes:
            level = node["scorelevel"]
            floats = node["flt"]
            if level >= scorelevel:
                bsize += 1
                tops += 1 if node["top"] else 0
                down1 += 1 if floats & _DF1 else 0
                down2 += 1 if floats & _DF2 else 0
            if level >= scorelevel - 1:
                nbsize += 1
            if level <= scorelevel:
                up1 += 1 if floats & _UF1 else 0
                up2 += 1 if floats & _UF2 else 0
        depth["QC6"] = bsize + 1
        depth["QC7"] = [psd + 1 for psd in mdp]
        depth["QN8"] = nbsize + 1
        depth["QC8"] = [psd + 1 for psd in mdp] + [bsize + 1 - sum(mdp)]
        depth["QC9"] = bsize + 1 if scorelevel <= self.pablevel else 1
        depth["QMM"] = [field_depth] * mmlen
        depth["QC10"] = tops + 1
        depth["QC11"] = depth["QC10"]
        depth["QC12"] = field_depth
        depth["QC13"] = field_depth
        depth["QC14"] = down1 + 1
        depth["QC15"] = up1 + 1
        depth["QC16"] = down2 + 1
        depth["QC17"] = up2 + 1
        depth["QC18"] = [psd + 1 for psd in mdp]
        depth["QC19"] = [psd + 1 for psd in mdp]
        depth["QC20"] = [psd + 1 for psd in mdp]
        depth["QC21"] = [psd + 1 for psd in mdp]
        weight["QL"] = self.cascade_weights(depth, qdefs.QC6, qdefs.QC21)  # gacrux's QC0, an alias of QL
        zeros = {count: str(["0"] * count).replace("'", "") for count in {c7len, c8len, mmlen}}
        self.QCweight = (
            "C 1--0-"
            + zeros[c7len]
            + "-0-"
            + zeros[c8len]
            + "-0-"
            + zeros[mmlen]
            + "-0-0-0-0--0-0-0-0--"
            + zeros[c7len]
            + "-"
            + zeros[c7len]
            + "-"
            + zeros[c7len]
            + "-"
            + zeros[c7len]
        )

    def _topscorers(self, first: dict, second: dict, quality: dict) -> int:
        """C.10 and C.11 (topscorers' colour difference and three same colours running)."""
        weight = self.weight
        cweight = 0
        first_cod, second_cod = first["cod"], second["cod"]
        if first_cod == second_cod and abs(first_cod) >= 2:
            quality["QC10"] = 1
            cweight += weight["QC10"]
        first_cop, second_cop = first["cop"], second["cop"]
        if first_cop[0] == second_cop[0] == "w" or first_cop[0] == second_cop[0] == "b":
            opposite = {"w": "bb", "b": "ww"}[first_cop[0]]
            first_strength, second_strength = int(first_cop[1]), int(second_cop[1])
            first_last, second_last = first["csq"][-2:], second["csq"][-2:]
            if (
                first_last == second_last
                and (first_last == "ww" or second_last == "bb")
                or first_strength > second_strength
                and second_last == opposite
                or second_strength > first_strength
                and first_last == opposite
                or (
                    first_strength == second_strength == 2
                    and (
                        abs(first_cod) > abs(second_cod)
                        and second_last == opposite
                        or abs(second_cod) > abs(first_cod)
                        and first_last == opposite
                    )
                )
            ):
                quality["QC11"] = 1
                cweight += weight["QC11"]
        return cweight

    def compute_weight(self, wpairs, bquality):
        """gacrux's ``compute_weight`` (the total quality of a bracket's pairs) with the criteria
        it sums per edge looked up once; the same sums, made the same way (the first edge's
        vector becomes the total and takes the others' in place, as in gacrux)."""
        quality = dict.fromkeys(_QUALITY_KEYS)
        quality["QN8"] = 0
        get_edge_quality = self.get_edge_quality
        for edge in wpairs:
            get_edge_quality(edge)
            edge_quality = edge["quality"]
            for name in _SUMMED_BY_MODE.get(edge.get("mode", ""), _C_CRITERIA):
                value = edge_quality[name]
                if value is None:
                    continue
                total = quality[name]
                if total is None:
                    quality[name] = value
                elif isinstance(total, int):
                    quality[name] = total + value
                else:
                    for index in range(len(total)):
                        total[index] += value[index]
        return quality
