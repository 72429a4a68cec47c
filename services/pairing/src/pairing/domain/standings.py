"""Standings and cross table of an individual section (PAIR-7, AWD-8), JSON-able and CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from .model import Tournament
from .ranking import StandingRow, rank
from .tiebreaks import TB_PTS, TiebreakConfig, compute_tiebreaks

# Presets of PAIR-7 (the section config chooses; these are only convenient defaults).
ORDER_SZ_ONLINE = ("BH", "SOB")  # 小分 = Buchholz, 小小分
ORDER_ROUND_ROBIN = ("SB", "WIN")  # 小分 = Sonneborn-Berger, wins
ORDER_SWISS = ("BH", "BH/M1", "WIN")  # 对手分, 中间对手分, wins


def standings(t: Tournament, order: Sequence[str], cfg: TiebreakConfig = TiebreakConfig()) -> list[StandingRow]:
    """Ranked rows: points first, then ``order``; each row lists every tiebreak value."""
    keys = [TB_PTS] + [k for k in order if k != TB_PTS]
    values = compute_tiebreaks(t, keys, cfg)
    names = {p.id: p.name for p in t.players}
    genders = {p.id: p.gender for p in t.players}
    return rank([p.id for p in t.players], values, keys, names, genders)


def standings_by_gender(
    t: Tournament, order: Sequence[str], cfg: TiebreakConfig = TiebreakConfig()
) -> dict[str, list[StandingRow]]:
    """Merged section (REG-12): tiebreaks over the whole field, places per gender."""
    keys = [TB_PTS] + [k for k in order if k != TB_PTS]
    values = compute_tiebreaks(t, keys, cfg)
    out: dict[str, list[StandingRow]] = {}
    for g in sorted({p.gender for p in t.players}):
        ps = [p for p in t.players if p.gender == g]
        out[g] = rank([p.id for p in ps], values, keys, {p.id: p.name for p in ps}, {p.id: g for p in ps})
    return out


def standings_json(rows: Sequence[StandingRow]) -> list[dict]:
    return [r.as_dict() for r in rows]


def standings_csv(rows: Sequence[StandingRow]) -> str:
    buf = io.StringIO()
    keys = list(rows[0].values) if rows else [TB_PTS]
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "id", "name", "gender", *keys])
    for r in rows:
        w.writerow([r.place_label, r.id, r.name, r.gender, *[_fmt(r.values[k]) for k in keys]])
    return buf.getvalue()


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def cross_table(t: Tournament, rows: Sequence[StandingRow] | None = None) -> dict:
    """JSON-able cross table: per player (in standings order if given) one cell per round:
    ``{"opponent", "colour" ("first"/"second"/None), "result" (TRF letter), "points"}``."""
    order = [r.id for r in rows] if rows else [p.id for p in t.players]
    place = {r.id: r.place_label for r in rows} if rows else {}
    out = []
    for pid in order:
        p = t.player(pid)
        cells = []
        for e in t.entries(pid):
            cells.append(
                {
                    "round": e.round,
                    "opponent": e.opponent,
                    "colour": None if e.colour is None else ("first" if e.colour.value == "w" else "second"),
                    "result": e.code.value,
                    "points": t.points.points(e.code),
                }
            )
        out.append({"id": pid, "name": p.name, "place": place.get(pid), "points": t.score(pid), "rounds": cells})
    return {"rounds": t.rounds_done, "players": out}


def cross_table_csv(t: Tournament, rows: Sequence[StandingRow] | None = None) -> str:
    """One line per player: id, name, points, then ``<opp><f|s><result>`` per round."""
    ct = cross_table(t, rows)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "id", "name", "points", *[f"R{r}" for r in range(1, ct["rounds"] + 1)]])
    for row in ct["players"]:
        cells = []
        for c in row["rounds"]:
            col = {"first": "f", "second": "s", None: ""}[c["colour"]]
            cells.append(f"{c['opponent'] or ''}{col}{c['result'].strip() or '.'}")
        w.writerow([row["place"] or "", row["id"], row["name"], _fmt(row["points"]), *cells])
    return buf.getvalue()
