"""Issue 32 on PostgreSQL: two rated events of one organisation completing at the same moment
both reach its rating list. Each completion recomputes the organisation's lists from its games;
without serialising them per organisation the later would replace the lists from the games it
saw (the other event's missing) or collide with the other's rows."""

from __future__ import annotations

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from awards_kit import Harness, completed, configured, ranked  # noqa: E402

from awards.service_layer.commands import CompleteSection  # noqa: E402
from awards.service_layer.handlers import handle  # noqa: E402
from awards.service_layer.unit_of_work import SqlAwardsUnitOfWork  # noqa: E402
from gomoku_shared.contracts.common import Entrant  # noqa: E402
from gomoku_shared.contracts.events import GameResult, SectionCompleted  # noqa: E402
from gomoku_shared.settings import ServiceSettings  # noqa: E402

RATED = {"ratings": {"rated": True}}


def _section(event_code: str) -> SectionCompleted:
    standings = ranked(4, "x")
    entrants = [Entrant(entrant_id=r.entrant_id, name=r.name, registry_id=f"R-{r.entrant_id}") for r in standings]
    games = [
        GameResult(round=1, pairing_id="r1.b1", first="x1", second="x2", outcome="first_wins"),
        GameResult(round=1, pairing_id="r1.b2", first="x3", second="x4", outcome="draw"),
    ]
    payload = completed(event_code, "junior", standings, entrants=entrants)
    return payload.model_copy(update={"games": games})


async def test_issue32_two_rated_events_completing_at_once_both_reach_the_list(fresh_database):
    settings = ServiceSettings(DATABASE_URL=await fresh_database(), AMQP_URL=None)
    h = Harness(settings)
    await h.start()
    try:
        for code in ("da-a", "da-b"):
            config = configured("da-2023", overrides=RATED)
            await h.send(config.model_copy(update={"event_code": code}))
        await h.settle()
        runtime = h.service.runtime

        async def complete(code: str, revision: int, with_games: bool = True) -> None:
            payload = _section(code).model_copy(update={"revision": revision})
            if not with_games:
                payload = payload.model_copy(update={"games": []})
            async with runtime.transaction(correlation_id=code) as uow:
                await handle(CompleteSection(payload), SqlAwardsUnitOfWork(uow))

        for attempt in range(3):  # a race is a matter of timing: try it a few times, each from scratch
            await asyncio.gather(complete("da-a", 2 * attempt + 1), complete("da-b", 2 * attempt + 1))
            rows = (await h.client.get("/v1/organisations/default/ratings/2023-08")).json()["rows"]
            assert {r["person_id"]: r["games"] for r in rows} == {f"R-x{i}": 2 for i in range(1, 5)}
            for code in ("da-a", "da-b"):  # corrected to no games: the next try starts from scratch
                await complete(code, 2 * attempt + 2, with_games=False)
            assert (await h.client.get("/v1/organisations/default/ratings/2023-08")).json()["rows"] == []
    finally:
        await h.stop()
