"""gacrux's Dutch crosstable with its hot spots replaced by code computing the same values.

Used by :class:`.dutch_fast.FastDutch` (see there): the players' data from
:mod:`.dutch_records`, the per-pair loop of ``list_edges`` compiled, and the edge quality of a
pair and a bracket's total quality without gacrux's enum look-ups.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations
from typing import Any

from gacrux.crosstable import ACC, ACX, COD, CSQ, FLT, NUM, PTS, PTX, RFP, RIP, TOP, flt
from gacrux.crosstabledutch import crosstable_dutch, qdefs

from . import _dutch_core, dutch_records

Edge = dict[str, Any]

_QUALITY_KEYS = tuple(member.name for member in qdefs if member.value < qdefs.QL.value)
_QC10_TO_QC17 = tuple(qdefs(value).name for value in range(qdefs.QC10.value, qdefs.QC18.value))
_QC18_TO_QC21 = tuple(qdefs(value).name for value in range(qdefs.QC18.value, qdefs.QC21.value + 1))
_COLOUR_LETTER = {"nc": "n", "w0": "w", "w1": "W", "w2": "W", "b0": "b", "b1": "B", "b2": "B"}
_DF1, _UF1, _DF2, _UF2 = flt.DF1.value, flt.UF1.value, flt.DF2.value, flt.UF2.value
# the quality criteria a bracket's total sums, by the pairing mode of the edge (compute_weight):
# the C criteria always, the heterogeneous ones in HE mode, the homogeneous ones in HO mode
_C_CRITERIA = tuple(name for index, name in enumerate(_QUALITY_KEYS) if index < qdefs.HE1.value)
_SUMMED_BY_MODE = {
    "HE": tuple(name for index, name in enumerate(_QUALITY_KEYS) if index < qdefs.HO1.value),
    "HO": _C_CRITERIA + tuple(name for index, name in enumerate(_QUALITY_KEYS) if index >= qdefs.HO1.value),
}


class FastCrosstable(crosstable_dutch):
    """gacrux's Dutch crosstable with the per-pair quality computed without enum look-ups."""

    direct = False  # compute_tiebreak returned dutch_records' records, not gacrux's tiebreaks
    # the pairs that can meet, sorted as gacrux's pairing lists them, while that list_edges
    # would find the same (collected by build_edges as it makes the edges)
    sorted_edges: list[Edge] | None = None

    def compute_tiebreak(self, tournament, rnd):
        """The players' pairing data from :mod:`.dutch_records` (the same values as gacrux's
        tiebreaks, computed alone) where it covers the tournament; else gacrux's."""
        if self.checkonly or not dutch_records.supported(tournament, rnd - 1):
            return super().compute_tiebreak(tournament, rnd)
        self.direct = True
        return dutch_records.pairing_records(tournament, rnd - 1)

    def list_edges(self, cmps, maxmeets, topcolor, prohibited):
        """gacrux's ``list_edges`` with the per-pair loop compiled (``_dutch_core.build_edges``)."""
        if self.checkonly:
            return super().list_edges(cmps, maxmeets, topcolor, prohibited)
        self.cmps = cmps
        self.size = self.BLOB = size = len(cmps.keys()) + 1
        self.ilen = 0
        self.score2level = None
        self.level2score = None
        opponents = self.opponents = [[None] * (size + 1) for _ in range(size + 1)]
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
        self.sorted_edges = _dutch_core.build_edges(competitors, opponents, size, self.rnd, self.maxmeets, self.BLOB)
        for elem in prohibited:
            if elem["firstRound"] <= self.rnd <= elem["lastRound"]:
                self.sorted_edges = None  # some canmeet changes below
                for first, second in list(combinations(elem["competitors"], 2)):
                    opponent = opponents[first][second]
                    opponent["canmeet"] = opponent["qc"] = False
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
        """The competitor record of ``_competitor`` from :func:`.dutch_records.pairing_records`."""
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
        return {
            "ca": low,
            "cb": high,
            "sa": first["scorelevel"],
            "sb": second["scorelevel"],
            "canmeet": canmeet,
            "isblob": high == self.BLOB,
            "played": played,
            "unplayed": self.rnd - 1 - second["num"].get("val", 0),
            "qlevel": -1,
            "quality": None,
            "weight": 0,
            "qcweight": 0,
            "heweight": 0,
            "howeight": 0,
            "colordiff": "  ",
            "qc": canmeet,
        }

    def update_edge(self, edge: Edge) -> None:
        if edge["qlevel"] == self.scorelevel and edge["cb"] < self.BLOB:
            return
        edge["qlevel"] = self.scorelevel
        edge["quality"] = dict.fromkeys(_QUALITY_KEYS)
        if not edge["canmeet"]:
            return
        maxpsd = self.maxpsd
        scorelevel = self.scorelevel
        first = self.competitors[edge["ca"]]
        second = self.competitors[edge["cb"]]
        if first["scorelevel"] < second["scorelevel"]:
            first, second = second, first
        quality = edge["quality"]
        quality["QC6"] = 0
        quality["QC7"] = [0] * maxpsd
        quality["QN8"] = 0
        quality["QC8"] = [0] * (maxpsd + 1)
        quality["QC9"] = 0
        quality["QMM"] = [0] * (self.maxmeets - 1)
        for name in _QC10_TO_QC17:
            quality[name] = 0
        for name in _QC18_TO_QC21:
            quality[name] = [0] * maxpsd
        level = first["scorelevel"] - scorelevel
        floats = (0, 0, 0, 0)
        cweight = 0
        if first["scorelevel"] >= scorelevel and second["scorelevel"] == scorelevel:
            cweight, floats = self._inside_bracket(edge, first, second, quality)
        elif first["scorelevel"] >= scorelevel and second["scorelevel"] < scorelevel:
            cweight, floats = self._downfloat(first, second, quality, level)
        cweight += self._float_differences(quality, floats, level)
        cweight += self._next_bracket(first, second, quality)
        edge["qc"] = (
            quality["QC9"]
            + sum(quality["QMM"])
            + quality["QC10"]
            + quality["QC11"]
            + quality["QC14"]
            + quality["QC15"]
            + quality["QC16"]
            + quality["QC17"]
            + sum(quality["QC18"])
            + sum(quality["QC19"])
            + sum(quality["QC20"])
            + sum(quality["QC21"])
        ) == 0
        edge["qcweight"] = cweight

    def _inside_bracket(
        self, edge: Edge, first: dict, second: dict, quality: dict
    ) -> tuple[int, tuple[int, int, int, int]]:
        """C.9-C.13, C.15, C.17 for a pair whose lower player belongs to the bracket."""
        weight = self.weight
        cweight = 0
        if self.pablevel and second["scorelevel"] == 0:
            quality["QC9"] = self.rnd - 1 - first["num"].get("val", 0)
            cweight += weight["QC9"] * quality["QC9"]
        if edge["canmeet"] and edge["played"] > 0 and self.maxmeets > 1:
            quality["QMM"][edge["played"] - 1] = 1
        if (first["top"] or second["top"]) and first["cid"] > 0 and second["cid"] > 0:
            cweight += self._topscorers(first, second, quality)
        first_cop, second_cop = first["cop"], second["cop"]
        if first_cop != "nc" and first_cop[0].lower() == second_cop[0].lower():
            quality["QC12"] = 1
            cweight += weight["QC12"]
        if quality["QC12"] == 1 and int(first_cop[1]) > 0 and int(second_cop[1]) > 0:
            quality["QC13"] = 1
            cweight += weight["QC13"]
        edge["colordiff"] = _COLOUR_LETTER.get(first_cop, first_cop[0].upper()) + _COLOUR_LETTER.get(
            second_cop, second_cop[0].upper()
        )
        first_below = first["acc"] < second["acc"]
        first_above = first["acc"] > second["acc"]
        c15 = 1 if first_below and (first["flt"] & _UF1) or first_above and (second["flt"] & _UF1) else 0
        if c15:
            quality["QC15"] = 1
            cweight += weight["QC15"]
        c17 = 1 if first_below and (first["flt"] & _UF2) or first_above and (second["flt"] & _UF2) else 0
        if c17:
            quality["QC17"] = 1
            cweight += weight["QC17"]
        return cweight, (0, c15, 0, c17)

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

    def _downfloat(self, first: dict, second: dict, quality: dict, level: int) -> tuple[int, tuple[int, int, int, int]]:
        """C.6, C.7, C.9, C.14, C.16 for a pair that floats the higher player down."""
        weight = self.weight
        maxpsd = self.maxpsd
        quality["QC6"] = 1
        cweight = weight["QC6"]
        if level > 0:
            quality["QC7"][maxpsd - level] = 1
            cweight += weight["QC7"][maxpsd - level]
        if self.pablevel and second["scorelevel"] == 0:
            quality["QC9"] = self.rnd - 1 - first["num"].get("val", 0)
            cweight += weight["QC9"] * quality["QC9"]
        c14 = 1 if (first["flt"] & _DF1) else 0
        if c14 and self.scorelevel == first["scorelevel"]:
            quality["QC14"] = 1
            cweight += weight["QC14"]
        c16 = 1 if first["flt"] & _DF2 else 0
        if c16 and self.scorelevel == first["scorelevel"]:
            quality["QC16"] = 1
            cweight += weight["QC16"]
        return cweight, (c14, 0, c16, 0)

    def _float_differences(self, quality: dict, floats: tuple[int, int, int, int], level: int) -> int:
        """C.18-C.21: the score difference of repeated floaters."""
        weight = self.weight
        maxpsd = self.maxpsd
        cweight = 0
        for name, floated in zip(_QC18_TO_QC21, floats, strict=True):
            value = level if floated else 0
            if value > 0:
                quality[name][maxpsd - value] = 1
                cweight += weight[name][maxpsd - value]
        return cweight

    def _next_bracket(self, first: dict, second: dict, quality: dict) -> int:
        """C.8 (QN8/QC8): the pair reaches into the bracket below."""
        scorelevel2 = self.scorelevel - 1
        if not (first["scorelevel"] >= scorelevel2 and second["scorelevel"] < scorelevel2):
            return 0
        weight = self.weight
        maxpsd = self.maxpsd
        quality["QN8"] = 1
        cweight = weight["QN8"]
        level = max(first["scorelevel"], second["scorelevel"]) - scorelevel2
        if level > 0:
            quality["QC8"][maxpsd + 1 - level] = 1
            cweight += weight["QC8"][maxpsd + 1 - level]
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
