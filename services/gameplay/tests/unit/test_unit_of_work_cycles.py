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


async def test_reads_leave_the_cached_game_in_place(gp):
    """Issue 33: a view and a round's boards leave the game this process cached where it is (they
    used to take it out and put it back after their own awaits: a move meanwhile found nothing
    cached and replayed its whole log, and with spectators reading every move did)."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob")))
    gid = (await gp.api.get("/v1/games")).json()["games"][0]["game_id"]
    await gp.api.join_both(gid, "alice", "bob")
    assert (await gp.api.act(gid, "move", "alice", point="h8")).status_code == 200
    cache = gp.service.extras["games"].units.cache
    cached = cache.peek(gid)
    assert cached is not None
    view = (await gp.api.get(f"/v1/games/{gid}")).json()
    boards = (await gp.api.get("/v1/rounds/EV/S1/1/boards")).json()["games"]
    assert view["moves"] == ["h8"] and [b["moves"] for b in boards] == [["h8"]]
    assert cache.peek(gid) is cached  # the same object: neither read took it out or replaced it
    assert (await gp.api.act(gid, "move", "bob", point="a1")).status_code == 200
    assert (await gp.api.get(f"/v1/games/{gid}")).json()["moves"] == ["h8", "a1"]
