"""Issue 32 (ADR 0012): the federation's published ratings seed Swiss pairings. Registration,
pairing and awards in one process (SQLite, the in-memory bus): the organisation's latest rating
list (``ratings.published``, as awards publishes it) reaches registration; the section closed
afterwards carries each entrant's published rating (the TRF rating column) and pairing numbers
the Swiss field by it — highest first, a player without a published rating (0) after them in
the order of registration (PAIR-1's start order)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import httpx
import pytest

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.season_events import PublishedRating, RatingsPublished
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

CST = timezone(timedelta(hours=8))
KEYS = "op-key=operator,p1-key=partner:partner-1"
OP = {"x-api-key": "op-key"}
P1 = {"x-api-key": "p1-key"}
EV = "sz-seeded"


def entry(n: int) -> dict:
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": {
            "name": f"Player {n:04d}",
            "gender": "male",
            "birth_date": "1990-05-05",
            "id_number": f"440301199005{n:04d}11"[-18:].rjust(18, "1"),
        },
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
    }


@pytest.mark.parametrize("seed", [True, False])
async def test_issue32_a_swiss_sections_start_order_follows_the_published_ratings(tmp_path, seed):
    """``ratings.seed`` (the default): the start order follows the published list; an event that
    says ``seed: false`` keeps the order of registration although the list is the same."""
    clock = FakeClock(datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    settings = ServiceSettings(
        DATA_DIR=str(tmp_path), API_KEYS=KEYS, DATA_KEY="test-data-key", DATABASE_URL="", AMQP_URL=None
    )
    suite = EmbeddedSuite(settings, clock=clock)
    await suite.start()
    try:

        def client(name: str) -> httpx.AsyncClient:
            app = suite.services[name].app
            return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=f"http://{name}")

        registration, pairing = client("registration"), client("pairing")
        body = {"preset_id": "sz-2022", "event_code": EV, "overrides": {} if seed else {"ratings": {"seed": False}}}
        made = await registration.post("/v1/events", headers=OP, json=body)
        assert made.status_code == 201, made.text
        entries = {"entries": [entry(n) for n in range(1, 9)]}
        bulk = await registration.post(f"/v1/events/{EV}/entries/bulk", headers=P1, json=entries)
        assert bulk.status_code == 201, bulk.text
        await suite.drain()
        people = (await registration.get("/v1/organisations/default/people", headers=OP)).json()["people"]
        registry = {p["name"]: p["person_id"] for p in people}
        assert len(registry) == 8

        # the organisation's latest list: players 1..6 rated, the later-registered ones higher;
        # 7 and 8 have no published rating
        published = {f"Player {n:04d}": 1400 + 50 * n for n in range(1, 7)}
        ratings = RatingsPublished(
            organisation="default",
            period="2022-09",
            people=[
                PublishedRating(registry_id=registry[name], rating=rating, rd=80.0, provisional=False)
                for name, rating in published.items()
            ],
        )
        envelope = envelope_for(ratings, correlation_id="ratings:default", occurred_at=clock.now())
        await suite.bus.publish([encode(envelope)])
        await suite.drain()

        clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        choices = {
            "format_choices": {
                "men-free": {"kind": "swiss"},
                "women-free": {"kind": "round_robin"},
                "men-pro": {"kind": "round_robin"},
                "women-pro": {"kind": "round_robin"},
            },
            "not_checked_in": "present",
        }
        closed = await registration.post(f"/v1/events/{EV}/stages/online/close", headers=OP, json=choices)
        assert closed.status_code == 200, closed.text
        await suite.drain()

        section = await pairing.get(f"/v1/events/{EV}/sections/men-free", headers=OP)
        assert section.status_code == 200, section.text
        by_rating = sorted(published, key=lambda name: -published[name]) + ["Player 0007", "Player 0008"]
        expected = by_rating if seed else [f"Player {n:04d}" for n in range(1, 9)]
        order = [e["entrant_id"] for e in sorted(section.json()["entrants"], key=lambda e: e["start_no"])]
        accepted = (await registration.get(f"/v1/events/{EV}/entries", headers=OP)).json()["entries"]
        names = {a["entry_id"]: a["players"][0]["name"] for a in accepted}  # staff read: names in full
        assert [names[e] for e in order] == expected
        await registration.aclose()
        await pairing.aclose()
    finally:
        await suite.stop()
