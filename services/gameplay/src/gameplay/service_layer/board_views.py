"""What the API shows of over-the-board games (PLAY-9, PLAY-10, EVT-7): a game's result slips and
record entries, an event's flagged records, a game's start and the arbiter's exception to it.
The writes are ``over_the_board``'s, run through the handlers."""

from __future__ import annotations

from typing import Any

from ..domain import over_the_board as otb
from .actions import found
from .over_the_board import record_view
from .unit_of_work import Units


class BoardViews:
    def __init__(self, units: Units) -> None:
        self.units = units

    async def slips(self, game_id: str) -> dict[str, Any]:
        async with self.units.reading() as uow:
            game = await found(uow, game_id)
            stored = await uow.boards.slips(game_id)
        return {"game_id": game.game_id, "mode": game.summary()["mode"], "slips": [otb.slip_view(s) for s in stored]}

    async def records(self, game_id: str) -> dict[str, Any]:
        async with self.units.reading() as uow:
            game = await found(uow, game_id)
            rows = await uow.boards.records(game_id)
        return {"game_id": game.game_id, "entries": [record_view(row) for row in rows]}

    async def flagged(self, event_code: str) -> list[dict[str, Any]]:
        async with self.units.reading() as uow:
            rows = await uow.boards.flagged(event_code)
        return [
            record_view(row) | {key: row[key] for key in ("section_id", "round", "pairing_id", "game_no")}
            for row in rows
        ]

    async def early_start(self, game_id: str) -> dict[str, Any]:
        """The game's scheduled start and the arbiter's exception to it, if any (the audit)."""
        async with self.units.reading() as uow:
            game = await found(uow, game_id)
            stored = await uow.boards.early_start(game_id)
        summary = game.summary()
        return {
            "game_id": game.game_id,
            "starts_at": summary.get("starts_at"),
            "exception": stored.view() if stored else None,
        }
