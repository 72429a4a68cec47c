"""Issue 32: eligibility from the federation's record, in-process (SQLite, the in-memory bus).
Awards publishes a previous event's final places (``awards.published``, consumed through the
inbox); a later event of the organisation judges REG-16 (NY 七(三)) quota-exemption claims and
REG-6 (SZ 六(4)) wildcards from them — the highest revision of a section kept, the same message
twice changing nothing."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest
import sqlalchemy as sa
from registration_kit import CST, OP, P1, harness, player, sz_entry

from gomoku_shared.contracts.events import AwardsPublished

#: the whole service on SQLite (make test-fast leaves it out)
pytestmark = pytest.mark.slow

BORN = "2005-03-03"


async def event(h, code: str, preset: str, overrides: dict | None = None) -> None:
    body = {"preset_id": preset, "event_code": code, "organisation": "org-a", "overrides": overrides or {}}
    made = await h.client.post("/v1/events", headers=OP, json=body)
    assert made.status_code == 201, made.text


async def enter_ny(h, code: str, n: int, **facts) -> dict:
    body = {"section_id": "youth-male", "player": {**player(n, born=BORN), "unit": "zj"}, "facts": facts}
    made = await h.client.post(f"/v1/events/{code}/entries", headers=P1, json=body)
    assert made.status_code == 201, made.text
    return made.json()


def published(code: str, places: dict[str, int], revision: int = 1, **kw) -> AwardsPublished:
    """A section's final places as awards publishes them (entrant id → place)."""
    rows = [{"entrant_id": e, "name": "x", "place": p, "title": None} for e, p in places.items()]
    return AwardsPublished(
        event_code=code, stage="main", section_id="youth-male", revision=revision, name="Youth Male", places=rows, **kw
    )


async def record_rows(h) -> list[tuple]:
    async with h.service.runtime.sessionmaker() as session:
        query = sa.text("SELECT event_code, person_id, place FROM record_places ORDER BY place")
        return [tuple(r) for r in (await session.execute(query)).all()]


async def test_reg16_ny_7_3_and_reg6_sz_6_4_claims_judged_from_the_previous_events_record(tmp_path):
    """REG-16 (NY 七(三)): a claim for a place in the previous edition's top 8 is checked against
    its recorded places (the same registry person); REG-6 (SZ 六(4)): a wildcard is admitted by a
    national top-25 place on the record; one the record does not prove is refused with the
    reason, and goes to the arbiter's review once a certificate arrives."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await event(h, "ny21", "ny-2022")
        await h.client.post("/v1/events/ny21/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
        first, second, third = [(await enter_ny(h, "ny21", n))["entry_id"] for n in (1, 2, 3)]
        await h.publish(published("ny21", {first: 3, second: 12, third: 30}))

        overrides = {"units": {"delegation_max_players": 1, "quota_exempt_previous_event": "ny21"}}
        await event(h, "ny22", "ny-2022", overrides)
        await h.client.post("/v1/events/ny22/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
        assert (await enter_ny(h, "ny22", 4))["status"] == "accepted"  # the quota of one is full
        claimed = await enter_ny(h, "ny22", 1, quota_exempt_ref="2021 youth male 3rd")
        assert claimed["status"] == "accepted", claimed
        (exempt,) = [d for d in claimed["decisions"] if d["clause"].startswith("units/quota_exempt")]
        assert exempt["clause"] == "units/quota_exempt"
        assert exempt["params"] == {"edition": "2022", "place": 3, "section": "Youth Male", "top": 8}
        # the 12th is outside the top 8: counted in the full quota, and told why
        beyond = await enter_ny(h, "ny22", 2, quota_exempt_ref="2021 youth male 12th")
        assert beyond["status"] == "refused" and beyond["clause"] == "units/quota", beyond
        assert any(d["clause"] == "units/quota_exempt_unlisted" for d in beyond["decisions"])

        h.clock.set(datetime(2022, 10, 26, 10, 0, tzinfo=CST))
        await event(h, "sz22", "sz-2022")

        async def wildcard(n: int) -> dict:
            body = {
                **sz_entry(n, section="men-pro", born=BORN, evidence=[]),
                "facts": {"intends_to_represent": True},
            }
            made = await h.client.post("/v1/events/sz22/entries", headers=P1, json=body)
            assert made.status_code == 201, made.text
            return made.json()

        proven = await wildcard(2)  # national place 12 (top 25)
        assert (proven["status"], proven["clause"]) == ("accepted", "sz-residency/wildcard"), proven
        (why,) = [d for d in proven["decisions"] if d["clause"] == "sz-residency/wildcard"]
        assert why["reason"] == "wildcard: national result place 12 at ny21 (top 25), on the record"
        assert not proven["pending_evidence"]
        unproven = await wildcard(3)  # national place 30: refused, and told why
        assert (unproven["status"], unproven["clause"]) == ("refused", "sz-residency"), unproven
        assert "not proven by the record nor by a document" in unproven["reason"]
        assert "national top 25" in unproven["reason"]
        # the certificate sent afterwards, in time (SZ 十三(二)), goes to the arbiter's review
        certificate = {"kind": "grade_certificate", "document_ref": "G-3", "grade": "2k"}
        sent = await h.client.post(
            "/v1/events/sz22/evidence", headers=P1, json={"entry_id": unproven["entry_id"], **certificate}
        )
        assert sent.status_code == 201, sent.text
        (again,) = sent.json()["entries"]
        assert (again["status"], again["clause"]) == ("pending_review", "sz-residency/wildcard"), again


async def test_issue32_the_record_keeps_the_highest_revision_and_ignores_a_repeat(tmp_path):
    """awards.published consumed idempotently: the same message twice records once; an older or
    equal revision changes nothing; a correction (a higher revision) replaces the section's
    places; a cancelled section records none; a team section is not recorded."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await event(h, "ny21", "ny-2022")
        await h.client.post("/v1/events/ny21/units", headers=P1, json={"id": "zj", "name": "Zhejiang"})
        first, second = [(await enter_ny(h, "ny21", n))["entry_id"] for n in (1, 2)]
        p1, p2 = "ny21.p00001", "ny21.p00002"

        message = published("ny21", {first: 1, second: 2})
        event_id = uuid.uuid4()
        await h.send(message, event_id=event_id)
        await h.send(message, event_id=event_id)  # the same message again (a redelivery)
        await h.settle()
        assert await record_rows(h) == [("ny21", p1, 1), ("ny21", p2, 2)]

        await h.publish(published("ny21", {first: 2, second: 1}, revision=1))  # not newer: ignored
        assert await record_rows(h) == [("ny21", p1, 1), ("ny21", p2, 2)]
        await h.publish(published("ny21", {first: 2, second: 1}, revision=2, supersedes=1))  # AWD-8
        assert await record_rows(h) == [("ny21", p2, 1), ("ny21", p1, 2)]
        await h.publish(published("ny21", {first: 1, second: 2}, revision=1))  # late, older
        assert await record_rows(h) == [("ny21", p2, 1), ("ny21", p1, 2)]
        await h.publish(published("ny21", {}, revision=3, cancelled=True))
        assert await record_rows(h) == []
        await h.publish(published("ny21", {first: 1}, revision=9, kind="team"))
        assert await record_rows(h) == []
