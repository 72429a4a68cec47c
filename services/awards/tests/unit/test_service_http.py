"""AWD-8 published results over HTTP: public reads, JSON and CSV, clear 404s, OpenAPI."""

from __future__ import annotations

import csv
import io

import pytest
from awards_kit import completed, configured, da_open, ranked

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow

BASE = "/v1/events/da-2023/sections"


@pytest.fixture
async def da(harness):
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "open", da_open(), name="Open"))
    await harness.send(completed("da-2023", "junior", ranked(28, "j"), name="Junior"))
    await harness.settle()
    return harness.client


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


async def test_awd8_standings_with_every_tiebreak_value_json_and_csv(da):
    """AWD-8: standings in the section's tiebreak order, shared places marked; no key needed."""
    body = (await da.get(f"{BASE}/open/standings")).json()
    assert body["tiebreak_names"] == ["buchholz", "median_buchholz", "wins"]
    seventh = [r for r in body["rows"] if r["place"] == 7]
    assert [r["entrant_id"] for r in seventh] == ["o7", "o8"] and all(r["shared"] for r in seventh)
    assert body["rows"][0]["tiebreaks"] == {"buchholz": 39, "median_buchholz": 29, "wins": 6}
    r = await da.get(f"{BASE}/open/standings.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = _csv(r.text)
    assert list(rows[0]) == [
        "place",
        "shared",
        "entrant_id",
        "name",
        "unit",
        "gender",
        "points",
        "buchholz",
        "median_buchholz",
        "tiebreak_wins",
        "wins",
        "games_played",
        "decided_by_playoff",
    ]
    assert rows[6]["shared"] == "yes" and rows[0]["buchholz"] == "39" and len(rows) == 12


async def test_awd4_prize_list_json_and_csv(da):
    body = (await da.get(f"{BASE}/open/prizes")).json()
    assert body["currency"] == "CNY"
    assert body["total_fen"] == sum(r["amount_fen"] for r in body["rows"]) == 4_400_000
    rows = _csv((await da.get(f"{BASE}/open/prizes.csv")).text)
    woman = [(r["table"], r["amount"]) for r in rows if r["entrant_id"] == "o3"]
    assert woman == [("Open", "5000.00"), ("Open (women)", "2000.00")]
    assert [r["shared_with"] for r in rows if r["entrant_id"] == "o7"] == ["o8"]


async def test_awd5_title_list_json_and_csv(da):
    body = (await da.get(f"{BASE}/junior/titles")).json()
    assert [(r["place"], r["title"]) for r in body["rows"][:4]] == [(1, "2d"), (2, "1d"), (3, "1d"), (4, "1k")]
    assert len(body["rows"]) == 26
    rows = _csv((await da.get(f"{BASE}/junior/titles.csv")).text)
    assert rows[-1]["place"] == "26" and rows[-1]["title"] == "6k"
    assert (await da.get(f"{BASE}/open/titles")).json()["rows"] == []


async def test_awd8_certificates_per_player_ready_for_printing(da):
    """Certificate data: name, section, place and award lines (items, prizes, title, finisher)."""
    body = (await da.get(f"{BASE}/open/certificates", params={"entrant_id": "o3"})).json()
    assert body["event_name"] == "2023 National Gomoku Open, Ding'an"
    [cert] = body["rows"]
    assert (cert["name"], cert["section_name"], cert["place"]) == ("O3", "Open", 3)
    assert cert["lines"] == [
        "Place 3",
        "certificate",
        "medal",
        "Open prize: 5000.00 CNY",
        "Open (women) prize: 2000.00 CNY",
        "finisher_medal",
        "commemorative_certificate",
    ]
    shared = (await da.get(f"{BASE}/open/certificates", params={"entrant_id": "o8"})).json()["rows"][0]
    assert shared["lines"][0] == "Place 7 (shared)"
    junior = (await da.get(f"{BASE}/junior/certificates", params={"entrant_id": "j1"})).json()["rows"][0]
    assert "Title: 2d" in junior["lines"]
    rows = _csv((await da.get(f"{BASE}/open/certificates.csv")).text)
    assert len(rows) == 12 and rows[0]["lines"].startswith("Place 1; certificate; medal")


async def test_section_awards_event_status_and_history(da):
    body = (await da.get(f"{BASE}/open/awards")).json()
    assert body["publication"]["revision"] == 1 and body["summary"]["awarded_places"] == 8
    # PAIR-8: DA plays off awarded places; the shared 7th arrived undecided and is reported
    assert body["summary"]["unresolved_ties"] == [{"place": 7, "entrant_ids": ["o7", "o8"]}]
    assert body["summary"]["flagged_ties"] == []
    assert body["name"] == "Open" and len(body["places"]) == 12
    status = (await da.get("/v1/events/da-2023")).json()
    assert status["configured"] and [s["section_id"] for s in status["sections"]] == ["junior", "open"]
    history = (await da.get("/v1/events/da-2023/publications", params={"section_id": "junior"})).json()
    assert [p["publication"]["section_id"] for p in history["publications"]] == ["junior"]
    assert (await da.get("/v1/events/da-2023/teams")).json()["teams"] == []


@pytest.mark.parametrize(
    "url, code",
    [
        ("/v1/events/nope", "event_not_found"),
        ("/v1/events/nope/sections/open/awards", "event_not_found"),
        ("/v1/events/nope/teams", "event_not_found"),
        ("/v1/events/nope/qualifiers.csv", "event_not_found"),
        (f"{BASE}/nowhere/prizes", "section_not_found"),
        (f"{BASE}/nowhere/standings.csv", "section_not_found"),
        (f"{BASE}/open/awards?revision=9", "publication_not_found"),
        (f"{BASE}/open/certificates?entrant_id=ghost", "certificate_not_found"),
        ("/v1/events/da-2023/teams/mixed-team", "team_section_not_found"),
    ],
)
async def test_clear_404s_for_unknown_events_sections_and_revisions(da, url, code):
    r = await da.get(url)
    assert r.status_code == 404 and r.json()["error"]["code"] == code


async def test_bad_query_is_a_422(da):
    r = await da.get(f"{BASE}/open/prizes", params={"revision": 0})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"


async def test_openapi_documents_every_results_route(harness):
    paths = (await harness.client.get("/openapi.json")).json()["paths"]
    for suffix in (
        "awards",
        "standings",
        "standings.csv",
        "prizes",
        "prizes.csv",
        "titles",
        "titles.csv",
        "certificates",
        "certificates.csv",
        "best-boards",
        "best-boards.csv",
        "publications",
    ):
        assert f"/v1/events/{{event_code}}/sections/{{section_id}}/{suffix}" in paths, suffix
    for path in ("teams", "teams.csv", "teams/{team_section_id}", "qualifiers", "qualifiers.csv", "publications"):
        assert f"/v1/events/{{event_code}}/{path}" in paths, path
    assert (
        "text/csv"
        in paths["/v1/events/{event_code}/sections/{section_id}/prizes.csv"]["get"]["responses"]["200"]["content"]
    )
