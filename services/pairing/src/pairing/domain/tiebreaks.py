"""Individual tiebreaks (PAIR-7) with unplayed rounds per FIDE C.07 Article 16 (PAIR-6).

Names (``TB_*`` constants) follow FIDE C.07 / the reference data columns:

* ``BH`` Buchholz 对手分 / Swiss 小分; ``BH/C1`` cut-1; ``BH/M1`` median 中间对手分;
* ``SOB`` sum of opponents' Buchholz 小小分; ``AOB`` average of opponents' Buchholz;
* ``SB`` Sonneborn-Berger (round-robin 小分): Σ opponent's points × (own points against them ÷
  win points) — with 2/1/0 points a win counts the opponent's whole score, a draw half;
* ``WIN`` rounds won incl. forfeit wins and full-point byes; ``WON`` games won over the board;
* ``BPG``/``BWG`` games played / won moving second; ``PS`` progressive score.

Article 16 (Swiss): each of a player's own unplayed rounds counts as a game against a dummy
with the player's own final score — the 2026 edition caps the dummy (16.4.1: at the forfeiting
opponent's adjusted score; 16.4.2: at a draw in every round). When a player is someone's
opponent, the player's unplayed rounds after the last round that was not voluntarily unplayed
(i.e. after withdrawing) count as draws (16.3.2). Cuts remove voluntary unplayed rounds first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import IntEnum

from .model import Code, Colour, Tournament

TB_PTS = "PTS"
TB_BH = "BH"
TB_BH_C1 = "BH/C1"
TB_BH_M1 = "BH/M1"
TB_SB = "SB"
TB_WIN = "WIN"
TB_WON = "WON"
TB_BPG = "BPG"
TB_BWG = "BWG"
TB_PS = "PS"
TB_AOB = "AOB"
TB_SOB = "SOB"
INDIVIDUAL_TIEBREAKS = (TB_BH, TB_BH_C1, TB_BH_M1, TB_SB, TB_WIN, TB_WON, TB_BPG, TB_BWG, TB_PS, TB_AOB, TB_SOB)


class Edition(IntEnum):
    FIDE_2024 = 2024
    FIDE_2026 = 2026


@dataclass(frozen=True)
class TiebreakConfig:
    edition: Edition = Edition.FIDE_2024
    round_robin: bool = False  # round robin: no dummies, unplayed games count 0


@dataclass(frozen=True)
class _Item:
    value: float  # opponent's (or dummy's) score used by BH
    own: float  # own points in that round (for SB)
    vur: bool  # voluntary unplayed round: cut first


def _adjusted_score(tournament: Tournament, pid: int) -> float:
    """A player's score as seen by opponents (16.3): rounds after withdrawal count as draws."""
    entries = tournament.entries(pid)
    lna = max((entry.round for entry in entries if not entry.code.voluntary_unplayed), default=0)
    total = 0.0
    for entry in entries:
        if entry.round <= lna or entry.opponent is not None:
            total += tournament.points.points(entry.code)
        else:
            total += tournament.points.draw
    return total


def _items(tournament: Tournament, pid: int, adjusted: dict[int, float], cfg: TiebreakConfig) -> list[_Item]:
    own_total = tournament.score(pid)
    rounds = tournament.rounds_done
    out = []
    for entry in tournament.entries(pid):
        points = tournament.points.points(entry.code)
        if entry.played and entry.opponent is not None:  # played: always against an opponent
            out.append(_Item(adjusted[entry.opponent], points, False))
        elif cfg.round_robin:
            if entry.opponent is not None:
                out.append(_Item(0.0, points, entry.code.voluntary_unplayed))
        else:
            dummy = own_total
            if cfg.edition >= Edition.FIDE_2026:
                cap = adjusted[entry.opponent] if entry.opponent is not None else tournament.points.draw * rounds
                dummy = min(dummy, cap)
            out.append(_Item(dummy, points, entry.code.voluntary_unplayed))
    return out


def _cut(items: list[_Item], low: int, high: int) -> list[_Item]:
    items = list(items)
    for _ in range(min(low, len(items))):
        vurs = [i for i in items if i.vur]
        if vurs:
            victim = min(vurs, key=lambda i: i.value)
        else:
            victim = min(items, key=lambda i: i.value)
        items.remove(victim)
    for _ in range(min(high, len(items))):
        items.remove(max(items, key=lambda i: i.value))
    return items


def _round2(value: float) -> float:
    return float(Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def compute_tiebreaks(
    tournament: Tournament, names: Iterable[str] = INDIVIDUAL_TIEBREAKS, cfg: TiebreakConfig = TiebreakConfig()
) -> dict[int, dict[str, float]]:
    """Every requested tiebreak for every player: ``{pid: {name: value}}`` (plus ``PTS``)."""
    names = list(names)
    pids = [player.id for player in tournament.players]
    adjusted = {pid: (tournament.score(pid) if cfg.round_robin else _adjusted_score(tournament, pid)) for pid in pids}
    items = {pid: _items(tournament, pid, adjusted, cfg) for pid in pids}
    buchholz = {pid: sum(i.value for i in items[pid]) for pid in pids}
    win_pts = tournament.points.win
    out: dict[int, dict[str, float]] = {}
    for pid in pids:
        row: dict[str, float] = {TB_PTS: tournament.score(pid)}
        entries = tournament.entries(pid)
        for name in names:
            if name == TB_BH:
                row[name] = buchholz[pid]
            elif name == TB_BH_C1:
                row[name] = sum(i.value for i in _cut(items[pid], 1, 0))
            elif name == TB_BH_M1:
                row[name] = sum(i.value for i in _cut(items[pid], 1, 1))
            elif name == TB_SB:
                row[name] = sum(i.value * i.own for i in items[pid]) / win_pts
            elif name == TB_WIN:
                row[name] = sum(
                    1
                    for entry in entries
                    if entry.code in (Code.WIN, Code.FORFEIT_WIN)
                    or (
                        entry.code in (Code.PAIRING_BYE, Code.FULL_BYE)
                        and tournament.points.points(entry.code) == win_pts
                    )
                )
            elif name == TB_WON:
                row[name] = sum(1 for entry in entries if entry.code is Code.WIN and entry.played)
            elif name == TB_BPG:
                row[name] = sum(1 for entry in entries if entry.played and entry.colour is Colour.SECOND)
            elif name == TB_BWG:
                row[name] = sum(
                    1 for entry in entries if entry.played and entry.colour is Colour.SECOND and entry.code is Code.WIN
                )
            elif name == TB_PS:
                acc = run = 0.0
                for entry in entries:
                    run += tournament.points.points(entry.code)
                    acc += run
                row[name] = acc
            elif name in (TB_AOB, TB_SOB):
                opp = [buchholz[entry.opponent] for entry in entries if entry.played and entry.opponent is not None]
                if name == TB_SOB:
                    row[name] = sum(opp)
                else:
                    row[name] = _round2(sum(opp) / len(opp)) if opp else 0.0
            elif name != TB_PTS:
                raise ValueError(f"unknown tiebreak {name!r}")
        out[pid] = row
    return out
