from service_kit import OP, P1, harness, sz_entry


async def test_smoke(tmp_path):
    async with harness(tmp_path) as h:
        ev = await h.create_sz()
        r = await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(1))
        print(r.text)
        assert r.status_code == 201
        r = await h.client.get("/v1/events/sz22/entries", headers=P1)
        print(r.text)
        await h.drain()
        print([e.type for e in h.events])
