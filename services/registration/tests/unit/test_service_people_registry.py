"""Issue 32, the registry of people per organisation, in-process (SQLite, the in-memory bus).

The same ID number entered through two partner apps is one registry person of the event's
organisation (each partner still sees only its own player, and nothing a partner reads names the
registry person); merging two registry people and undoing it, splitting an event person out and
merging it back are audited and reversible; a person's data is exported for them and corrected;
another organisation's staff, partners and the viewer key never reach the registry. The facts
sent about entries (entry.accepted, section.closed) name the registry person (REG-11: the ID
number itself never leaves registration)."""

from __future__ import annotations

from datetime import datetime

import pytest
import sqlalchemy as sa
from registration_kit import ARB_A, ARB_B, CST, OP, P1, P2, harness, id_number, sz_entry

from gomoku_shared.testing.people import StaffTokens
from registration.adapters import orm
from registration.service_layer.people_registry import link_stored_people

#: the whole service on SQLite (make test-fast leaves it out)
pytestmark = pytest.mark.slow

SZ_OPEN = datetime(2022, 10, 26, 10, 0, tzinfo=CST)
VIEW = {"x-api-key": "view-key"}


async def event(h, code: str, organisation: str) -> None:
    body = {"preset_id": "sz-2022", "event_code": code, "organisation": organisation}
    made = await h.client.post("/v1/events", headers=OP, json=body)
    assert made.status_code == 201, made.text


async def enter(h, code: str, headers: dict, n: int, **player) -> dict:
    body = sz_entry(n)
    body["player"] = {**body["player"], **player}
    made = await h.client.post(f"/v1/events/{code}/entries", headers=headers, json=body)
    assert made.status_code == 201, made.text
    return made.json()


async def people(h, org: str, q: str | None = None, headers=OP) -> list[dict]:
    found = await h.client.get(f"/v1/organisations/{org}/people", headers=headers, params={"q": q} if q else {})
    assert found.status_code == 200, found.text
    return found.json()["people"]


async def person(h, org: str, person_id: str, headers=OP) -> dict:
    found = await h.client.get(f"/v1/organisations/{org}/people/{person_id}", headers=headers)
    assert found.status_code == 200, found.text
    return found.json()


async def act(h, org: str, person_id: str, action: str, body: dict, headers=OP):
    return await h.client.post(f"/v1/organisations/{org}/people/{person_id}/{action}", headers=headers, json=body)


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    return error


def accepted_registry_ids(h) -> dict[str, str | None]:
    """entry id -> the registry person its last entry.accepted names."""
    return {e.payload.entry_id: e.payload.entrant.registry_id for e in h.events("entry.accepted")}


async def test_issue32_one_id_number_through_two_partners_is_one_registry_person(tmp_path):
    """Partner B registers partner A's player's ID number with the same details: two event people
    (each partner sees only its own), one registry person of the organisation, named by both
    entries' entry.accepted; the same number in another of the organisation's events is that
    person again, in another organisation's event another person."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        await event(h, "sz-a2", "org-a")
        await event(h, "sz-b1", "org-b")
        first = await enter(h, "sz-a1", P1, 1)
        second = await enter(h, "sz-a1", P2, 1)
        assert first["players"][0]["player_id"] != second["players"][0]["player_id"]  # partner isolation kept
        again = await enter(h, "sz-a2", P1, 1)
        elsewhere = await enter(h, "sz-b1", P1, 1)
        await h.settle()

        (only,) = await people(h, "org-a", "player 0001")
        assert only["records"] == 3 and only["id_number"] == "**************" + id_number(1)[-4:]
        shown = await person(h, "org-a", only["person_id"])
        assert {(r["event_code"], r["registered_by"]) for r in shown["records"]} == {
            ("sz-a1", "partner-1"),
            ("sz-a1", "partner-2"),
            ("sz-a2", "partner-1"),
        }
        (theirs,) = await people(h, "org-b")
        assert theirs["person_id"] != only["person_id"] and theirs["records"] == 1

        named = accepted_registry_ids(h)
        assert named[first["entry_id"]] == named[second["entry_id"]] == named[again["entry_id"]] == only["person_id"]
        assert named[elsewhere["entry_id"]] == theirs["person_id"]

        # each partner reads its own entry only, and nothing it reads names the registry person
        for key, mine, other in ((P1, first, second), (P2, second, first)):
            listed = await h.client.get("/v1/events/sz-a1/entries", headers=key)
            assert [e["entry_id"] for e in listed.json()["entries"]] == [mine["entry_id"]]
            assert (await h.client.get(f"/v1/events/sz-a1/entries/{other['entry_id']}", headers=key)).status_code == 404
            assert only["person_id"] not in listed.text and only["person_id"] not in str(mine)
        assert all(id_number(1) not in e.model_dump_json() for e in h.events())  # REG-11
        # staff read the entries' players with their registry person; the partner reads null
        url = f"/v1/events/sz-a1/entries/{second['entry_id']}"
        assert (await h.client.get(url, headers=OP)).json()["players"][0]["registry_id"] == only["person_id"]
        assert (await h.client.get(url, headers=P2)).json()["players"][0]["registry_id"] is None
        staff_list = (await h.client.get("/v1/events/sz-a1/entries", headers=OP)).json()["entries"]
        assert {p["registry_id"] for e in staff_list for p in e["players"]} == {only["person_id"]}


async def test_issue32_merge_and_its_undoing_are_audited_and_reversible(tmp_path):
    """Two registry people that are one human (a mistyped ID number) merged with a reason: the
    one kept lists both records, the other is merged into it and its later entries name the one
    kept; undoing the merge restores both. Who, when and why are in the history."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        await enter(h, "sz-a1", P1, 1)
        await enter(h, "sz-a1", P2, 2, name="Player 0001")  # the same human, another number
        one, two = sorted(await people(h, "org-a", "Player 0001"), key=lambda p: p["id_number"])
        merged = await act(h, "org-a", one["person_id"], "merge", {"person_id": two["person_id"], "reason": "一人两号"})
        assert merged.status_code == 200, merged.text
        kept = merged.json()
        assert [m["person_id"] for m in kept["merged"]] == [two["person_id"]] and len(kept["records"]) == 2
        assert [(a["action"], a["other_id"], a["reason"], a["by"]) for a in kept["history"]] == [
            ("merge", two["person_id"], "一人两号", "operator:k1")
        ]
        assert [p["person_id"] for p in await people(h, "org-a")] == [one["person_id"]]
        assert (await person(h, "org-a", two["person_id"]))["merged_into"] == one["person_id"]

        # facts sent after the merge name the person kept
        await event(h, "sz-a2", "org-a")
        later = await enter(h, "sz-a2", P1, 2, name="Player 0001")
        await h.settle()
        assert accepted_registry_ids(h)[later["entry_id"]] == one["person_id"]

        refused(
            await act(h, "org-a", one["person_id"], "merge", {"person_id": one["person_id"], "reason": "x"}),
            409,
            "merge_same_person",
        )
        refused(
            await act(h, "org-a", two["person_id"], "correction", {"name": "X", "reason": "x"}),
            409,
            "registry_person_merged",
        )

        undone = await act(
            h, "org-a", one["person_id"], "split", {"person_id": two["person_id"], "reason": "不是同一人"}
        )
        assert undone.status_code == 200, undone.text
        assert undone.json()["person"]["merged"] == [] and len(undone.json()["person"]["records"]) == 1
        assert undone.json()["split_off"]["merged_into"] is None and len(undone.json()["split_off"]["records"]) == 2
        assert sorted(p["person_id"] for p in await people(h, "org-a")) == sorted([one["person_id"], two["person_id"]])
        history = (await person(h, "org-a", one["person_id"]))["history"]
        assert [(a["action"], a["reason"]) for a in history] == [("merge", "一人两号"), ("unmerge", "不是同一人")]
        refused(
            await act(h, "org-a", one["person_id"], "split", {"person_id": two["person_id"], "reason": "x"}),
            409,
            "not_merged_here",
        )


async def test_issue32_an_event_person_split_out_and_merged_back(tmp_path):
    """Partner B's event person wrongly linked by the ID number is split out into a new registry
    person (without the number, which stays with the person it belongs to); merging it back
    restores one person with both records. The only record of a person cannot be split off."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        await enter(h, "sz-a1", P1, 1)
        wrong = await enter(h, "sz-a1", P2, 1)
        (one,) = await people(h, "org-a")
        pid = wrong["players"][0]["player_id"]
        body = {"event_code": "sz-a1", "player_id": pid, "reason": "合作方录错身份证号"}
        split = await act(h, "org-a", one["person_id"], "split", body)
        assert split.status_code == 200, split.text
        new = split.json()["split_off"]
        assert new["id_number"] is None and [r["player_id"] for r in new["records"]] == [pid]
        assert len(split.json()["person"]["records"]) == 1
        assert [(a["action"], a["details"]["player_id"]) for a in split.json()["person"]["history"]] == [("split", pid)]
        refused(await act(h, "org-a", new["person_id"], "split", {**body, "reason": "x"}), 409, "nothing_to_split")
        refused(await act(h, "org-a", one["person_id"], "split", body), 404, "unknown_player")

        back = await act(
            h, "org-a", one["person_id"], "merge", {"person_id": new["person_id"], "reason": "核实为同一人"}
        )
        assert back.status_code == 200, back.text
        assert len(back.json()["records"]) == 2 and [p["person_id"] for p in await people(h, "org-a")] == [
            one["person_id"]
        ]


async def test_issue32_a_persons_data_exported_for_them_and_corrected(tmp_path):
    """A subject access request: the export holds the person's name, full birth date and ID number,
    their event records with entries and evidence, and is itself in the history; a correction
    changes the registry's details and names the fields corrected, not their values."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        made = await enter(h, "sz-a1", P1, 7)
        (one,) = await people(h, "org-a")
        exported = await act(h, "org-a", one["person_id"], "export", {"reason": "本人申请 SAR-1"})
        assert exported.status_code == 200, exported.text
        data = exported.json()
        assert data["person"]["id_number"] == id_number(7) and data["person"]["birth_date"] == "1990-05-05"
        (record,) = data["records"]
        assert record["id_number"] == id_number(7) and record["birth_date"] == "1990-05-05"
        assert [e["entry_id"] for e in record["entries"]] == [made["entry_id"]]
        assert [e["kind"] for e in record["evidence"]] == ["household_registration"]
        assert [(a["action"], a["reason"]) for a in data["history"]] == [("export", "本人申请 SAR-1")]

        body = {"name": "Player Seven", "birth_date": "1990-05-06", "reason": "证件核对"}
        fixed = await act(h, "org-a", one["person_id"], "correction", body)
        assert fixed.status_code == 200, fixed.text
        assert fixed.json()["name"] == "Player Seven" and fixed.json()["birth_year"] == 1990
        assert fixed.json()["history"][-1]["details"] == {"fields": ["birth_date", "name"]}
        assert "1990-05-06" not in str(fixed.json()["history"])
        again = (await act(h, "org-a", one["person_id"], "export", {"reason": "复核"})).json()
        assert again["person"]["birth_date"] == "1990-05-06" and again["person"]["name"] == "Player Seven"
        refused(await act(h, "org-a", one["person_id"], "correction", {"reason": "nothing"}), 422, "validation_error")


async def test_issue32_only_the_organisations_people_managers_reach_its_registry(tmp_path):
    """The operator's keys and the organisation's administrators and organisers (and its arbiter
    API key) read and act; another organisation's arbiter key, an arbiter of the organisation, an
    organiser of one of its events only: 403 people_not_yours with words; a partner or the viewer
    key: 403; another organisation's person by this organisation's path: 404."""
    staff = StaffTokens()
    at = SZ_OPEN.timestamp()
    organiser = staff.token("王组委", orgs={"org-a": ["organiser"]}, issued_at=at, ttl_s=86400)
    arbiter = staff.token("张裁判", orgs={"org-a": ["arbiter"]}, issued_at=at, ttl_s=86400)
    event_organiser = staff.token("李组委", events={"sz-a1": ["organiser"]}, issued_at=at, ttl_s=86400)
    async with harness(tmp_path, SZ_OPEN) as h:
        staff.install(h.service.app.state.keyring)
        await event(h, "sz-a1", "org-a")
        await event(h, "sz-b1", "org-b")
        await enter(h, "sz-a1", P1, 1)
        await enter(h, "sz-b1", P1, 2)
        (ours,) = await people(h, "org-a")
        (theirs,) = await people(h, "org-b")
        url = f"/v1/organisations/org-a/people/{ours['person_id']}"
        for headers in ({"authorization": f"Bearer {organiser}"}, ARB_A):
            assert (await h.client.get(url, headers=headers)).status_code == 200
        for headers in (ARB_B, {"authorization": f"Bearer {arbiter}"}, {"authorization": f"Bearer {event_organiser}"}):
            error = refused(await h.client.get(url, headers=headers), 403, "people_not_yours")
            assert "组委会" in error["details"]["words"]["zh"] and "organiser" in error["details"]["words"]["en"]
            refused(
                await act(h, "org-a", ours["person_id"], "export", {"reason": "x"}, headers), 403, "people_not_yours"
            )
        for headers in (P1, P2, VIEW):
            assert (await h.client.get("/v1/organisations/org-a/people", headers=headers)).status_code == 403
        refused(
            await h.client.get(f"/v1/organisations/org-a/people/{theirs['person_id']}", headers=OP),
            404,
            "unknown_registry_person",
        )
        refused(
            await act(h, "org-a", ours["person_id"], "merge", {"person_id": theirs["person_id"], "reason": "x"}),
            404,
            "unknown_registry_person",
        )


async def test_issue32_people_stored_before_the_registry_are_linked_at_start(tmp_path):
    """A database from before the registry: its event people have no registry person. Linking
    them (what the service does when it starts) gives the same ID number one registry person
    across partners, and a second run links nobody twice."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        await enter(h, "sz-a1", P1, 1)
        await enter(h, "sz-a1", P2, 1)
        await enter(h, "sz-a1", P2, 3)
        runtime = h.service.runtime
        async with runtime.sessionmaker() as session, session.begin():
            await session.execute(sa.delete(orm.registry_links))
            await session.execute(sa.delete(orm.registry_people))
        assert await people(h, "org-a") == []
        protector = h.service.app.state.registration.protector
        assert await link_stored_people(runtime, protector, batch=2) == 3
        assert await link_stored_people(runtime, protector) == 0
        listed = await people(h, "org-a")
        assert sorted(p["records"] for p in listed) == [1, 2]


async def test_issue32_a_merge_carries_whoever_was_merged_and_its_undoing_brings_them_back(tmp_path):
    """B merged into A, then A into C: B stands as C too (no chain); undoing A's merge brings B back
    with A, as it came."""
    async with harness(tmp_path, SZ_OPEN) as h:
        await event(h, "sz-a1", "org-a")
        made = [await enter(h, "sz-a1", P1, n) for n in (1, 2, 3)]
        a, b, c = sorted(await people(h, "org-a"), key=lambda p: p["name"])
        assert (
            await act(h, "org-a", a["person_id"], "merge", {"person_id": b["person_id"], "reason": "1"})
        ).status_code == 200
        into_c = await act(h, "org-a", c["person_id"], "merge", {"person_id": a["person_id"], "reason": "2"})
        assert sorted(m["person_id"] for m in into_c.json()["merged"]) == sorted([a["person_id"], b["person_id"]])
        assert (await person(h, "org-a", b["person_id"]))["merged_into"] == c["person_id"]
        staff_view = (await h.client.get(f"/v1/events/sz-a1/entries/{made[1]['entry_id']}", headers=OP)).json()
        assert staff_view["players"][0]["registry_id"] == c["person_id"]

        undone = await act(h, "org-a", c["person_id"], "split", {"person_id": a["person_id"], "reason": "3"})
        assert undone.status_code == 200, undone.text
        assert undone.json()["person"]["merged"] == []
        assert [m["person_id"] for m in undone.json()["split_off"]["merged"]] == [b["person_id"]]
        assert (await person(h, "org-a", b["person_id"]))["merged_into"] == a["person_id"]
