"""AWD-8, the audit of staff publications of a section over HTTP (issue 14: every list pages by
cursor): oldest first, ``limit`` per page and ``next_cursor`` to the next page, a cursor it did
not give out refused with a 400 in the common error shape; staff only."""

from __future__ import annotations

import pytest
from awards_kit import Harness, completed, configured, da_open

from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.settings import ServiceSettings

KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa"
ARB = {"x-api-key": "arb-key"}
OP = {"x-api-key": "op-key"}
SECTION = "/v1/events/da-2023/sections/open"


@pytest.fixture
async def da(tmp_path):
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite", API_KEYS=KEYS)
    harness = await Harness(settings, bus=InMemoryEventBus()).start()
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "open", da_open(), name="Open"))
    await harness.settle()
    try:
        yield harness.client
    finally:
        await harness.stop()


async def test_awd8_the_staff_actions_of_a_section_page_by_cursor_oldest_first(da):
    for headers in (ARB, OP, ARB):
        r = await da.post(f"{SECTION}/publish", headers=headers)
        assert r.status_code == 200 and r.json()["published"] is False, r.text  # nothing changed
    path = f"{SECTION}/staff-actions"
    whole = (await da.get(path, headers=ARB)).json()
    # issue 29: who asked (a key: its id, never the key), the arbiter's key twice, the operator's between
    ids = [a["actor_id"] for a in whole["actions"]]
    assert ids[0] == ids[2] != ids[1] and [a["actor"] for a in whole["actions"]] == ids
    assert not {"arb-key", "op-key"} & set(ids)
    assert whole["next_cursor"] is None
    first = (await da.get(path, headers=ARB, params={"limit": 2})).json()
    assert first["actions"] == whole["actions"][:2] and first["next_cursor"]
    second = (await da.get(path, headers=ARB, params={"limit": 2, "cursor": first["next_cursor"]})).json()
    assert second["actions"] == whole["actions"][2:] and second["next_cursor"] is None
    refused = await da.get(path, headers=ARB, params={"limit": 2, "cursor": "bm9uc2Vuc2U"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_cursor"
    assert (await da.get(path)).status_code == 401
    assert (await da.get(path, headers={"x-api-key": "pa-key"})).status_code == 403
