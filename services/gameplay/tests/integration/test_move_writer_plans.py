"""The group-commit move writer's statement is planned as index lookups whatever the tables held
when it was first planned (issue 33, goal 1).

asyncpg keeps a prepared statement for the connection's life, and after five executions
PostgreSQL may switch it to a generic plan chosen with the statistics of that moment. Prepared
while ``idempotency_keys`` was empty and unanalysed, the generic plan of the idempotency check
was ``NOT (hashed SubPlan)`` over a sequential scan of the whole table: every batch read every
key stored so far, a cost quadratic over an event. The test asks PostgreSQL for the generic plan
on empty, unanalysed tables, in the writer's own session settings, and again after 20,000 keys
and an ANALYZE; and runs the statement to see how many buffers one batch touches at each size."""

from __future__ import annotations

import json
import re

import asyncpg
import pytest

from gameplay.adapters import move_writer
from gomoku_shared.migrate import upgrade_async


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


def _nodes(plan: dict) -> list[dict]:
    found = [plan]
    for child in plan.get("Plans", []):
        found.extend(_nodes(child))
    return found


async def _generic_plan(conn: asyncpg.Connection, analyze: bool, args: list) -> dict:
    """The plan PostgreSQL keeps for the prepared statement (forced generic, as after the fifth
    execution); with ``analyze`` it is executed too, for its buffer counts."""
    await conn.execute("SET plan_cache_mode = force_generic_plan")
    name = "mw_analyze" if analyze else "mw_plan"
    await conn.execute(f"PREPARE {name} AS {move_writer._SQL}")
    types = dict(re.findall(r"\$(\d+)::(\w+)\[\]", move_writer._SQL))
    literals = []
    for i, values in enumerate(args, start=1):
        text = await conn.fetchval(f"SELECT quote_literal($1::{types[str(i)]}[]::text)", values)
        literals.append(f"{text}::{types[str(i)]}[]")
    options = "ANALYZE, BUFFERS, FORMAT JSON" if analyze else "FORMAT JSON"
    raw = await conn.fetchval(f"EXPLAIN ({options}) EXECUTE {name}({', '.join(literals)})")
    return json.loads(raw)[0]


def _batch(n: int, offset: int) -> list:
    """``n`` keyed moves on games g<offset>.. at version 0 (games that exist)."""
    rows = []
    for i in range(offset, offset + n):
        values = {name: None for name in move_writer._COLUMNS}
        values.update(
            game_id=f"g{i}",
            version=0,
            phase="play",
            to_act="second",
            black="a",
            white="b",
            clock_first_ms=60_000,
            clock_second_ms=60_000,
            clock_running="second",
            clock_since_ms=1,
            flag_due_ms=60_001,
            seq=1,
            n_actions=1,
            kind="move",
            role="first",
            data={"point": "h8"},
            at_ms=1,
            think_ms=1,
            clock={},
            round_key="r",
            event_data={},
            idem_principal="partner:p1:k1",
            idem_key=f"key-{i}",
            idem_fingerprint="f",
            idem_response={},
        )
        rows.append(move_writer.MoveWrite(values).row())
    return [list(col) for col in zip(*rows)]


async def _games(conn: asyncpg.Connection, first: int, n: int) -> None:
    """``n`` games g<first>.. at version 0: every required column filled by its type."""
    columns = await conn.fetch(
        """SELECT column_name, data_type FROM information_schema.columns
           WHERE table_name = 'games' AND is_nullable = 'NO' AND column_default IS NULL"""
    )
    by_type = {"integer": "0", "bigint": "0", "boolean": "false", "json": "'{}'", "jsonb": "'{}'"}
    values = {c["column_name"]: by_type.get(c["data_type"], "'x'") for c in columns}
    values.update(game_id="'g' || i", version="0", status="'active'")
    names = ", ".join(values)
    await conn.execute(
        f"INSERT INTO games ({names}) SELECT {', '.join(values.values())} FROM generate_series($1::int, $2::int) AS i",
        first,
        first + n - 1,
    )


@pytest.mark.parametrize("stored_keys", [0, 20_000])
async def test_issue33_the_move_statement_is_index_lookups_for_any_table_size(fresh_database, stored_keys):
    url = await fresh_database()
    await upgrade_async("gameplay", url)
    conn = await asyncpg.connect(_dsn(url), server_settings=move_writer.SESSION_SETTINGS)
    try:
        await _games(conn, 0, 64)
        if stored_keys:
            await conn.execute(
                """INSERT INTO idempotency_keys (principal, key, fingerprint, status, response, created_ms)
                   SELECT 'partner:p1:k1', 'old-' || i, 'f', 200, '{}', 0 FROM generate_series(1, $1::int) AS i""",
                stored_keys,
            )
            await conn.execute("ANALYZE idempotency_keys")
        plan = (await _generic_plan(conn, analyze=False, args=_batch(64, 0)))["Plan"]
        # each row of the batch looks its game and its key up: every read of the two tables is
        # an index scan with a condition on the row's values, never a scan of a whole table
        # (a sequential scan, or a full index scan feeding a hash)
        reads = [
            n
            for n in _nodes(plan)
            if n.get("Relation Name") in ("games", "idempotency_keys") and "Scan" in n["Node Type"]
        ]
        assert {n["Relation Name"] for n in reads} == {"games", "idempotency_keys"}, plan
        for node in reads:
            assert node["Node Type"] in ("Index Scan", "Index Only Scan"), node
            assert "Index Cond" in node, node

        # executed: one batch of 64 moves touches about the same pages with 0 or 20,000 keys stored
        executed = await _generic_plan(conn, analyze=True, args=_batch(64, 0))
        touched = executed["Plan"]["Shared Hit Blocks"] + executed["Plan"]["Shared Read Blocks"]
        assert touched < 64 * 16, touched  # per move: the game row and its index, the key, the two appends
    finally:
        await conn.close()
