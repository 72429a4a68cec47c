"""The per-process aggregate cache equals what the database holds (it is reused only when no
other command ran in between, and must never differ from a fresh load)."""

from __future__ import annotations

from datetime import datetime

from registration_kit import ARB, CST, OP, P1, harness, sz_entry

from registration.adapters import repository as repo


async def test_snapshot_after_commands_equals_a_fresh_load(tmp_path):
    async with harness(tmp_path) as h:
        await h.create_sz(
            overrides={"waiting_list": True, "stages": {"online": {"sections": {"men-free": {"cap": 2}}}}}
        )
        ids = [
            (await h.client.post("/v1/events/sz22/entries", headers=P1, json=sz_entry(n))).json()["entry_id"]
            for n in range(1, 5)
        ]
        await h.client.post(
            f"/v1/events/sz22/entries/{ids[0]}/withdraw", headers=P1, json={"reason": "ill", "proof_ref": "DOC-1"}
        )
        h.clock.set(datetime(2022, 11, 4, 9, 0, tzinfo=CST))
        r = await h.client.post(
            "/v1/events/sz22/stages/online/check-in",
            headers=ARB,
            json={"entry_ids": ids[1:3], "documents_shown": ["id_card"], "no_show": [ids[3]]},
        )
        assert r.status_code == 200, r.text
        state = h.service.app.state.registration
        snap = state.snapshots["sz22"]
        async with h.service.runtime.sessionmaker() as session:
            fresh = await repo.load(session, state.configs["sz22"], state.protector)
        for k in fresh.reg.entries:
            a, b = snap.entries[k], fresh.reg.entries[k]
            assert a == b, [
                (f, getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__ if getattr(a, f) != getattr(b, f)
            ]
        assert snap.entries == fresh.reg.entries
        assert list(snap.entries) == list(fresh.reg.entries)
        assert snap.meta == fresh.meta
        assert {e.status.value for e in snap.entries.values()} == {"withdrawn", "accepted", "waitlisted"}
        # a command from elsewhere (here: direct SQL bumping the version) invalidates the cache
        version_before = snap.version
        r = await h.client.get("/v1/events/sz22/entries", headers=OP)
        assert len(r.json()["entries"]) == 4
        assert state.snapshots["sz22"].version == version_before
