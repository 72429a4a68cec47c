"""Reads of the stream events across games (``game_events`` joined with each event's game):
the per-event stream reads them in id order, whatever the round or section."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .orm import game_events, games
from .repositories import Transaction


def _stream_columns() -> list[Any]:
    event, game = game_events.c, games.c
    return [
        event.id,
        event.game_id,
        event.seq,
        event.kind,
        event.data,
        event.at_ms,
        game.event_code,
        game.section_id,
        game.round,
        game.partner_a,
        game.partner_b,
    ]


class EventLog:
    """The stream events of all games, by their stream-wide id."""

    __slots__ = ("transaction",)

    def __init__(self, transaction: Transaction) -> None:
        self.transaction = transaction

    async def latest_id(self) -> int:
        session = await self.transaction.session()
        return (await session.execute(select(func.coalesce(func.max(game_events.c.id), 0)))).scalar_one()

    async def after(self, since_id: int, limit: int) -> list[dict[str, Any]]:
        """Events of every game after ``since_id``, in id order, with their game's event and partners."""
        query = (
            select(*_stream_columns())
            .join(games, games.c.game_id == game_events.c.game_id)
            .where(game_events.c.id > since_id)
            .order_by(game_events.c.id)
            .limit(limit)
        )
        session = await self.transaction.session()
        return [dict(row) for row in (await session.execute(query)).mappings().all()]

    async def of_event(self, event_code: str, since_id: int, until_id: int, limit: int) -> list[dict[str, Any]]:
        """The events of one event's games with ids in (since_id, until_id], in id order."""
        query = (
            select(*_stream_columns())
            .join(games, games.c.game_id == game_events.c.game_id)
            .where(games.c.event_code == event_code, game_events.c.id > since_id, game_events.c.id <= until_id)
            .order_by(game_events.c.id)
            .limit(limit)
        )
        session = await self.transaction.session()
        return [dict(row) for row in (await session.execute(query)).mappings().all()]
