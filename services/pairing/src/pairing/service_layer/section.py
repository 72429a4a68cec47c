"""A stored section seen through the domain: the Tournament (or TeamTournament) it is, the next
round's pairing, and its standings as contract rows. Pure functions of a :class:`SectionState`.

Names of tiebreaks in ``SectionRules.tiebreaks`` are the event configuration's
(``buchholz``, ``median_buchholz``, …, ``board_1_points``); the domain's FIDE names
(``BH``, ``BH/M1``, …, ``B1``) stay inside. Standing rows list every configured criterion
under its configured name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import BoardStat, Bye, PairingSpec
from gomoku_shared.contracts.events import StandingRow as ContractRow

from ..adapters.repository import SectionState
from ..domain import (
    Board,
    ByeRules,
    Code,
    Edition,
    MatchPoints,
    Outcome,
    Player,
    PointSystem,
    RoundPairing,
    Team,
    TeamTournament,
    TiebreakConfig,
    Tournament,
    apply_playoff,
    board_assignments,
    compute_tiebreaks,
    forbidden_from_units,
    pair_round_robin,
    pair_swiss_round,
    pair_team_round_robin,
    pair_team_swiss_round,
    record_round,
    record_team_round,
    team_values,
)
from ..domain.ranking import StandingRow as DomainRow
from ..domain.ranking import rank

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
MEMBER_BASE = 1000  # team member ids inside the domain: team start number × 1000 + board

#: friendly result names accepted by the arbiter API, and the domain's own values
RESULTS = {
    "first_wins": Outcome.FIRST_WINS,
    "second_wins": Outcome.SECOND_WINS,
    "draw": Outcome.DRAW,
    "first_forfeit_win": Outcome.FIRST_FORFEIT_WIN,
    "second_forfeit_win": Outcome.SECOND_FORFEIT_WIN,
    "double_forfeit": Outcome.DOUBLE_FORFEIT,
    **{o.value: o for o in Outcome},
}
FORFEITS = (Outcome.FIRST_FORFEIT_WIN, Outcome.SECOND_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)


def result_name(o: Outcome) -> str:
    return {v: k for k, v in RESULTS.items() if "_" in k or k == "draw"}[o]


# ---------------------------------------------------------------- configuration


def points(st: SectionState) -> PointSystem:
    p = st.rules.points
    return PointSystem(win=p.win, draw=p.draw, loss=p.loss)


def order_names(st: SectionState) -> list[str]:
    """The configured criteria (names), the primary score first."""
    names = list(st.rules.tiebreaks) or DEFAULT_ORDER[(st.rules.kind, st.rules.format)]
    primary = "match_points" if st.team else "points"
    table = TEAM_NAMES if st.team else INDIVIDUAL_NAMES
    known = [n for n in names if n in table or n in table.values()]
    return [primary] + [n for n in known if n != primary and table.get(n, n) != table[primary]]


def domain_key(st: SectionState, name: str) -> str:
    table = TEAM_NAMES if st.team else INDIVIDUAL_NAMES
    return table.get(name, name)


def tiebreak_cfg(st: SectionState) -> TiebreakConfig:
    edition = Edition.FIDE_2026 if st.rules.tiebreak_edition >= 2026 else Edition.FIDE_2024
    return TiebreakConfig(edition=edition, round_robin=st.rules.format == "round_robin")


def bye_rules() -> ByeRules:
    # requested byes score a draw, arbiter-forced byes a win (FIDE defaults; seeds are silent)
    return ByeRules(requested=Code.HALF_BYE, forced=Code.FULL_BYE)


def seeding(entrants: list[Entrant]) -> list[Entrant]:
    """Start numbers: rating (highest first), then the order registration listed them."""
    return [e for _, e in sorted(enumerate(entrants), key=lambda x: (-x[1].rating, x[0]))]


def members(e: Entrant) -> list[Any]:
    """A team's members in board order (REG-9)."""
    return [m for _, m in sorted(enumerate(e.members), key=lambda x: (x[1].board or x[0] + 1, x[0]))]


# ---------------------------------------------------------------- domain views


def players(st: SectionState) -> tuple[Player, ...]:
    out = []
    for no, row in sorted(st.entrants.items()):
        e: Entrant = row["entrant"]
        out.append(
            Player(
                id=no,
                name=e.name,
                rating=e.rating,
                gender=e.gender or "",
                unit=e.unit,
                entry_round=row["entry_round"],
                withdrawn_after=row["withdrawn_after"],
            )
        )
    return tuple(out)


def _round_pairing(st: SectionState, r: int) -> RoundPairing:
    seen: dict[int, Board] = {}
    for p in st.pairings.get(r, []):
        seen.setdefault(p["match_no"], Board(p["first_no"], p["second_no"]))
    byes = {b["start_no"]: Code(b["code"]) for b in st.byes.get(r, [])}
    return RoundPairing(r, tuple(seen[k] for k in sorted(seen)), byes)


def tournament(st: SectionState, upto: int | None = None) -> Tournament:
    """The individual tournament: completed rounds replayed onto the stored players."""
    t = Tournament(players=players(st), rounds_planned=st.rules.rounds, points=points(st), name=st.row["name"])
    if st.rules.separate_units:
        t = Tournament(
            players=t.players,
            rounds_planned=t.rounds_planned,
            points=t.points,
            name=t.name,
            forbidden=forbidden_from_units(t, 1, st.rules.rounds),
        )
    for r in st.complete_rounds():
        if upto is not None and r > upto:
            break
        rp = _round_pairing(st, r)
        outcomes = {i: Outcome(p["outcome"]) for i, p in enumerate(st.pairings.get(r, []))}
        t = record_round(t, rp, outcomes)
    return t


def teams(st: SectionState) -> tuple[Team, ...]:
    out = []
    for no, row in sorted(st.entrants.items()):
        e: Entrant = row["entrant"]
        ms = members(e)
        out.append(
            Team(id=no, name=e.name, members=tuple(no * MEMBER_BASE + b for b in range(1, len(ms) + 1)), unit=e.unit)
        )
    return tuple(out)


def _board_game_points(st: SectionState, p: dict) -> tuple[float, float]:
    """(first-listed team, other team) game points of one board."""
    fp, sp = p["first_points"], p["second_points"]
    team_of_first_mover = p["first_team"]
    first_listed = st.entrants[p["first_no"]]["entrant_id"]
    return (fp, sp) if team_of_first_mover == first_listed else (sp, fp)


def team_tournament(st: SectionState, upto: int | None = None) -> TeamTournament:
    mp, gp = st.rules.match_points, st.rules.points
    tt = TeamTournament(
        teams=teams(st),
        rounds_planned=st.rules.rounds,
        match_points=MatchPoints(mp.win, mp.draw, mp.loss),
        game_points_win=gp.win,
        bye_board_points=gp.win,
        boards=st.rules.boards,
    )
    for r in st.complete_rounds():
        if upto is not None and r > upto:
            break
        rp = _round_pairing(st, r)
        by_match: dict[int, list[dict]] = {}
        for p in st.pairings.get(r, []):
            by_match.setdefault(p["match_no"], []).append(p)
        bp, forfeits = {}, []
        for i, m in enumerate(sorted(by_match)):
            boards = sorted(by_match[m], key=lambda p: p["board"])
            bp[i] = [_board_game_points(st, p) for p in boards]
            if all(Outcome(p["outcome"]) in FORFEITS for p in boards):
                forfeits.append(i)
        tt = record_team_round(tt, rp, bp, forfeits)
    return tt


# ---------------------------------------------------------------- pairing the next round


def requests_for(st: SectionState, r: int) -> tuple[list[int], list[int]]:
    req = sorted(x["start_no"] for x in st.requests if x["round"] == r and x["kind"] == "requested")
    forced = sorted(x["start_no"] for x in st.requests if x["round"] == r and x["kind"] == "forced")
    return req, forced


@dataclass(frozen=True)
class PairJob:
    """Everything the pure pairing step needs (picklable: it may run in a worker process)."""

    kind: str
    format: str
    round: int
    tournament: Any  # Tournament or TeamTournament
    requested: tuple[int, ...]
    forced: tuple[int, ...]
    seeds: tuple[int, ...]


def pair_job(st: SectionState, r: int) -> PairJob:
    req, forced = requests_for(st, r)
    dom = team_tournament(st) if st.team else tournament(st)
    return PairJob(st.rules.kind, st.rules.format, r, dom, tuple(req), tuple(forced), tuple(sorted(st.entrants)))


def run_pair_job(job: PairJob) -> RoundPairing:
    """The domain pairing of one round (PAIR-2, PAIR-3, PAIR-9). Pure: safe in another process."""
    br = bye_rules()
    if job.format == "swiss":
        fn = pair_team_swiss_round if job.kind == "team" else pair_swiss_round
        return fn(job.tournament, requested_byes=job.requested, forced_byes=job.forced, bye_rules=br)
    rp = (
        pair_team_round_robin(job.tournament, job.round)
        if job.kind == "team"
        else pair_round_robin(list(job.seeds), job.round)
    )
    return _round_robin_absences(job, rp, br)


def _round_robin_absences(job: PairJob, rp: RoundPairing, br: ByeRules) -> RoundPairing:
    """Berger rounds are fixed: a withdrawn player's or a bye-requesting player's opponent wins by
    forfeit; the absent player scores per the bye rules (or nothing once withdrawn)."""
    t = job.tournament
    ps = {p.id: p for p in (t.players if isinstance(t, Tournament) else [Player(id=x.id) for x in t.teams])}
    gone = {pid for pid, p in ps.items() if p.withdrawn_after is not None and p.withdrawn_after < job.round}
    away = {pid: br.requested for pid in job.requested} | {pid: br.forced for pid in job.forced}
    boards, byes = [], dict(rp.byes)
    for b in rp.boards:
        out = [pid for pid in (b.first, b.second) if pid in gone or pid in away]
        if not out:
            boards.append(b)
            continue
        for pid in (b.first, b.second):
            if pid in gone:
                byes[pid] = Code.ABSENT
            elif pid in away:
                byes[pid] = away[pid]
            else:
                byes[pid] = Code.FORFEIT_WIN
    for pid in gone:
        byes.setdefault(pid, Code.ABSENT)
    byes = {pid: c for pid, c in byes.items() if c is not Code.ABSENT}
    return RoundPairing(rp.round, tuple(boards), byes)


def bye_kind(st: SectionState, r: int, no: int, code: Code) -> str:
    req, forced = requests_for(st, r)
    if no in forced:
        return "forced"
    if no in req:
        return "requested"
    if code is Code.ZERO_BYE:
        return "absent"
    return "pairing"


def round_rows(st: SectionState, rp: RoundPairing) -> tuple[list[dict], list[dict]]:
    """Pairing and bye rows of a domain RoundPairing, with deterministic pairing ids."""
    r = rp.round
    games = 2 if st.rules.two_game_rounds and not st.team else 1
    rows: list[dict] = []
    if not st.team:
        for i, b in enumerate(rp.boards, 1):
            rows.append(
                dict(
                    pairing_id=f"r{r}.b{i}",
                    match_no=i,
                    board=None,
                    first_no=b.first,
                    second_no=b.second,
                    first_id=st.entrants[b.first]["entrant_id"],
                    second_id=st.entrants[b.second]["entrant_id"],
                    first_team=None,
                    second_team=None,
                    games=games,
                )
            )
    else:
        ts = {t.id: t for t in teams(st)}
        for m, b in enumerate(rp.boards, 1):
            ta, tb = st.entrants[b.first]["entrant"], st.entrants[b.second]["entrant"]
            for board, x, y in board_assignments(ts[b.first], ts[b.second]):
                rows.append(
                    dict(
                        pairing_id=f"r{r}.m{m}.b{board}",
                        match_no=m,
                        board=board,
                        first_no=b.first,
                        second_no=b.second,
                        first_id=member_id(st, x),
                        second_id=member_id(st, y),
                        first_team=(ta if x // MEMBER_BASE == b.first else tb).entrant_id,
                        second_team=(ta if y // MEMBER_BASE == b.first else tb).entrant_id,
                        games=games,
                    )
                )
    bye_rows = [
        dict(start_no=no, kind=bye_kind(st, r, no, code), code=code.value) for no, code in sorted(rp.byes.items())
    ]
    return rows, bye_rows


def member_id(st: SectionState, x: int) -> str:
    team_no, board = divmod(x, MEMBER_BASE)
    return members(st.entrants[team_no]["entrant"])[board - 1].player_id


def partner_of(st: SectionState, player: str, team: str | None) -> str | None:
    if team is None:
        e = st.entrants[st.by_entrant_id()[player]]["entrant"]
        return e.partner_id
    e = st.entrants[st.by_entrant_id()[team]]["entrant"]
    for m in e.members:
        if m.player_id == player:
            return m.partner_id or e.partner_id
    return e.partner_id


def specs(st: SectionState, r: int) -> list[PairingSpec]:
    out = []
    for p in st.pairings.get(r, []):
        out.append(
            PairingSpec(
                pairing_id=p["pairing_id"],
                first=p["first_id"],
                second=p["second_id"],
                games=p["games"],
                board=p["board"],
                match_id=f"r{r}.m{p['match_no']}" if st.team else None,
                ruleset=st.rules.ruleset,
                clock=st.rules.clock,
                first_partner=partner_of(st, p["first_id"], p["first_team"]),
                second_partner=partner_of(st, p["second_id"], p["second_team"]),
                first_team=p["first_team"],
                second_team=p["second_team"],
            )
        )
    return out


def bye_specs(st: SectionState, r: int) -> list[Bye]:
    ps = (
        PointSystem(win=st.rules.match_points.win, draw=st.rules.match_points.draw, loss=st.rules.match_points.loss)
        if st.team
        else points(st)
    )
    return [
        Bye(entrant_id=st.entrants[b["start_no"]]["entrant_id"], kind=b["kind"], points=int(ps.points(Code(b["code"]))))
        for b in st.byes.get(r, [])
    ]


# ---------------------------------------------------------------- standings


@dataclass
class Ranked:
    """Domain rows (overall and per gender) with the values of every criterion by domain key."""

    rows: list[DomainRow]
    by_gender: dict[str, list[DomainRow]] | None
    values: dict[int, dict[str, float]]
    keys: list[str]
    names: list[str]


def ranked(st: SectionState, upto: int | None = None) -> Ranked:
    names = order_names(st)
    keys = [domain_key(st, n) for n in names]
    cfg = tiebreak_cfg(st)
    if st.team:
        values = team_values(team_tournament(st, upto), cfg)
        ids = sorted(st.entrants)
        genders = {}
    else:
        t = tournament(st, upto)
        values = compute_tiebreaks(t, [k for k in keys if k != "PTS"] + ["WIN"], cfg)
        ids = [p.id for p in t.players]
        genders = {p.id: p.gender for p in t.players}
    label = {no: e["entrant"].name for no, e in st.entrants.items()}
    rows = rank(ids, values, keys, label, genders)
    by_gender = None
    if st.rules.rank_by_gender and not st.team:
        by_gender = {}
        for g in sorted(set(genders.values())):
            gids = [i for i in ids if genders[i] == g]
            by_gender[g] = rank(gids, values, keys, label, genders)
    return Ranked(rows, by_gender, values, keys, names)


def apply_decisions(rows: list[DomainRow], decisions: list[tuple[list[int], list]]) -> tuple[list[DomainRow], set[int]]:
    """Fold decided ties (playoff or arbiter) into rows where a shared group is exactly the tie."""
    from ..domain import TieGroup

    decided: set[int] = set()
    for ids, order in decisions:
        group = [r for r in rows if r.id in ids]
        if not group or sorted(r.id for r in group) != sorted(ids):
            continue
        if len({(r.place, r.place_to) for r in group}) != 1 or not group[0].shared:
            continue
        members_of_place = [r.id for r in rows if r.place == group[0].place]
        if sorted(members_of_place) != sorted(ids):
            continue
        tg = TieGroup(tuple(range(group[0].place, group[0].place_to + 1)), tuple(ids), "playoff")
        rows = apply_playoff(rows, tg, order)
        decided |= set(ids)
    return rows, decided


def decisions_of(st: SectionState) -> dict[str, list[tuple[list[int], list]]]:
    """Decided ties by gender key ('' overall) in start numbers."""
    idx = st.by_entrant_id()
    out: dict[str, list] = {}
    for tie in st.ties:
        if tie["status"] != "decided" or not tie["decision"]:
            continue
        ids = [idx[e] for e in tie["entrant_ids"]]
        order = [[idx[x] for x in d] if isinstance(d, list) else idx[d] for d in tie["decision"]]
        out.setdefault(tie["gender"] or "", []).append((ids, order))
    return out


def contract_rows(st: SectionState, rk: Ranked, *, final: bool = False) -> list[ContractRow]:
    """Standings as contract rows: every criterion by its configured name (PAIR-7, AWD-8)."""
    dec = decisions_of(st) if final else {}
    rows, decided = apply_decisions(rk.rows, dec.get("", []))
    decided_how: dict[int, str] = {}
    idx = st.by_entrant_id()
    for tie in st.ties:
        if tie["status"] == "decided":
            for e in tie["entrant_ids"]:
                decided_how[idx[e]] = "arbiter" if tie["decided_by"] == "arbiter" else "playoff"
    gender_place: dict[int, tuple[int, bool]] = {}
    if rk.by_gender is not None:
        for g, grows in rk.by_gender.items():
            grows, gdec = apply_decisions(grows, dec.get(g, []))
            decided |= gdec
            for r in grows:
                gender_place[r.id] = (r.place, r.shared)
    stats = _stats(st)
    primary = rk.keys[0]
    out = []
    for r in rows:
        e: Entrant = st.entrants[r.id]["entrant"]
        v = rk.values[r.id]
        same_points = sum(1 for x in rows if x.values[primary] == r.values[primary]) > 1
        if r.id in decided:
            how_ = decided_how.get(r.id, "playoff")
        elif r.shared or (rk.by_gender is not None and gender_place.get(r.id, (0, False))[1]):
            how_ = "shared"
        elif same_points:
            how_ = "tiebreak"
        else:
            how_ = None
        wins, played = stats.get(r.id, (0, 0))
        out.append(
            ContractRow(
                place=r.place,
                shared=r.shared,
                entrant_id=e.entrant_id,
                name=e.name,
                gender=e.gender,
                unit=e.unit,
                points=float(v[primary]),
                tiebreaks={n: float(v[k]) for n, k in zip(rk.names[1:], rk.keys[1:])},
                wins=wins,
                games_played=played,
                gender_place=gender_place[r.id][0] if r.id in gender_place else None,
                decided_by=how_,
            )
        )
    return out


def _stats(st: SectionState) -> dict[int, tuple[int, int]]:
    """(wins, games played) per start number: individual rounds; team matches."""
    out: dict[int, list[int]] = {no: [0, 0] for no in st.entrants}
    for r in st.complete_rounds():
        if st.team:
            by_match: dict[int, list[dict]] = {}
            for p in st.pairings.get(r, []):
                by_match.setdefault(p["match_no"], []).append(p)
            for boards in by_match.values():
                a, b = boards[0]["first_no"], boards[0]["second_no"]
                ga = sum(_board_game_points(st, p)[0] for p in boards)
                gb = sum(_board_game_points(st, p)[1] for p in boards)
                forfeit = all(Outcome(p["outcome"]) in FORFEITS for p in boards)
                for no, mine, theirs in ((a, ga, gb), (b, gb, ga)):
                    out[no][0] += mine > theirs
                    out[no][1] += not forfeit
            continue
        for p in st.pairings.get(r, []):
            o = Outcome(p["outcome"])
            cf, cs = o.codes()
            for no, code in ((p["first_no"], cf), (p["second_no"], cs)):
                out[no][0] += code in (Code.WIN, Code.FORFEIT_WIN)
                out[no][1] += code.over_the_board
    return {k: (v[0], v[1]) for k, v in out.items()}


def board_stats(st: SectionState) -> list[BoardStat]:
    """AWD-7 per player per board (playoff games are never in the pairings table)."""
    acc: dict[tuple[str, str, int], list] = {}
    names: dict[str, str] = {}
    for _no, row in st.entrants.items():
        for b, m in enumerate(members(row["entrant"]), 1):
            acc[(row["entrant_id"], m.player_id, b)] = [0, 0, 0.0, 0]  # played, board games, points, wins
            names[m.player_id] = m.name
    for r in st.complete_rounds():
        for p in st.pairings.get(r, []):
            o = Outcome(p["outcome"])
            cf, cs = o.codes()
            for pid, team, code, pts in (
                (p["first_id"], p["first_team"], cf, p["first_points"]),
                (p["second_id"], p["second_team"], cs, p["second_points"]),
            ):
                a = acc.setdefault((team, pid, p["board"]), [0, 0, 0.0, 0])
                a[1] += 1
                a[0] += code is not Code.FORFEIT_LOSS
                a[2] += pts or 0
                a[3] += code in (Code.WIN, Code.FORFEIT_WIN)
    return [
        BoardStat(
            entrant_id=team,
            player_id=pid,
            name=names.get(pid, pid),
            board=b,
            games_played=a[0],
            board_games=a[1],
            points=float(a[2]),
            wins=a[3],
        )
        for (team, pid, b), a in sorted(acc.items(), key=lambda x: (x[0][2], x[0][0], x[0][1]))
    ]
