"""A game's view read on PostgreSQL (issue 33, spectators): the portal's most frequent read of
gameplay is one statement outside a transaction (the game's row with its pairing's arbiter
decision), planned as index lookups whatever the tables held when it was prepared."""

from __future__ import annotations

import json

import asyncpg
from gameplay_kit import decided, eventually, pairing, round_paired
from sqlalchemy import event
from sqlalchemy.dialects import postgresql

from gameplay.adapters import repositories


def _nodes(plan: dict) -> list[dict]:
    found = [plan]
    for child in plan.get("Plans", []):
        found.extend(_nodes(child))
    return found


async def test_the_view_read_is_planned_as_index_lookups_on_empty_unanalysed_tables(cluster_factory):
    cluster = await cluster_factory()
    sql = str(repositories._READ_WITH_DECISION.compile(dialect=postgresql.asyncpg.dialect()))
    conn = await asyncpg.connect(cluster.url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute("SET plan_cache_mode = force_generic_plan")  # as asyncpg's kept statement
        await conn.execute(f"PREPARE view_read AS {sql}")
        plan = json.loads(await conn.fetchval("EXPLAIN (FORMAT JSON) EXECUTE view_read('g1')"))[0]["Plan"]
    finally:
        await conn.close()
    scans = {(node["Node Type"], node.get("Relation Name")) for node in _nodes(plan) if "Relation Name" in node}
    assert scans == {("Index Scan", "games"), ("Index Scan", "arbiter_decisions")}, plan


async def test_a_view_read_is_one_statement_and_shows_the_arbiters_decision(cluster_factory):
    """PAIR-11: the decision on the pairing reaches the view from the same statement."""
    cluster = await cluster_factory()
    api = cluster.clients[0]
    await cluster.publish(round_paired(pairing("p1", "alice", "bob", base_s=60)))

    async def listed():
        games = (await api.get("/v1/games")).json()["games"]
        return games or None

    [game] = await eventually(listed)
    gid = game["game_id"]
    await api.join_both(gid, "alice", "bob")
    assert (await api.act(gid, "move", "alice", point="h8")).status_code == 200
    statements: list[str] = []
    engine = cluster.replicas[0].runtime.engine.sync_engine

    def seen(conn, cursor, statement, parameters, context, executemany):
        if gid in str(parameters):  # not the sweeper's statements, which run meanwhile
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        view = await api.game(gid)  # the game is in the replica's cache: its row alone is read
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert len(statements) == 1 and "arbiter_decisions" in statements[0], statements
    assert view["moves"] == ["h8"] and view["decision"] is None

    await cluster.publish(decided("p1", "alice", "bob", "first_wins", sequence=3))

    async def closed():
        seen_view = await api.game(gid)
        return seen_view if seen_view["status"] == "finished" else None

    view = await eventually(closed)
    assert (view["decision"]["outcome"], view["decision"]["reason"], view["decision"]["sequence"]) == (
        "first_wins",
        "arbiter",
        3,
    ), view["decision"]
    assert view["decision"]["decided_at"].startswith("20")
