"""REG-11: ID numbers and documents are personal data — encrypted at rest, masked in every
response, absent from every log line and event."""
from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path

from service_kit import ARB, CST, OP, P1, P2, harness, id_number, player, sz_entry


async def test_reg11_no_response_log_line_event_or_stored_byte_holds_a_full_id_number(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    responses = []

    async with harness(tmp_path) as h:
        async def call(method, url, **kw):
            r = await h.client.request(method, url, **kw)
            responses.append(r)
            return r

        await h.create_sz()
        first = (await call("POST", "/v1/events/sz22/entries", headers=P1, json=sz_entry(1))).json()
        await call("POST", "/v1/events/sz22/entries", headers={**P1, "Idempotency-Key": "k"}, json=sz_entry(2))
        await call("POST", "/v1/events/sz22/entries", headers={**P1, "Idempotency-Key": "k"}, json=sz_entry(2))
        await call("POST", "/v1/events/sz22/entries/bulk", headers=P2,
                   json={"entries": [sz_entry(3), sz_entry(4, section="women-free")]})   # refused row
        await call("POST", "/v1/events/sz22/entries/bulk", headers=P2, json={"entries": [sz_entry(3)]})
        mismatch = sz_entry(1)
        mismatch["player"] = {**mismatch["player"], "name": "Impostor"}
        await call("POST", "/v1/events/sz22/entries", headers=P2, json=mismatch)
        bad = sz_entry(5)
        bad["player"] = {**bad["player"], "id_number": id_number(5) + "!"}
        assert (await call("POST", "/v1/events/sz22/entries", headers=P1, json=bad)).status_code == 422
        await call("POST", "/v1/events/sz22/evidence", headers=P1, json={
            "entry_id": first["entry_id"], "kind": "student_status", "document_ref": "STUDENT-CARD-777",
            "region": "Shenzhen"})
        for url in ("/v1/events/sz22/entries", f"/v1/events/sz22/entries/{first['entry_id']}",
                    "/v1/events/sz22/evidence", "/v1/events/sz22/units", "/v1/events/sz22/stages/online"):
            for key in (OP, ARB, P1, P2):
                await call("GET", url, headers=key)
        await call("POST", f"/v1/events/sz22/entries/{first['entry_id']}/withdraw", headers=P1,
                   json={"reason": "moved away", "proof_ref": "LETTER-12345"})
        h.clock.set(datetime(2022, 11, 4, tzinfo=CST))
        await call("POST", "/v1/events/sz22/stages/online/close", headers=OP,
                   json={"format_choices": {"men-free": {"kind": "swiss"}}})
        await h.drain()
        listed = (await h.client.get("/v1/events/sz22/entries", headers=OP)).json()["entries"]
        events = [e.model_dump_json() for e in h.events]
        db_bytes = b"".join(p.read_bytes() for p in Path(tmp_path).glob("registration.sqlite*"))

    secrets = [id_number(n) for n in (1, 2, 3, 4, 5)] + [id_number(5) + "!"]
    documents = ["STUDENT-CARD-777", "LETTER-12345", "HK-000001", "POL-000001"]
    assert listed and all(p["id_number"] and "*" in p["id_number"] for e in listed for p in e["players"])
    assert any(e["players"][0]["id_number"] == "4403**********0001" for e in listed)
    for r in responses:
        for secret in secrets:
            assert secret not in r.text, (r.request.url, r.text)
        for doc in documents:
            assert doc not in r.text, (r.request.url, r.text)
    for record in caplog.records:
        line = record.getMessage() + str(record.args or "") + str(record.exc_text or "")
        for secret in secrets:
            assert secret not in line
    for text in events:
        for secret in secrets + documents:
            assert secret not in text
    # encrypted at rest: neither the ID numbers nor the document references appear in the file
    for secret in secrets[:4] + documents:
        assert secret.encode() not in db_bytes


async def test_reg11_data_key_is_required_to_read_people_back(tmp_path):
    """The stored ID numbers decrypt only with the same DATA_KEY."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from registration.adapters.protection import DataProtector, MissingDataKey
    from service_kit import DATA_KEY

    async with harness(tmp_path) as h:
        await h.create_sz()
        await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1, **{}))
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path}/registration.sqlite")
    async with engine.connect() as conn:
        row = (await conn.execute(sa.text("select id_number_enc, id_number_masked from people"))).first()
    await engine.dispose()
    assert DataProtector(DATA_KEY).decrypt(row[0]) == id_number(1)
    assert row[1] == "4403**********0001"
    try:
        DataProtector("another-key").decrypt(row[0])
    except MissingDataKey:
        pass
    else:
        raise AssertionError("decrypted with the wrong key")
    assert player(1)["id_number"] == id_number(1)
