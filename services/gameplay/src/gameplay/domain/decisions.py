"""The arbiter's result of a round pairing (``result.decided`` from pairing), applied to its games.

A decision closes the pairing's games that are still open and corrects finished ones that
disagree with it; the pairing's last game carries the decided round points. From then on the
games are finished, so nothing a player or the clock does can change them. A decision is a
mapping of the ``arbiter_decisions`` columns (outcome, reason, note, sequence, decided_ms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import RoundPointsTable
from .game_ids import round_key
from .played_game import GameWrite, PlayedGame, clock_values, readings

#: decided outcome -> (winning pairing player "a"/"b" or None, round points of a, of b)
_TABLE = RoundPointsTable()
OUTCOMES: dict[str, tuple[str | None, int, int]] = {
    "first_wins": ("a", _TABLE.win, _TABLE.loss),
    "first_forfeit_win": ("a", _TABLE.win, _TABLE.loss),
    "second_wins": ("b", _TABLE.loss, _TABLE.win),
    "second_forfeit_win": ("b", _TABLE.loss, _TABLE.win),
    "draw": (None, _TABLE.draw, _TABLE.draw),
    "double_forfeit": (None, _TABLE.loss, _TABLE.loss),
}

Decision = Mapping[str, Any]


def games_to_close(games: Sequence[Mapping[str, Any]], decision: Decision) -> list[tuple[Mapping[str, Any], bool]]:
    """The pairing's games (their columns) the decision changes, each with whether it is the
    pairing's last game; none when the games already give the arbiter's result (1W+1L of a
    two-game round is a draw)."""
    if not games or pairing_shows(games) == decision["outcome"]:
        return []
    last = max(game["game_no"] for game in games)
    changed = []
    for game in games:
        is_last = game["game_no"] == last
        if not agrees(game, decision, is_last):
            changed.append((game, is_last))
    return changed


def pairing_shows(games: Sequence[Mapping[str, Any]]) -> str | None:
    """The pairing's outcome as its finished games give it (None while it goes on)."""
    last = max(games, key=lambda game: game["game_no"])
    if any(game["status"] != "finished" for game in games) or not last["outcome"]:
        return None
    if last["result"] == "double_forfeit":
        return "double_forfeit"
    a_points, b_points = last["outcome"]["first_points"], last["outcome"]["second_points"]
    kind = "_forfeit_win" if last["reason"] == "no_show" else "_wins"
    return "draw" if a_points == b_points else ("first" if a_points > b_points else "second") + kind


def wanted(game: Mapping[str, Any], decision: Decision) -> tuple[str | None, str]:
    """(winner player id, result) the decision gives the game; colours as the game has them."""
    side, _a_points, _b_points = OUTCOMES[decision["outcome"]]
    winner = None if side is None else game["player_a"] if side == "a" else game["player_b"]
    if decision["outcome"] == "double_forfeit":
        return None, "double_forfeit"
    if winner is None:
        return None, "draw"
    return winner, "black" if winner == game["black"] else "white"


def points(decision: Decision) -> dict[str, int]:
    _side, a_points, b_points = OUTCOMES[decision["outcome"]]
    return {"first_points": a_points, "second_points": b_points}


def agrees(game: Mapping[str, Any], decision: Decision, last: bool) -> bool:
    if game["status"] != "finished":
        return False
    winner, result = wanted(game, decision)
    forfeit = decision["reason"] == "no_show"
    if game["winner"] != winner or game["result"] != result or (game["reason"] == "no_show") != forfeit:
        return False
    return not last or game["outcome"] == points(decision)


def close(game: PlayedGame, decision: Decision, last: bool, now: int) -> GameWrite:
    """The write that closes (an open game) or corrects (a finished one) a game by the decision.
    An open game ends like any other (streams close on "finished"); its engine state ends too,
    so that a replayed log refuses every later action."""
    columns = game.columns
    was_finished = columns["status"] == "finished"
    winner, result = wanted(columns, decision)
    values: dict[str, Any] = dict(
        status="finished",
        result=result,
        reason=decision["reason"],
        winner=winner,
        foul=None,
        to_act=None,
        draw_offer_by=None,
        phase="over",
        no_show_due_ms=None,
    )
    values["outcome"] = points(decision) if last else columns["outcome"]
    clock = game.clock()
    action_rows = []
    if not was_finished:
        clock = clock.stop(now)
        values.update(clock_values(clock), flag_due_ms=None, finished_ms=now)
        data = {"result": result, "note": decision["note"], "decision": decision["outcome"]}
        game.live.apply("arbiter", None, data)
        values["n_actions"] = columns["n_actions"] + 1
        action_rows.append(
            dict(
                game_id=game.game_id,
                idx=values["n_actions"],
                kind="arbiter",
                role=None,
                player_id=None,
                data=data,
                at_ms=now,
                think_ms=None,
                clock=readings(clock, game.live, now),
            )
        )
    values["seq"] = columns["seq"] + 1
    values["version"] = columns["version"] + 1
    event = {
        "result": result,
        "reason": decision["reason"],
        "winner": winner,
        "foul": None,
        "outcome": values["outcome"],
        "double_forfeit": result == "double_forfeit",
        "decision": decision["outcome"],
        "decided_by": "arbiter",
        "clocks": readings(clock, game.live, now),
    }
    kind = "corrected" if was_finished else "finished"
    key = round_key(columns["event_code"], columns["section_id"], columns["round"])
    return GameWrite(
        game.game_id, game.version, values, action_rows, [dict(seq=values["seq"], kind=kind, data=event)], key, now
    )
