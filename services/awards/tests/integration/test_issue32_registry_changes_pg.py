"""Issue 32 on PostgreSQL: a merge in the registry (people.merged) re-keys the title grants and
rated games of the merged person — a grant of both in one section stays where it is — and its
undoing (people.split naming the event people) moves them back; the lists follow and are
published (ratings.published)."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from awards_kit import Harness, completed, configured, ranked  # noqa: E402

from gomoku_shared.contracts.common import Entrant  # noqa: E402
from gomoku_shared.contracts.events import GameResult  # noqa: E402
from gomoku_shared.contracts.season_events import EventPerson, PeopleMerged, PeopleSplit  # noqa: E402
from gomoku_shared.settings import ServiceSettings  # noqa: E402

ORG = "/v1/organisations/default"
AT = datetime(2023, 9, 1, tzinfo=UTC)


async def test_issue32_merge_and_split_rekey_grants_and_games_on_postgresql(fresh_database):
    settings = ServiceSettings(DATABASE_URL=await fresh_database(), AMQP_URL=None)
    h = Harness(settings)
    await h.start()
    try:
        await h.send(configured("da-2023", overrides={"ratings": {"rated": True}}))
        standings = ranked(28, "x")
        entrants = [
            Entrant(
                entrant_id=r.entrant_id,
                name=r.name,
                registry_id=f"R-{r.entrant_id}",
                attributes={"player_id": f"p-{r.entrant_id}"},
            )
            for r in standings[:4]
        ]
        games = [
            GameResult(round=1, pairing_id="r1.b1", first="x1", second="x2", outcome="first_wins"),
            GameResult(round=1, pairing_id="r1.b2", first="x3", second="x4", outcome="draw"),
        ]
        payload = completed("da-2023", "junior", standings, entrants=entrants)
        await h.send(payload.model_copy(update={"games": games}))
        await h.settle()

        async def games_of() -> dict[str, int]:
            rows = (await h.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
            return {r["person_id"]: r["games"] for r in rows}

        async def places(person: str) -> list[int]:
            return [g["place"] for g in (await h.client.get(f"{ORG}/people/{person}/titles")).json()["history"]]

        assert await games_of() == {"R-x1": 1, "R-x2": 1, "R-x3": 1, "R-x4": 1}
        await h.send(PeopleMerged(organisation="default", person_id="R-x1", merged_ids=["R-x3"], at=AT))
        await h.settle()
        assert await games_of() == {"R-x1": 2, "R-x2": 1, "R-x4": 1}
        assert await places("R-x1") == [1] and await places("R-x3") == [3]  # both in one section: unmoved
        assert {p.registry_id for p in h.payloads("ratings.published")[-1].people} == {"R-x1", "R-x2", "R-x4"}

        back = [EventPerson(event_code="da-2023", player_id="p-x3")]
        await h.send(PeopleSplit(organisation="default", person_id="R-x1", split_off="R-x3", players=back, at=AT))
        await h.settle()
        assert await games_of() == {"R-x1": 1, "R-x2": 1, "R-x3": 1, "R-x4": 1}
        assert await places("R-x3") == [3]
    finally:
        await h.stop()
