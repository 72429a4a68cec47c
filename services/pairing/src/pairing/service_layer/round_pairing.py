"""Pairing a section's next round: the job the pure pairing step runs (maybe in a worker
process), and the stored rows and event specs of the round it returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gomoku_shared.contracts.events import Bye, PairingSpec

from ..domain import (
    ByeRules,
    Code,
    Player,
    PointSystem,
    RoundPairing,
    Tournament,
    board_assignments,
    pair_round_robin,
    pair_swiss_round,
    pair_team_round_robin,
    pair_team_swiss_round,
)
from ..domain.aggregate import Section
from .section import MEMBER_BASE, bye_rules, members, points, team_tournament, teams, tournament


def requests_for(state: Section, rnd: int) -> tuple[list[int], list[int]]:
    """(requested, forced) byes of round ``rnd``: start numbers."""
    of_round = [request for request in state.requests if request["round"] == rnd]
    requested = sorted(request["start_no"] for request in of_round if request["kind"] == "requested")
    forced = sorted(request["start_no"] for request in of_round if request["kind"] == "forced")
    return requested, forced


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


def pair_job(state: Section, rnd: int) -> PairJob:
    requested, forced = requests_for(state, rnd)
    replayed = team_tournament(state) if state.team else tournament(state)
    rules = state.rules
    return PairJob(
        rules.kind, rules.format, rnd, replayed, tuple(requested), tuple(forced), tuple(sorted(state.entrants))
    )


def run_pair_job(job: PairJob) -> RoundPairing:
    """The domain pairing of one round (PAIR-2, PAIR-3, PAIR-9). Pure: safe in another process.
    Swiss rounds are paired by the Dutch engine's adapter with the compiled speed-up (ADR 0013)."""
    rules = bye_rules()
    if job.format == "swiss":
        # imported on the first Swiss round, not at start-up (it imports gacrux)
        from ..adapters.dutch.fast import FastGacruxDutch

        pair = pair_team_swiss_round if job.kind == "team" else pair_swiss_round
        return pair(
            job.tournament,
            requested_byes=job.requested,
            forced_byes=job.forced,
            bye_rules=rules,
            engine=FastGacruxDutch(),
        )
    fixed = (
        pair_team_round_robin(job.tournament, job.round)
        if job.kind == "team"
        else pair_round_robin(list(job.seeds), job.round)
    )
    return _round_robin_absences(job, fixed, rules)


def _round_robin_absences(job: PairJob, fixed: RoundPairing, rules: ByeRules) -> RoundPairing:
    """Berger rounds are fixed: a withdrawn player's or a bye-requesting player's opponent wins by
    forfeit; the absent player scores per the bye rules (or nothing once withdrawn)."""
    field = job.tournament
    competitors = field.players if isinstance(field, Tournament) else [Player(id=team.id) for team in field.teams]
    by_id = {player.id: player for player in competitors}
    gone = {
        pid
        for pid, player in by_id.items()
        if player.withdrawn_after is not None and player.withdrawn_after < job.round
    }
    away = {pid: rules.requested for pid in job.requested} | {pid: rules.forced for pid in job.forced}
    boards, byes = [], dict(fixed.byes)
    for board in fixed.boards:
        if not [pid for pid in (board.first, board.second) if pid in gone or pid in away]:
            boards.append(board)
            continue
        for pid in (board.first, board.second):
            if pid in gone:
                byes[pid] = Code.ABSENT
            elif pid in away:
                byes[pid] = away[pid]
            else:
                byes[pid] = Code.FORFEIT_WIN
    for pid in gone:
        byes.setdefault(pid, Code.ABSENT)
    byes = {pid: code for pid, code in byes.items() if code is not Code.ABSENT}
    return RoundPairing(fixed.round, tuple(boards), byes)


def bye_kind(state: Section, rnd: int, start_no: int, code: Code) -> str:
    requested, forced = requests_for(state, rnd)
    if start_no in forced:
        return "forced"
    if start_no in requested:
        return "requested"
    if code is Code.ZERO_BYE:
        return "absent"
    return "pairing"


def round_rows(state: Section, pairing: RoundPairing) -> tuple[list[dict], list[dict]]:
    """Pairing and bye rows of a domain RoundPairing, with deterministic pairing ids."""
    rnd = pairing.round
    games = 2 if state.rules.two_game_rounds and not state.team else 1
    rows = _team_rows(state, pairing, games) if state.team else _individual_rows(state, pairing, games)
    bye_rows = [
        dict(start_no=start_no, kind=bye_kind(state, rnd, start_no, code), code=code.value)
        for start_no, code in sorted(pairing.byes.items())
    ]
    return rows, bye_rows


def _individual_rows(state: Section, pairing: RoundPairing, games: int) -> list[dict]:
    return [
        dict(
            pairing_id=f"r{pairing.round}.b{board_no}",
            match_no=board_no,
            board=None,
            first_no=board.first,
            second_no=board.second,
            first_id=state.entrants[board.first]["entrant_id"],
            second_id=state.entrants[board.second]["entrant_id"],
            first_team=None,
            second_team=None,
            games=games,
        )
        for board_no, board in enumerate(pairing.boards, 1)
    ]


def _team_rows(state: Section, pairing: RoundPairing, games: int) -> list[dict]:
    """One row per board of each match (PAIR-9): members in the order the boards play."""
    rows: list[dict] = []
    by_id = {team.id: team for team in teams(state)}
    for match_no, match in enumerate(pairing.boards, 1):
        listed_team, other_team = state.entrants[match.first]["entrant"], state.entrants[match.second]["entrant"]
        team_of = {match.first: listed_team.entrant_id, match.second: other_team.entrant_id}
        for board, first_member, second_member in board_assignments(by_id[match.first], by_id[match.second]):
            rows.append(
                dict(
                    pairing_id=f"r{pairing.round}.m{match_no}.b{board}",
                    match_no=match_no,
                    board=board,
                    first_no=match.first,
                    second_no=match.second,
                    first_id=member_id(state, first_member),
                    second_id=member_id(state, second_member),
                    first_team=team_of.get(first_member // MEMBER_BASE, other_team.entrant_id),
                    second_team=team_of.get(second_member // MEMBER_BASE, other_team.entrant_id),
                    games=games,
                )
            )
    return rows


def member_id(state: Section, member: int) -> str:
    team_no, board = divmod(member, MEMBER_BASE)
    return members(state.entrants[team_no]["entrant"])[board - 1].player_id


def partner_of(state: Section, player: str, team: str | None) -> str | None:
    if team is None:
        return state.entrants[state.by_entrant_id()[player]]["entrant"].partner_id
    entrant = state.entrants[state.by_entrant_id()[team]]["entrant"]
    for member in entrant.members:
        if member.player_id == player:
            return member.partner_id or entrant.partner_id
    return entrant.partner_id


def specs(state: Section, rnd: int) -> list[PairingSpec]:
    rules = state.rules
    return [
        PairingSpec(
            pairing_id=pairing["pairing_id"],
            first=pairing["first_id"],
            second=pairing["second_id"],
            games=pairing["games"],
            board=pairing["board"],
            match_id=f"r{rnd}.m{pairing['match_no']}" if state.team else None,
            ruleset=rules.ruleset,
            clock=rules.clock,
            first_partner=partner_of(state, pairing["first_id"], pairing["first_team"]),
            second_partner=partner_of(state, pairing["second_id"], pairing["second_team"]),
            first_team=pairing["first_team"],
            second_team=pairing["second_team"],
        )
        for pairing in state.pairings.get(rnd, [])
    ]


def bye_specs(state: Section, rnd: int) -> list[Bye]:
    match_points = state.rules.match_points
    system = (
        PointSystem(win=match_points.win, draw=match_points.draw, loss=match_points.loss)
        if state.team
        else points(state)
    )
    return [
        Bye(
            entrant_id=state.entrants[bye["start_no"]]["entrant_id"],
            kind=bye["kind"],
            points=int(system.points(Code(bye["code"]))),
        )
        for bye in state.byes.get(rnd, [])
    ]
