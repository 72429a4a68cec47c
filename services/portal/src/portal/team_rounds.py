"""A team round as people read it (PAIR-9): each match between two teams, seen from the
first-listed team, with its boards: each team's player by name and colour and the board's points.
Pure functions of pairing's round read (``matches``, ``pairings``) and gameplay's games."""

from __future__ import annotations

from typing import Any


def _colour(games: list[dict[str, Any]], player: str | None) -> str | None:
    """The colour the player had in the board's (first) game: after a swap it is not the first
    mover's black."""
    for game in sorted(games, key=lambda g: g.get("game_no") or 0):
        if player and player == game.get("black"):
            return "black"
        if player and player == game.get("white"):
            return "white"
    return None


def board_row(pairing: dict[str, Any], team: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    """One board seen from ``team``: its player (``mine``) and the other team's (``theirs``)."""
    ours_first = pairing.get("first_team") == team
    mine, theirs = (pairing["first"], pairing["second"]) if ours_first else (pairing["second"], pairing["first"])
    decided = pairing.get("result") is not None
    my_points, their_points = (
        (pairing.get("first_points"), pairing.get("second_points"))
        if ours_first
        else (pairing.get("second_points"), pairing.get("first_points"))
    )
    return {
        "pairing": pairing,
        "board": pairing.get("board"),
        "mine": mine,
        "theirs": theirs,
        "my_colour": _colour(games, mine),
        "their_colour": _colour(games, theirs),
        "my_points": my_points if decided else None,
        "their_points": their_points if decided else None,
        "games": games,
    }


def matches(rnd: dict[str, Any] | None, games: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]] | None:
    """The round's matches with their boards, or None for a round of an individual section."""
    if not rnd or rnd.get("matches") is None:
        return None
    pairings = {p["pairing_id"]: p for p in rnd.get("pairings", [])}
    out = []
    for match in rnd["matches"]:
        team = match["first_team"]
        boards = [board_row(pairings[pid], team, games.get(pid, [])) for pid in match["pairing_ids"] if pid in pairings]
        out.append({**match, "anchor": "match-" + match["match_id"].replace(".", "-"), "boards": boards})
    return out


def team_matches(rounds: list[dict[str, Any] | None], team: str) -> list[dict[str, Any]]:
    """A team's match of every paired round, seen from the team: the opponent, the game points and
    match points of both, the result for the team, and its boards."""
    out = []
    for rnd in rounds:
        if not rnd:
            continue
        pairings = {p["pairing_id"]: p for p in rnd.get("pairings", [])}
        for match in rnd.get("matches") or []:
            if team not in (match["first_team"], match["second_team"]):
                continue
            first = match["first_team"] == team
            mine, theirs = ("first", "second") if first else ("second", "first")
            result = match.get("result")
            outcome = None
            if result in ("first_wins", "second_wins"):
                outcome = "win" if result == f"{mine}_wins" else "loss"
            elif result in ("draw", "double_forfeit"):
                outcome = "draw" if result == "draw" else "loss"
            boards = [
                board_row(pairings[pid], team, _games_of(pairings[pid]))
                for pid in match["pairing_ids"]
                if pid in pairings
            ]
            out.append(
                {
                    "round": rnd["round"],
                    "anchor": "match-" + match["match_id"].replace(".", "-"),
                    "opponent": match[f"{theirs}_team"],
                    "my_game_points": match[f"{mine}_game_points"],
                    "their_game_points": match[f"{theirs}_game_points"],
                    "my_match_points": match[f"{mine}_match_points"],
                    "their_match_points": match[f"{theirs}_match_points"],
                    "outcome": outcome,
                    "boards_decided": match.get("boards_decided"),
                    "boards": boards,
                }
            )
    return out


def _games_of(pairing: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairing's games as its round read lists them (ids only: no colours)."""
    return [{"game_id": g["game_id"], "game_no": g.get("game_no")} for g in pairing.get("game_results", [])]


def players_of(team: dict[str, Any], played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The team's players in board order with what they did in each round's match."""
    rows = []
    for member in team.get("members") or []:
        pid = member["player_id"]
        by_round: dict[int, dict[str, Any]] = {}
        for match in played:
            for board in match["boards"]:
                if board["mine"] == pid:
                    by_round[match["round"]] = board
        points = [b["my_points"] for b in by_round.values() if b["my_points"] is not None]
        rows.append({**member, "rounds": by_round, "points": sum(points) if points else None})
    return rows


def member_rounds(rounds: list[dict[str, Any] | None], player: str) -> list[dict[str, Any]]:
    """A team's player's boards round by round, in the cross table's shape (round, colour as
    first or second mover, opponent, result 1/0/=, points) for the player's page."""
    out = []
    for rnd in rounds:
        if not rnd:
            continue
        for p in rnd.get("pairings", []):
            if player not in (p.get("first"), p.get("second")):
                continue
            first = p["first"] == player
            decided = p.get("result") is not None
            mine, theirs = (p.get("first_points"), p.get("second_points"))
            if not first:
                mine, theirs = theirs, mine
            result = None
            if decided and mine is not None and theirs is not None:
                result = "1" if mine > theirs else "0" if mine < theirs else "="
            out.append(
                {
                    "round": rnd["round"],
                    "colour": "first" if first else "second",
                    "opponent": p["second"] if first else p["first"],
                    "result": result,
                    "points": mine if decided else None,
                }
            )
    return out
