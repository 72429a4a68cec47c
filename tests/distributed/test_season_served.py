"""The season over real sockets (issue 32): a served awards process on PostgreSQL and RabbitMQ
(the docker-compose.yml command) receives a rated DA-like event as registration and pairing send
it — the owner, the configuration, a junior section whose entrants carry registry ids and whose
games carry a forfeit — and answers the person's title (DA 九(三), AWD-5) and the
organisation's rating list, JSON and CSV, and the person's events with their rated games, with
names masked."""

from __future__ import annotations

import asyncio
import csv
import io
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts.access_events import EventAccessChanged
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, GameResult, SectionCompleted, StandingRow

from .awards_served import awards_alone

EV = "da-season"
ORG = "hainan-fed"
START = datetime(2026, 8, 20, 9, 0, tzinfo=UTC)


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("da-2023", {"id": EV, "ratings": {"rated": True, "min_time_control_s": 3600}})
    return EventConfigured(event_code=EV, name=config.name, preset_id="da-2023", config=config.model_dump(mode="json"))


def _completed() -> SectionCompleted:
    rules = SectionRules(
        rounds=2,
        ruleset=Ruleset(track="professional"),
        clock=ClockSpec(kind="fischer", base_s=3600, increment_s=30),
        tiebreaks=["points", "buchholz"],
    )
    names = {"e1": "张三", "e2": "李四", "e3": "王五", "e4": "赵六"}
    entrants = [Entrant(entrant_id=e, name=n, gender="male", registry_id=f"P-{e}") for e, n in names.items()]
    standings = [
        StandingRow(place=i, entrant_id=e, name=n, gender="male", points=5 - i)
        for i, (e, n) in enumerate(names.items(), 1)
    ]
    games = [
        GameResult(round=1, pairing_id="r1.b1", first="e1", second="e2", outcome="first_wins"),
        GameResult(round=1, pairing_id="r1.b2", first="e3", second="e4", outcome="first_forfeit_win", forfeit=True),
        GameResult(round=2, pairing_id="r2.b1", first="e1", second="e3", outcome="draw"),
        GameResult(round=2, pairing_id="r2.b2", first="e2", second="e4", outcome="first_wins"),
    ]
    return SectionCompleted(
        event_code=EV,
        stage="main",
        section_id="junior",
        name="少年组",
        rules=rules,
        standings=standings,
        entrants=entrants,
        rounds_played=2,
        games=games,
    )


async def _list(client: httpx.AsyncClient) -> dict:
    async with asyncio.timeout(60):
        while True:
            answer = await client.get(f"/v1/organisations/{ORG}/ratings/2023-08")
            if answer.status_code == 200 and answer.json()["rows"]:
                return answer.json()
            await asyncio.sleep(0.2)


async def test_issue32_titles_and_rating_list_served(tmp_path, fresh_database, amqp_url, bus_namespace):
    """Issue 32 served: 第1名 二段 (DA 九(三)) is the winner's current title under the event's
    organisation; the rated games make the August list (the forfeit counts for nobody: e4 has
    one game); the CSV holds the same list; no full name leaves the public reads."""
    published = (EventAccessChanged(event_code=EV, organisation=ORG, changed_at=START), _configured(), _completed())
    async with awards_alone(fresh_database, amqp_url, bus_namespace, tmp_path, START, published) as client:
        listed = await _list(client)
        assert {r["person_id"]: r["games"] for r in listed["rows"]} == {
            "P-e1": 2,
            "P-e2": 2,
            "P-e3": 1,
            "P-e4": 1,
        }
        assert listed["rows"][0]["person_id"] == "P-e1" and all(r["provisional"] for r in listed["rows"])
        assert listed["rows"][0]["title"] == "2d"  # DA 九(三): held at the end of August
        titles = (await client.get(f"/v1/organisations/{ORG}/people/P-e1/titles")).json()
        assert (titles["current"], titles["since"], titles["name"]) == ("2d", "2023-08-22", "张**")
        # the history page's events: e1's section, place and title, its two games from e1's side
        events = (await client.get(f"/v1/organisations/{ORG}/people/P-e1/events")).json()
        [junior] = events["sections"]
        assert (junior["event_code"], junior["title"], junior["place"]) == (EV, "2d", 1)
        assert [(g["opponent_id"], g["opponent"], g["score"]) for g in junior["games"]] == [
            ("P-e2", "李**", 1.0),
            ("P-e3", "王**", 0.5),
        ]
        fourth = (await client.get(f"/v1/organisations/{ORG}/people/P-e4/titles")).json()
        assert fourth["current"] == "1k"  # 第4-6名 1级
        exported = await client.get(f"/v1/organisations/{ORG}/ratings/2023-08.csv")
        assert exported.status_code == 200
        rows = list(csv.DictReader(io.StringIO(exported.text)))
        assert [r["person_id"] for r in rows] == [r["person_id"] for r in listed["rows"]]
        for name in ("张三", "李四", "王五", "赵六"):
            assert name not in exported.text + str(listed) + str(titles) + str(events)
