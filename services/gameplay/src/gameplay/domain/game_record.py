"""The record of a played game (PLAY-8): its moves with timestamps, think times and clocks, the
opening, the result, with the players named by id."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..engine import record_game
from .live import LiveGame

#: plies one logged action adds to the record
PLIES = {"opening": 3, "move": 1, "choose": 1, "pass": 1}


def game_record(columns: Mapping[str, Any], live: LiveGame, metas: list[dict[str, Any]], zone: Any) -> dict[str, Any]:
    """``metas``: the logged actions (kind, player_id, at_ms, think_ms, clock) in order; ``zone``:
    the time zone the timestamps are written in."""
    plies: list[dict] = []
    for meta in metas:
        count = PLIES.get(meta["kind"], 0)
        moved_at = datetime.fromtimestamp(meta["at_ms"] / 1000, tz=zone).isoformat()
        for index in range(count):
            plies.append(
                {
                    "player": meta["player_id"],
                    "at": moved_at,
                    "think_ms": meta["think_ms"] if index == count - 1 else 0,
                    "clock": meta["clock"],
                }
            )
    record = record_game(
        live.proto or live.game,
        players={"black": live.black, "white": live.white},
        move_meta=plies,
        clock={"initial": columns["clock_spec"]["base_s"], "increment": columns["increment_ms"] / 1000},
        meta={
            "game_id": columns["game_id"],
            "event_code": columns["event_code"],
            "section_id": columns["section_id"],
            "round": columns["round"],
            "pairing_id": columns["pairing_id"],
            "game_no": columns["game_no"],
            "double_forfeit": live.double_forfeit,
        },
    )
    out = record.to_dict()
    sides = ("first", "second")
    if live.proto is not None and out.get("result") and out["result"].get("winner_player") in sides:
        out["result"]["winner_player"] = live.player(out["result"]["winner_player"])
    if out.get("opening") and out["opening"].get("black_player") in sides:
        out["opening"]["black_player"] = live.player(out["opening"]["black_player"])
        if out["opening"].get("swap_chooser") in sides:
            out["opening"]["swap_chooser"] = live.player(out["opening"]["swap_chooser"])
    return out
