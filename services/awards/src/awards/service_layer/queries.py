"""The reads the awards API answers from: an event's stored results, publications, qualifier
selections, configuration and honours, and the plan its configuration makes. The routes reach
the stored state only through here (issue 31), never an adapter."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from gomoku_shared.event_config import EventConfig
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.config_mapping import AwardsPlan, awards_plan
from ..adapters.honours_repository import HonoursRepository
from ..adapters.repositories import Repositories
from ..adapters.repository import AwardsRepository, Publication

__all__ = ["AwardsReads", "Publication", "plan_of", "reads_of", "reads_in"]


class AwardsReads:
    """What a read may ask on one session."""

    def __init__(self, awards: AwardsRepository, honours: HonoursRepository) -> None:
        self._awards = awards
        self._honours = honours

    async def event(self, event_code: str) -> Any:
        """The event's row (its configuration), or None."""
        return await self._awards.event(event_code)

    async def config(self, event_code: str) -> dict[str, Any] | None:
        return await self._awards.config(event_code)

    async def current_result(self, event_code: str, section_id: str) -> Any:
        return await self._awards.current_result(event_code, section_id)

    async def current_results(self, event_code: str) -> dict[str, Any]:
        return await self._awards.current_results(event_code)

    async def current_publication(self, event_code: str, section_id: str) -> Publication | None:
        return await self._awards.current_publication(event_code, section_id)

    async def publication(self, event_code: str, section_id: str, revision: int) -> Publication | None:
        return await self._awards.publication(event_code, section_id, revision)

    async def publications(self, event_code: str, section_id: str | None = None) -> list[Publication]:
        return await self._awards.publications(event_code, section_id)

    async def selections(self, event_code: str, section_id: str | None = None) -> list[Any]:
        return await self._awards.selections(event_code, section_id)

    async def honours(self, event_code: str, *, active_only: bool = False) -> list[dict[str, Any]]:
        return await self._honours.of_event(event_code, active_only=active_only)


async def reads_of(runtime: ServiceRuntime) -> AsyncIterator[AwardsReads]:
    """The reads of one session of ``runtime``'s database, for as long as the caller holds them."""
    async with runtime.sessionmaker() as session:
        repositories = Repositories(session)
        yield AwardsReads(repositories.awards, repositories.honours)


def reads_in(uow: UnitOfWork) -> AwardsReads:
    """The reads inside a unit of work (what its changes left, before the commit)."""
    repositories = Repositories(uow.session)
    return AwardsReads(repositories.awards, repositories.honours)


def plan_of(stored_config: str | None) -> AwardsPlan | None:
    """The awards plan of an event's stored configuration (JSON), or None without one."""
    return awards_plan(EventConfig.model_validate(json.loads(stored_config))) if stored_config else None
