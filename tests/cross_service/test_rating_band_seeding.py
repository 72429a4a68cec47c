"""Issue 32 (ADR 0012) across registration and pairing in one process (SQLite, the in-memory bus):
a Swiss section with a rating band (a test configuration over SZ 2022: ``men-free`` admits
ratings under 1700 and unrated players). The entries made before the organisation's first list
are unrated and stay admitted (the band is judged at entry); a player the list rates 1750 is
refused by the band. The section closed afterwards carries the published ratings — a
provisional one like any other — so pairing's start numbers, its TRF export's rating column and
round 1 (top half against bottom half, PAIR-1) all follow the list."""

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
EV = "sz-banded"
#: the test configuration: ratings under 1700 and unrated players in men-free (no preset has bands)
BAND = {"stages": {"online": {"sections": {"men-free": {"rating_band": {"under": 1700, "unrated": "inside"}}}}}}
#: the list: players 1..6 rated (the later-registered higher; 5 provisional), 9 rated 1750
RATED = {n: 1400 + 50 * n for n in range(1, 7)} | {9: 1750}


def entry(n: int, section: str = "men-free") -> dict:
    return {
        "stage": "online",
        "section_id": section,
        "player": {
            "name": f"Player {n:04d}",
            "gender": "male",
            "birth_date": "1990-05-05",
            "id_number": f"440301199005{n:04d}11"[-18:].rjust(18, "1"),
        },
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{n:06d}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{n:06d}"},
    }


@pytest.fixture
async def suite(tmp_path):
    clock = FakeClock(datetime(2022, 10, 26, 10, 0, tzinfo=CST))
    settings = ServiceSettings(
        DATA_DIR=str(tmp_path), API_KEYS=KEYS, DATA_KEY="test-data-key", DATABASE_URL="", AMQP_URL=None
    )
    suite = EmbeddedSuite(settings, clock=clock)
    await suite.start()
    try:
        yield suite, clock
    finally:
        await suite.stop()


def client(suite: EmbeddedSuite, name: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=suite.services[name].app), base_url=f"http://{name}")


async def test_issue32_rating_band_entry_and_rating_seeded_round_one(suite):
    """Issue 32 rating band and seeding: the band refuses the 1750 player (RATING-BAND, with the
    rating in its reason); the start order, the TRF rating column and round 1 follow the list."""
    suite, clock = suite
    registration, pairing = client(suite, "registration"), client(suite, "pairing")
    made = await registration.post(
        "/v1/events", headers=OP, json={"preset_id": "sz-2022", "event_code": EV, "overrides": BAND}
    )
    assert made.status_code == 201, made.text
    bulk = {"entries": [entry(n) for n in range(1, 9)] + [entry(9, "men-pro")]}
    assert (await registration.post(f"/v1/events/{EV}/entries/bulk", headers=P1, json=bulk)).status_code == 201
    await suite.drain()
    people = (await registration.get("/v1/organisations/default/people", headers=OP)).json()["people"]
    registry = {p["name"]: p["person_id"] for p in people}
    ratings = RatingsPublished(
        organisation="default",
        period="2022-09",
        people=[
            PublishedRating(
                registry_id=registry[f"Player {n:04d}"], rating=r, rd=120.0 if n == 5 else 80.0, provisional=n == 5
            )
            for n, r in RATED.items()
        ],
    )
    await suite.bus.publish([encode(envelope_for(ratings, correlation_id="ratings:default", occurred_at=clock.now()))])
    await suite.drain()

    refused = await registration.post(f"/v1/events/{EV}/entries", headers=P1, json=entry(9))
    assert refused.status_code == 201, refused.text
    assert refused.json()["status"] == "refused"
    shown = (await registration.get(f"/v1/events/{EV}/entries/{refused.json()['entry_id']}", headers=OP)).json()
    band = [d for d in shown["decisions"] if d["rule"] == "RATING-BAND"]
    assert [(d["clause"], d["outcome"]) for d in band] == [("men-free/rating_band", "refused")]
    assert "1750" in band[0]["reason"] and "under 1700" in band[0]["reason"]

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

    sec = f"/v1/events/{EV}/sections/men-free"
    detail = (await pairing.get(sec, headers=OP)).json()
    entries = (await registration.get(f"/v1/events/{EV}/entries", headers=OP)).json()["entries"]
    names = {e["entry_id"]: e["players"][0]["name"] for e in entries}
    start = {e["start_no"]: (names[e["entrant_id"]], e["rating"]) for e in detail["entrants"]}
    # the list's order, the provisional 1650 among them; the unrated after them by registration
    expected = [(f"Player {n:04d}", RATED[n]) for n in (6, 5, 4, 3, 2, 1)] + [("Player 0007", 0), ("Player 0008", 0)]
    assert [start[n] for n in sorted(start)] == expected
    trf = (await pairing.get(f"{sec}/trf", headers=OP)).text
    players = [line for line in trf.splitlines() if line.startswith("001 ")]
    assert [int(line[4:8]) for line in players] == list(range(1, 9))
    assert [int(line[48:52]) for line in players] == [rating for _, rating in expected]

    round_one = await pairing.get(f"{sec}/rounds/1", headers=OP)
    assert round_one.status_code == 200, round_one.text
    number = {e["entrant_id"]: e["start_no"] for e in detail["entrants"]}
    pairs = {tuple(sorted((number[p["first"]], number[p["second"]]))) for p in round_one.json()["pairings"]}
    assert pairs == {(1, 5), (2, 6), (3, 7), (4, 8)}  # the top half against the bottom half
    await registration.aclose()
    await pairing.aclose()
