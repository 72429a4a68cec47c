"""Issue 32 (ADR 0012) in registration, in-process (SQLite, the in-memory bus): the published
rating lists (``ratings.published``, consumed through the inbox) seed the organisation's entries
(entry.accepted carries each person's published rating: the TRF rating column) — the newest list
kept, a late older one ignored, another organisation's never used, ``ratings.seed: false``
carrying none; and the registry's audited merges and splits are announced (``people.merged`` /
``people.split``) so that awards re-keys grants and games."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from registration_kit import OP, P1, P2, harness, sz_entry

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.season_events import PublishedRating, RatingsPublished

#: the whole service on SQLite (make test-fast leaves it out)
pytestmark = pytest.mark.slow


async def event(h, code: str, organisation: str, overrides: dict | None = None) -> None:
    body = {"preset_id": "sz-2022", "event_code": code, "organisation": organisation, "overrides": overrides or {}}
    made = await h.client.post("/v1/events", headers=OP, json=body)
    assert made.status_code == 201, made.text


async def enter(h, code: str, n: int, headers=P1) -> str:
    made = await h.client.post(f"/v1/events/{code}/entries", headers=headers, json=sz_entry(n))
    assert made.status_code == 201, made.text
    await h.settle()
    return made.json()["entry_id"]


def accepted(h, entry_id: str):
    """The last entry.accepted of the entry: its entrant."""
    return [e.payload.entrant for e in h.events("entry.accepted") if e.payload.entry_id == entry_id][-1]


async def publish(h, organisation: str, ratings: dict[str, int], at: datetime, period: str = "2022-09") -> None:
    """A rating list as awards publishes it, dated ``at`` (the envelope's time)."""
    people = [PublishedRating(registry_id=r, rating=v, rd=60.0, provisional=False) for r, v in ratings.items()]
    payload = RatingsPublished(organisation=organisation, period=period, people=people)
    envelope = envelope_for(payload, correlation_id=f"ratings:{organisation}", occurred_at=at)
    await h.observer_bus.publish([encode(envelope)])
    await h.settle()


async def test_issue32_entries_carry_the_newest_published_rating_of_their_organisation(tmp_path):
    async with harness(tmp_path) as h:
        await event(h, "sz-a1", "org-a")
        await event(h, "sz-a2", "org-a")
        await event(h, "sz-b1", "org-b")
        first = await enter(h, "sz-a1", 1)
        rid = accepted(h, first).registry_id
        assert rid and accepted(h, first).rating == 0  # nothing published yet: 0

        now = h.clock.now()
        await publish(h, "org-a", {rid: 1712}, now)
        await publish(h, "org-b", {rid: 2222}, now)  # another organisation's list never applies
        assert accepted(h, await enter(h, "sz-a2", 1)).rating == 1712
        # the same person in org-b's event is another registry person: no rating there
        assert accepted(h, await enter(h, "sz-b1", 1)).rating == 0

        # a list published earlier, arriving late, changes nothing; a newer one replaces it
        await publish(h, "org-a", {rid: 1500}, now - timedelta(hours=1))
        assert accepted(h, await enter(h, "sz-a2", 1, headers=P2)).rating == 1712
        await publish(h, "org-a", {rid: 1650}, now + timedelta(minutes=1), period="2022-10")
        assert accepted(h, await enter(h, "sz-a2", 2)).rating == 0  # another person
        assert accepted(h, await enter(h, "sz-a1", 1, headers=P2)).rating == 1650
        # an empty list (every game withdrawn): nobody is seeded by the old one any more
        await publish(h, "org-a", {}, now + timedelta(minutes=5), period=None)
        await event(h, "sz-a3", "org-a")
        assert accepted(h, await enter(h, "sz-a3", 1)).rating == 0


async def test_issue32_an_event_that_does_not_seed_carries_no_published_rating(tmp_path):
    async with harness(tmp_path) as h:
        await event(h, "sz-a1", "org-a")
        rid = accepted(h, await enter(h, "sz-a1", 1)).registry_id
        await publish(h, "org-a", {rid: 1712}, h.clock.now())
        await event(h, "sz-a2", "org-a", {"ratings": {"seed": False}})
        assert accepted(h, await enter(h, "sz-a2", 1)).rating == 0
        await event(h, "sz-a3", "org-a")
        assert accepted(h, await enter(h, "sz-a3", 1)).rating == 1712


async def test_issue32_merges_and_splits_are_announced_to_awards(tmp_path):
    """A merge names the kept person and everyone who now stands as it; undoing it names the
    event people that are the split-off person's again; splitting one event person out names
    that event person and the new registry person."""
    async with harness(tmp_path) as h:
        await event(h, "sz-a1", "org-a")
        await enter(h, "sz-a1", 1)
        await enter(h, "sz-a1", 2)
        await enter(h, "sz-a1", 3)
        people = (await h.client.get("/v1/organisations/org-a/people", headers=OP)).json()["people"]
        a, b, c = sorted(people, key=lambda p: p["name"])
        url = "/v1/organisations/org-a/people/{}/{}"
        r = await h.client.post(
            url.format(a["person_id"], "merge"), headers=OP, json={"person_id": b["person_id"], "reason": "1"}
        )
        assert r.status_code == 200, r.text
        r = await h.client.post(
            url.format(c["person_id"], "merge"), headers=OP, json={"person_id": a["person_id"], "reason": "2"}
        )
        assert r.status_code == 200, r.text
        await h.settle()
        merges = h.payloads("people.merged")
        assert [(m.organisation, m.person_id, sorted(m.merged_ids)) for m in merges] == [
            ("org-a", a["person_id"], [b["person_id"]]),
            ("org-a", c["person_id"], sorted([a["person_id"], b["person_id"]])),
        ]

        r = await h.client.post(
            url.format(c["person_id"], "split"), headers=OP, json={"person_id": a["person_id"], "reason": "3"}
        )
        assert r.status_code == 200, r.text
        await h.settle()
        (undone,) = h.payloads("people.split")
        a_records = {rec["player_id"] for rec in r.json()["split_off"]["records"]}
        assert (undone.person_id, undone.split_off) == (c["person_id"], a["person_id"])
        assert {(p.event_code, p.player_id) for p in undone.players} == {("sz-a1", pid) for pid in a_records}
        assert len(a_records) == 2  # A's own and B's, who came back with it

        moved = sorted(a_records)[-1]
        body = {"event_code": "sz-a1", "player_id": moved, "reason": "4"}
        r = await h.client.post(url.format(a["person_id"], "split"), headers=OP, json=body)
        assert r.status_code == 200, r.text
        await h.settle()
        out = h.payloads("people.split")[-1]
        assert (out.person_id, out.split_off) == (a["person_id"], r.json()["split_off"]["person_id"])
        assert [(p.event_code, p.player_id) for p in out.players] == [("sz-a1", moved)]
        # the only record of a person cannot be split off: refused, and nothing announced
        again = {**body, "reason": "5"}
        r = await h.client.post(url.format(out.split_off, "split"), headers=OP, json=again)
        assert r.status_code == 409
        await h.settle()
        assert len(h.payloads("people.split")) == 2
