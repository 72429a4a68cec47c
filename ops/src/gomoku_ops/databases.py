"""The services' outboxes, read and repaired through their own databases."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import MetaData

from gomoku_shared.db import make_engine, make_sessionmaker
from gomoku_shared.messaging.outbox import (
    latest_events,
    mark_all_pending,
    mark_for_resend,
    outbox_backlog,
    outbox_table,
)
from gomoku_shared.settings import ServiceSettings

#: the event a section's publication travels in, per service that publishes it
PUBLICATIONS = {"standings": ("pairing", "section.completed"), "awards": ("awards", "awards.published")}


def database_urls(pairs: Iterable[str], services: Iterable[str]) -> dict[str, str]:
    """``service=url`` options, else ``<SERVICE>_DATABASE_URL`` from the environment."""
    urls: dict[str, str] = {}
    for pair in pairs:
        service, sep, url = pair.partition("=")
        if not sep or not service or not url:
            raise ValueError(f"--db takes service=url, not {pair!r}")
        urls[service] = url
    for service in services:
        env = os.environ.get(f"{service.upper()}_DATABASE_URL")
        if service not in urls and env:
            urls[service] = env
    # the drivers the services use (postgresql:// becomes postgresql+asyncpg://)
    return {s: ServiceSettings(DATABASE_URL=u).database_url for s, u in urls.items()}


@dataclass(frozen=True)
class Backlog:
    service: str
    pending: int
    oldest_s: float


class Outbox:
    """One service's outbox table (every service's has the same shape)."""

    def __init__(self, service: str, url: str) -> None:
        self.service = service
        self.engine = make_engine(url)
        self.sessions = make_sessionmaker(self.engine)
        self.table = outbox_table(MetaData())

    async def close(self) -> None:
        await self.engine.dispose()

    async def backlog(self) -> Backlog:
        async with self.sessions() as session:
            pending, oldest = await outbox_backlog(session, self.table, datetime.now(UTC))
        return Backlog(self.service, pending, oldest)

    async def resend(self, event_ids: list[str]) -> list[str]:
        async with self.sessions() as session, session.begin():
            return await mark_for_resend(session, self.table, event_ids)

    async def resend_all(self, event_types: list[str]) -> int:
        async with self.sessions() as session, session.begin():
            return await mark_all_pending(session, self.table, event_types)

    async def latest_publication(self, event_type: str, event_code: str, section_id: str) -> str | None:
        """Id of the newest ``event_type`` event about one section, if any."""
        async with self.sessions() as session:
            for event_id, _key, body, _at in await latest_events(session, self.table, event_type, limit=10_000):
                payload = json.loads(body).get("payload", {})
                if payload.get("event_code") == event_code and payload.get("section_id") == section_id:
                    return event_id
        return None
