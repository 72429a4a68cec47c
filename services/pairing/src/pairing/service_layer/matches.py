"""A team round read as matches (PAIR-9): the two teams, their boards, the game points each team
made on them and the match points those give; and a team's members as the public reads them."""

from __future__ import annotations

from gomoku_shared.contracts.common import Entrant

from ..domain import Code, Outcome, PointSystem
from ..domain.aggregate import Section
from ..domain.scoring import code_for_match
from .section import FORFEITS, board_game_points, matches_of, members


def team_members(entrant: Entrant) -> list[dict]:
    """Who plays which board (REG-9): id, name and board only, as for a player of an individual
    section (no birth year, no document), and the registry person's opaque id where known."""
    return [
        {
            "player_id": member.player_id,
            "name": member.name,
            "board": member.board or board,
            # the person in the organisation's registry, where known (issue 32: the pages name their title)
            **({"registry_id": member.registry_id} if member.registry_id else {}),
        }
        for board, member in enumerate(members(entrant), 1)
    ]


def _match_points(state: Section) -> PointSystem:
    configured = state.rules.match_points
    return PointSystem(win=configured.win, draw=configured.draw, loss=configured.loss)


def match_views(state: Section, rnd: int) -> list[dict]:
    """Each match of a team round: the first-listed team (the one moving first on board 1), the
    other, their pairings in board order, the game points of each team summed over the boards with
    a result, and, once every board has one, the match's result and match points (more game
    points win the match, equal draw it; a match forfeited on every board counts as a forfeit)."""
    system = _match_points(state)
    out = []
    for match_no, rows in sorted(matches_of(state, rnd).items()):
        boards = sorted(rows, key=lambda pairing: pairing["board"])
        first_team = state.entrants[boards[0]["first_no"]]["entrant_id"]
        second_team = state.entrants[boards[0]["second_no"]]["entrant_id"]
        done = [pairing for pairing in boards if pairing["outcome"]]
        points = [board_game_points(state, pairing) for pairing in done]
        first_points = sum(first for first, _ in points)
        second_points = sum(second for _, second in points)
        complete = bool(boards) and len(done) == len(boards)
        result = first_mp = second_mp = None
        if complete:
            first_code = code_for_match(first_points, second_points)
            second_code = code_for_match(second_points, first_points)
            if all(Outcome(pairing["outcome"]) in FORFEITS for pairing in boards):
                first_code = Code.FORFEIT_WIN if first_code is Code.WIN else Code.FORFEIT_LOSS
                second_code = Code.FORFEIT_WIN if second_code is Code.WIN else Code.FORFEIT_LOSS
            first_mp, second_mp = system.points(first_code), system.points(second_code)
            if first_code is second_code is Code.FORFEIT_LOSS:
                result = "double_forfeit"
            else:
                result = "first_wins" if first_mp > second_mp else "second_wins" if second_mp > first_mp else "draw"
        out.append(
            {
                "match_id": f"r{rnd}.m{match_no}",
                "first_team": first_team,
                "second_team": second_team,
                "pairing_ids": [pairing["pairing_id"] for pairing in boards],
                "boards_decided": len(done),
                "first_game_points": first_points,
                "second_game_points": second_points,
                "result": result,
                "first_match_points": first_mp,
                "second_match_points": second_mp,
            }
        )
    return out
