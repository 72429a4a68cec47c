"""A section's standings as contract rows (PAIR-6..8, PAIR-10, AWD-7, AWD-8).

Names of tiebreaks in ``SectionRules.tiebreaks`` are the event configuration's
(``buchholz``, ``median_buchholz``, …, ``board_1_points``); the domain's FIDE names
(``BH``, ``BH/M1``, …, ``B1``) stay inside. Standing rows list every configured criterion
under its configured name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import BoardStat
from gomoku_shared.contracts.events import StandingRow as ContractRow

from ..domain import Code, Edition, Outcome, TiebreakConfig, TieGroup, apply_playoff, compute_tiebreaks, team_values
from ..domain.aggregate import Section
from ..domain.ranking import StandingRow as DomainRow
from ..domain.ranking import rank
from .section import FORFEITS, board_game_points, matches_of, members, team_tournament, tournament

#: configured criterion name -> domain key (individual)
INDIVIDUAL_NAMES = {
    "points": "PTS",
    "buchholz": "BH",
    "buchholz_of_buchholz": "SOB",
    "median_buchholz": "BH/M1",
    "sonneborn_berger": "SB",
    "wins": "WIN",
    "buchholz_cut1": "BH/C1",
    "progressive": "PS",
}
TEAM_NAMES = {
    "match_points": "MP",
    "opp_match_points": "OMP",
    "median_opp_match_points": "OMP/M1",
    "total_game_points": "GP",
    "sonneborn_berger_match": "SB",
    "board_1_points": "B1",
    "board_2_points": "B2",
    "board_3_points": "B3",
}
DEFAULT_ORDER = {
    ("individual", "swiss"): ["points", "buchholz", "median_buchholz", "wins"],
    ("individual", "round_robin"): ["points", "sonneborn_berger", "wins"],
    ("team", "swiss"): [
        "match_points",
        "opp_match_points",
        "median_opp_match_points",
        "total_game_points",
        "board_1_points",
        "board_2_points",
        "board_3_points",
    ],
    ("team", "round_robin"): [
        "match_points",
        "total_game_points",
        "sonneborn_berger_match",
        "board_1_points",
        "board_2_points",
        "board_3_points",
    ],
}


def order_names(state: Section) -> list[str]:
    """The configured criteria (names), the primary score first."""
    names = list(state.rules.tiebreaks) or DEFAULT_ORDER[(state.rules.kind, state.rules.format)]
    primary = "match_points" if state.team else "points"
    table = TEAM_NAMES if state.team else INDIVIDUAL_NAMES
    known = [name for name in names if name in table or name in table.values()]
    return [primary] + [name for name in known if name != primary and table.get(name, name) != table[primary]]


def domain_key(state: Section, name: str) -> str:
    table = TEAM_NAMES if state.team else INDIVIDUAL_NAMES
    return table.get(name, name)


def tiebreak_config(state: Section) -> TiebreakConfig:
    edition = Edition.FIDE_2026 if state.rules.tiebreak_edition >= 2026 else Edition.FIDE_2024
    return TiebreakConfig(edition=edition, round_robin=state.rules.format == "round_robin")


#: how a row's place was settled (the contract's ``decided_by``)
DecidedBy = Literal["tiebreak", "playoff", "arbiter", "shared"]


@dataclass
class Ranked:
    """Domain rows (overall and per gender) with the values of every criterion by domain key."""

    rows: list[DomainRow]
    by_gender: dict[str, list[DomainRow]] | None
    values: dict[int, dict[str, float]]
    keys: list[str]
    names: list[str]


def ranked(state: Section, upto: int | None = None) -> Ranked:
    names = order_names(state)
    keys = [domain_key(state, name) for name in names]
    config = tiebreak_config(state)
    genders: dict[int, str] = {}
    if state.team:
        values = team_values(team_tournament(state, upto), config)
        ids = sorted(state.entrants)
    else:
        replayed = tournament(state, upto)
        values = compute_tiebreaks(replayed, [key for key in keys if key != "PTS"] + ["WIN"], config)
        ids = [player.id for player in replayed.players]
        genders = {player.id: player.gender for player in replayed.players}
    label = {start_no: entrant["entrant"].name for start_no, entrant in state.entrants.items()}
    rows = rank(ids, values, keys, label, genders)
    by_gender = None
    if state.rules.rank_by_gender and not state.team:
        by_gender = {}
        for gender in sorted(set(genders.values())):
            of_gender = [start_no for start_no in ids if genders[start_no] == gender]
            by_gender[gender] = rank(of_gender, values, keys, label, genders)
    return Ranked(rows, by_gender, values, keys, names)


def apply_decisions(rows: list[DomainRow], decisions: list[tuple[list[int], list]]) -> tuple[list[DomainRow], set[int]]:
    """Fold decided ties (playoff or arbiter) into rows where a shared group is exactly the tie."""
    decided: set[int] = set()
    for ids, order in decisions:
        group = [row for row in rows if row.id in ids]
        if not group or sorted(row.id for row in group) != sorted(ids):
            continue
        if len({(row.place, row.place_to) for row in group}) != 1 or not group[0].shared:
            continue
        members_of_place = [row.id for row in rows if row.place == group[0].place]
        if sorted(members_of_place) != sorted(ids):
            continue
        tie = TieGroup(tuple(range(group[0].place, group[0].place_to + 1)), tuple(ids), "playoff")
        rows = apply_playoff(rows, tie, order)
        decided |= set(ids)
    return rows, decided


def decisions_of(state: Section) -> dict[str, list[tuple[list[int], list]]]:
    """Decided ties by gender key ('' overall) in start numbers."""
    index = state.by_entrant_id()
    out: dict[str, list] = {}
    for tie in state.ties:
        if tie["status"] != "decided" or not tie["decision"]:
            continue
        ids = [index[entrant_id] for entrant_id in tie["entrant_ids"]]
        order = [
            [index[shared] for shared in decided] if isinstance(decided, list) else index[decided]
            for decided in tie["decision"]
        ]
        out.setdefault(tie["gender"] or "", []).append((ids, order))
    return out


def contract_rows(state: Section, ranking: Ranked, *, final: bool = False) -> list[ContractRow]:
    """Standings as contract rows: every criterion by its configured name (PAIR-7, AWD-8)."""
    decisions = decisions_of(state) if final else {}
    rows, decided = apply_decisions(ranking.rows, decisions.get("", []))
    decided_how: dict[int, DecidedBy] = {}
    index = state.by_entrant_id()
    for tie in state.ties:
        if tie["status"] == "decided":
            for entrant_id in tie["entrant_ids"]:
                decided_how[index[entrant_id]] = "arbiter" if tie["decided_by"] == "arbiter" else "playoff"
    gender_place: dict[int, tuple[int, bool]] = {}
    if ranking.by_gender is not None:
        for gender, gender_rows in ranking.by_gender.items():
            gender_rows, gender_decided = apply_decisions(gender_rows, decisions.get(gender, []))
            decided |= gender_decided
            for row in gender_rows:
                gender_place[row.id] = (row.place, row.shared)
    stats = _stats(state)
    primary = ranking.keys[0]
    out = []
    for row in rows:
        entrant: Entrant = state.entrants[row.id]["entrant"]
        values = ranking.values[row.id]
        same_points = sum(1 for other in rows if other.values[primary] == row.values[primary]) > 1
        how: DecidedBy | None
        if row.id in decided:
            how = decided_how.get(row.id, "playoff")
        elif row.shared or (ranking.by_gender is not None and gender_place.get(row.id, (0, False))[1]):
            how = "shared"
        elif same_points:
            how = "tiebreak"
        else:
            how = None
        wins, played = stats.get(row.id, (0, 0))
        out.append(
            ContractRow(
                place=row.place,
                shared=row.shared,
                entrant_id=entrant.entrant_id,
                name=entrant.name,
                gender=entrant.gender,
                unit=entrant.unit,
                points=float(values[primary]),
                tiebreaks={name: float(values[key]) for name, key in zip(ranking.names[1:], ranking.keys[1:])},
                wins=wins,
                games_played=played,
                gender_place=gender_place[row.id][0] if row.id in gender_place else None,
                decided_by=how,
            )
        )
    return out


def _stats(state: Section) -> dict[int, tuple[int, int]]:
    """(wins, games played) per start number: individual rounds; team matches."""
    out: dict[int, list[int]] = {start_no: [0, 0] for start_no in state.entrants}
    for rnd in state.complete_rounds():
        if state.team:
            for boards in matches_of(state, rnd).values():
                listed, other = boards[0]["first_no"], boards[0]["second_no"]
                listed_points = sum(board_game_points(state, pairing)[0] for pairing in boards)
                other_points = sum(board_game_points(state, pairing)[1] for pairing in boards)
                forfeit = all(Outcome(pairing["outcome"]) in FORFEITS for pairing in boards)
                for start_no, mine, theirs in (
                    (listed, listed_points, other_points),
                    (other, other_points, listed_points),
                ):
                    out[start_no][0] += mine > theirs
                    out[start_no][1] += not forfeit
            continue
        for pairing in state.pairings.get(rnd, []):
            first_code, second_code = Outcome(pairing["outcome"]).codes()
            for start_no, code in ((pairing["first_no"], first_code), (pairing["second_no"], second_code)):
                out[start_no][0] += code in (Code.WIN, Code.FORFEIT_WIN)
                out[start_no][1] += code.over_the_board
    return {start_no: (counts[0], counts[1]) for start_no, counts in out.items()}


def board_stats(state: Section) -> list[BoardStat]:
    """AWD-7 per player per board (playoff games are never in the pairings table)."""
    tally: dict[tuple[str, str, int], list] = {}
    names: dict[str, str] = {}
    for row in state.entrants.values():
        for board, member in enumerate(members(row["entrant"]), 1):
            tally[(row["entrant_id"], member.player_id, board)] = [0, 0, 0.0, 0]  # played, board games, points, wins
            names[member.player_id] = member.name
    for rnd in state.complete_rounds():
        for pairing in state.pairings.get(rnd, []):
            first_code, second_code = Outcome(pairing["outcome"]).codes()
            for player, team, code, points in (
                (pairing["first_id"], pairing["first_team"], first_code, pairing["first_points"]),
                (pairing["second_id"], pairing["second_team"], second_code, pairing["second_points"]),
            ):
                counts = tally.setdefault((team, player, pairing["board"]), [0, 0, 0.0, 0])
                counts[1] += 1
                counts[0] += code is not Code.FORFEIT_LOSS
                counts[2] += points or 0
                counts[3] += code in (Code.WIN, Code.FORFEIT_WIN)
    return [
        BoardStat(
            entrant_id=team,
            player_id=player,
            name=names.get(player, player),
            board=board,
            games_played=counts[0],
            board_games=counts[1],
            points=float(counts[2]),
            wins=counts[3],
        )
        for (team, player, board), counts in sorted(tally.items(), key=lambda x: (x[0][2], x[0][0], x[0][1]))
    ]
