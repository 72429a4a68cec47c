"""Issue 32 over a real socket: registration served as its own process (the docker-compose.yml
command, migrated by alembic) on PostgreSQL + RabbitMQ. Partner B registers partner A's player's
ID number with the same details: one person in the organisation's registry, though each partner
reads only its own entry; a player entered without an ID number is a registry person of their
own, merged by the organiser with a reason and split off again (both in the person's history);
the person's data is exported for them. The registry keeps the ID number and birth date as
ciphertext (REG-11)."""

from __future__ import annotations

from .registration_served import registration_alone, rows

KEYS = "op-key=operator,p1-key=partner:partner-1,p2-key=partner:partner-2,arb-b=arbiter:org-b"
OP, P1, P2, ARB_B = ({"x-api-key": k} for k in ("op-key", "p1-key", "p2-key", "arb-b"))
#: SZ 2022: registration open (十三(二): 10-25 to 10-31)
SZ_OPEN = "2022-10-26T10:00:00+08:00"
ID_NUMBER = "440304199005050031"


def entry(name: str, id_number: str | None) -> dict:
    player = {"name": name, "gender": "male", "birth_date": "1990-05-05"}
    return {
        "stage": "online",
        "section_id": "men-free",
        "player": player | ({"id_number": id_number} if id_number else {}),
        "evidence": [{"kind": "household_registration", "document_ref": f"HK-{name}", "region": "Shenzhen"}],
        "insurance": {"confirmed": True, "document_ref": f"POL-{name}"},
    }


async def _stored(url: str) -> list[tuple]:
    return await rows(url, "SELECT id_number_enc, birth_date_enc, id_number_masked FROM registry_people ORDER BY id")


async def test_issue32_duplicates_across_partners_are_one_registry_person_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    env = {"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": SZ_OPEN, "DATA_KEY": "people-registry-served"}
    async with registration_alone(fresh_database, amqp_url, bus_namespace, tmp_path, env) as (url, http):
        body = {"preset_id": "sz-2022", "event_code": "sz-reg", "organisation": "org-a"}
        assert (await http.post("/v1/events", headers=OP, json=body)).status_code == 201
        first = await http.post("/v1/events/sz-reg/entries", headers=P1, json=entry("李明", ID_NUMBER))
        second = await http.post("/v1/events/sz-reg/entries", headers=P2, json=entry("李明", ID_NUMBER))
        unnumbered = await http.post("/v1/events/sz-reg/entries", headers=P2, json=entry("李明", None))
        for made in (first, second, unnumbered):
            assert made.status_code == 201, made.text
        mine = (await http.get("/v1/events/sz-reg/entries", headers=P1)).json()["entries"]
        assert [e["entry_id"] for e in mine] == [first.json()["entry_id"]]

        people = (await http.get("/v1/organisations/org-a/people", headers=OP, params={"q": "李"})).json()
        by_records = sorted(people["people"], key=lambda p: p["records"])
        assert [p["records"] for p in by_records] == [1, 2], people
        lone, numbered = by_records
        assert numbered["id_number"] == "**************0031" and lone["id_number"] is None
        assert ID_NUMBER not in str(people)

        base = f"/v1/organisations/org-a/people/{numbered['person_id']}"
        assert (await http.get(base, headers=ARB_B)).json()["error"]["code"] == "people_not_yours"
        merge = {"person_id": lone["person_id"], "reason": "同一人，网上报名时未填身份证号"}
        merged = await http.post(f"{base}/merge", headers={**OP, "Idempotency-Key": "m-1"}, json=merge)
        assert merged.status_code == 200, merged.text
        assert len(merged.json()["records"]) == 3
        split = {"person_id": lone["person_id"], "reason": "核实后不是同一人"}
        undone = await http.post(f"{base}/split", headers=OP, json=split)
        assert undone.status_code == 200, undone.text
        history = undone.json()["person"]["history"]
        assert [(a["action"], a["by"]) for a in history] == [("merge", "operator:k1"), ("unmerge", "operator:k1")]

        exported = await http.post(f"{base}/export", headers=OP, json={"reason": "本人查阅申请"})
        assert exported.status_code == 200, exported.text
        assert exported.json()["person"]["id_number"] == ID_NUMBER
        assert {r["registered_by"] for r in exported.json()["records"]} == {"partner-1", "partner-2"}

        stored = await _stored(url)
        assert len(stored) == 2
        for id_enc, birth_enc, _masked in stored:
            assert ID_NUMBER not in str(id_enc) and "1990-05-05" not in str(birth_enc) and birth_enc
        assert sorted(str(row[2]) for row in stored) == ["**************0031", "None"]
