"""A player action leaves no reference cycle behind: its unit of work, the repositories and the
transaction block are freed by reference counting as the action ends. As a cycle (each repository
held the unit of work that held it), every move left seven objects for the collector, whose
young-generation passes then took 40-80 ms of CPU under load: the gameplay tail (issue 33)."""

from __future__ import annotations

import gc

import pytest
from gameplay_kit import pairing, round_paired

pytestmark = pytest.mark.slow

PER_ACTION = {"GameplayUnitOfWork", "_Session", "_Transaction", "GameRepository", "KeyRepository", "EventLog"}


async def test_moves_leave_no_unit_of_work_for_the_collector(gp):
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = (await gp.api.get("/v1/games")).json()["games"][0]["game_id"]
    await gp.api.join_both(gid, "alice", "bob")
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage, not freed
    try:
        for i, point in enumerate(["h8", "a1", "i8", "a2"]):
            r = await gp.api.act(gid, "move", "alice" if i % 2 == 0 else "bob", point=point)
            assert r.status_code == 200, r.text
        await gp.api.game(gid)  # a read too
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not left & PER_ACTION, sorted(left & PER_ACTION)
