"""The reads the API answers from (no transaction kept open, nothing locked): the section
aggregate, its version (a conditional read's first step), the event's sections, games, audit
and appeals. The routes reach the stored state only through here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from gomoku_shared.runtime import ServiceRuntime

from ..adapters.repository import Repositories
from ..domain.aggregate import Section

Answer = TypeVar("Answer")


class Reads:
    """What a read may ask on one session."""

    def __init__(self, repositories: Repositories) -> None:
        self._repos = repositories

    async def section(self, event_code: str, section_id: str) -> Section | None:
        return await self._repos.sections.load(event_code, section_id)

    async def version(self, event_code: str, section_id: str) -> int | None:
        return await self._repos.sections.version(event_code, section_id)

    async def sections_of_event(self, event_code: str) -> list[dict]:
        return await self._repos.sections.of_event(event_code)

    async def games(self, event_code: str, section_id: str) -> list[dict]:
        return await self._repos.games.of_section(event_code, section_id)

    async def audit(self, event_code: str, section_id: str) -> list[dict]:
        return await self._repos.audit.of_section(event_code, section_id)

    async def appeals(self, event_code: str, section_id: str | None = None) -> list[dict[str, Any]]:
        return await self._repos.appeals.of_event(event_code, section_id)

    async def appeal(self, event_code: str, section_id: str, appeal_id: str) -> dict[str, Any] | None:
        return await self._repos.appeals.get(event_code, section_id, appeal_id)


async def read(runtime: ServiceRuntime, ask: Callable[[Reads], Awaitable[Answer]]) -> Answer:
    """Run ``ask`` on the reads of one session of ``runtime``'s database."""
    async with runtime.sessionmaker() as session:
        return await ask(Reads(Repositories(session)))
