"""Issue 32: the season's reads (a person's titles and rating, an organisation's lists and title
ladder), each on a session of its own; the routes reach the records through here only."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from gomoku_shared.runtime import ServiceRuntime

from ..adapters.repositories import Repositories
from ..adapters.season_repository import SeasonRepository

#: what a route reads the season's records with
SeasonReads = SeasonRepository


@contextlib.asynccontextmanager
async def season_reads(runtime: ServiceRuntime) -> AsyncIterator[SeasonReads]:
    async with runtime.sessionmaker() as session:
        yield Repositories(session).season
