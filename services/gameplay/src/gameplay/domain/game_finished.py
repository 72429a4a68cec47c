"""``game.finished`` of a game that just ended, from its stored result: one builder for a game
ended by play (a five, a resignation, a flag, a no-show...) and one closed by the arbiter's
decision (PAIR-11)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts.events import GameFinished, PairingOutcome

from .played_game import PlayedGame


def game_finished(game: PlayedGame, record: dict[str, Any]) -> GameFinished:
    """The event of ``game`` once its ending is stored (``game.stored``): the result columns it
    now holds, colours and moves from its engine state, ``record`` its full record (PLAY-8)."""
    columns = game.columns
    outcome = columns.get("outcome")  # set on the pairing's last game only
    return GameFinished(
        event_code=columns["event_code"],
        stage=columns["stage"],
        section_id=columns["section_id"],
        round=columns["round"],
        pairing_id=columns["pairing_id"],
        game_id=game.game_id,
        game_no=columns["game_no"],
        playoff_id=columns["playoff_id"],
        black=game.live.black,
        white=game.live.white,
        winner=columns["winner"],
        result=columns["result"],
        reason=columns["reason"],
        foul=columns["foul"],
        moves=game.live.moves,
        record=record,
        outcome=PairingOutcome(**outcome) if outcome else None,
        double_forfeit=columns["result"] == "double_forfeit",
        first=columns["player_a"],
        second=columns["player_b"],
    )
