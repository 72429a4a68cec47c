"""Issue 32 rating band through the registration service (SQLite, the in-memory bus): a section
with a band (a test configuration over SZ 2022; no preset has bands) in an event that does not
seed by rating. Entries are judged by the published rating at entry (entry.refused for one
outside the band, the decision shown with the entry's others), and section.closed carries each
player's ``published_rating`` (for rating-band prizes) although ``rating`` seeds nothing."""

from __future__ import annotations

from datetime import datetime

import pytest
from registration_kit import CST, OP, P1, harness, sz_entry

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.season_events import PublishedRating, RatingsPublished

pytestmark = pytest.mark.slow

#: men-free admits ratings from 1400 to under 1700, no unrated players; the event seeds nothing
BANDED = {
    "ratings": {"seed": False},
    "stages": {"online": {"sections": {"men-free": {"rating_band": {"at_least": 1400, "under": 1700}}}}},
}
LIST = {n: 1400 + 30 * n for n in range(1, 9)} | {9: 1750, 10: 1399}


async def event(h, code: str, organisation: str, overrides: dict | None = None) -> None:
    body = {"preset_id": "sz-2022", "event_code": code, "organisation": organisation, "overrides": overrides or {}}
    made = await h.client.post("/v1/events", headers=OP, json=body)
    assert made.status_code == 201, made.text


def accepted(h, entry_id: str):
    """The last entry.accepted of the entry: its entrant."""
    return [e.payload.entrant for e in h.events("entry.accepted") if e.payload.entry_id == entry_id][-1]


async def publish(h, organisation: str, ratings: dict[str, int], at: datetime) -> None:
    """A rating list as awards publishes it (ratings.published), dated ``at``."""
    people = [PublishedRating(registry_id=r, rating=v, rd=60.0, provisional=False) for r, v in ratings.items()]
    payload = RatingsPublished(organisation=organisation, period="2022-09", people=people)
    await h.observer_bus.publish(
        [encode(envelope_for(payload, correlation_id=f"ratings:{organisation}", occurred_at=at))]
    )
    await h.settle()


async def test_issue32_rating_band_refuses_at_entry_and_section_closed_carries_published_ratings(tmp_path):
    """Issue 32 rating band: 1750 and 1399 are refused (RATING-BAND, the reason names the
    rating), an unrated player too; the eight inside are admitted; section.closed says each
    one's published rating while ``rating`` stays 0 (``ratings.seed: false``)."""
    async with harness(tmp_path) as h:
        await event(h, "sz-a1", "org-a")
        first = {}
        for n in range(1, 12):
            made = await h.client.post("/v1/events/sz-a1/entries", headers=P1, json=sz_entry(n))
            assert made.status_code == 201, made.text
            first[n] = made.json()["entry_id"]
        await h.settle()
        rid = {n: accepted(h, first[n]).registry_id for n in first}
        await publish(h, "org-a", {rid[n]: rating for n, rating in LIST.items()}, h.clock.now())
        await event(h, "sz-b1", "org-a", BANDED)

        status = {}
        for n in range(1, 12):
            made = await h.client.post("/v1/events/sz-b1/entries", headers=P1, json=sz_entry(n))
            assert made.status_code == 201, made.text
            status[n] = (made.json()["status"], made.json()["entry_id"])
        await h.settle()
        assert {n for n, (s, _) in status.items() if s == "refused"} == {9, 10, 11}
        refusals = {r.entry_id: r for r in h.payloads("entry.refused")}
        assert "1750" in refusals[status[9][1]].reason and "1399" in refusals[status[10][1]].reason
        assert "no published rating" in refusals[status[11][1]].reason
        shown = (await h.client.get(f"/v1/events/sz-b1/entries/{status[9][1]}", headers=OP)).json()
        assert [d["outcome"] for d in shown["decisions"] if d["rule"] == "RATING-BAND"] == ["refused"]
        inside = (await h.client.get(f"/v1/events/sz-b1/entries/{status[1][1]}", headers=OP)).json()
        assert [d["outcome"] for d in inside["decisions"] if d["rule"] == "RATING-BAND"] == ["admitted"]

        h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        choices = {"format_choices": {"men-free": {"kind": "swiss"}}, "not_checked_in": "present"}
        closed = await h.client.post("/v1/events/sz-b1/stages/online/close", headers=OP, json=choices)
        assert closed.status_code == 200, closed.text
        await h.settle()
        [section] = [p for p in h.payloads("section.closed") if p.section_id == "men-free" and p.event_code == "sz-b1"]
        by_entry = {e.entrant_id: e for e in section.entrants}
        assert {n: by_entry[status[n][1]].published_rating for n in range(1, 9)} == {n: LIST[n] for n in range(1, 9)}
        assert {by_entry[status[n][1]].rating for n in range(1, 9)} == {0}
