"""Standings and cross table of an individual section (PAIR-7, AWD-8), JSON-able (the API writes
the CSV forms: ``pairing.entrypoints.csv_answers``)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Tournament
from .ranking import StandingRow, rank
from .tiebreaks import TB_PTS, TiebreakConfig, compute_tiebreaks

# Presets of PAIR-7 (the section config chooses; these are only convenient defaults).
ORDER_SZ_ONLINE = ("BH", "SOB")  # 小分 = Buchholz, 小小分
ORDER_ROUND_ROBIN = ("SB", "WIN")  # 小分 = Sonneborn-Berger, wins
ORDER_SWISS = ("BH", "BH/M1", "WIN")  # 对手分, 中间对手分, wins


def standings(
    tournament: Tournament, order: Sequence[str], cfg: TiebreakConfig = TiebreakConfig()
) -> list[StandingRow]:
    """Ranked rows: points first, then ``order``; each row lists every tiebreak value."""
    keys = [TB_PTS] + [key for key in order if key != TB_PTS]
    values = compute_tiebreaks(tournament, keys, cfg)
    players = tournament.players
    names = {player.id: player.name for player in players}
    genders = {player.id: player.gender for player in players}
    return rank([player.id for player in players], values, keys, names, genders)


def standings_by_gender(
    tournament: Tournament, order: Sequence[str], cfg: TiebreakConfig = TiebreakConfig()
) -> dict[str, list[StandingRow]]:
    """Merged section (REG-12): tiebreaks over the whole field, places per gender."""
    keys = [TB_PTS] + [key for key in order if key != TB_PTS]
    values = compute_tiebreaks(tournament, keys, cfg)
    out: dict[str, list[StandingRow]] = {}
    for gender in sorted({player.gender for player in tournament.players}):
        cohort = [player for player in tournament.players if player.gender == gender]
        names = {player.id: player.name for player in cohort}
        out[gender] = rank([player.id for player in cohort], values, keys, names, dict.fromkeys(names, gender))
    return out


def cross_table(tournament: Tournament, rows: Sequence[StandingRow] | None = None) -> dict:
    """JSON-able cross table: per player (in standings order if given) one cell per round:
    ``{"opponent", "colour" ("first"/"second"/None), "result" (TRF letter), "points"}``."""
    order = [row.id for row in rows] if rows else [player.id for player in tournament.players]
    place = {row.id: row.place_label for row in rows} if rows else {}
    out = []
    for pid in order:
        cells = []
        for entry in tournament.entries(pid):
            colour = None if entry.colour is None else ("first" if entry.colour.value == "w" else "second")
            cells.append(
                {
                    "round": entry.round,
                    "opponent": entry.opponent,
                    "colour": colour,
                    "result": entry.code.value,
                    "points": tournament.points.points(entry.code),
                }
            )
        name = tournament.player(pid).name
        out.append({"id": pid, "name": name, "place": place.get(pid), "points": tournament.score(pid), "rounds": cells})
    return {"rounds": tournament.rounds_done, "players": out}
