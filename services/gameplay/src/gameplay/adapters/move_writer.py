"""Group commit for the hot path of the gameplay service (PostgreSQL only).

A move that does not end the game changes one game row and appends one action row and one
stream-event row (plus an idempotency row when the request carried a key). Those writes are
the bulk of all writes during play, so they skip the ORM: concurrent moves are queued and
written by one statement per batch (``unnest`` arrays, the version check inside the same
statement), so that one round trip and one commit (one WAL flush) serve many moves. Each
caller is answered only after the commit of its batch, so nothing acknowledged can be lost.

Batches form by themselves: while ``flushers`` statements are in flight, new moves wait and
go together in the next one; at low load a move is written alone at once.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from gomoku_shared import stall_trace

# one row per move; every write depends on the version check of the game row (``up``), which
# returns what the appends need (no join between the statement's parts). A keyed move whose key is
# stored already is left out by an anti-join (``f``): each key is looked up by its primary key
_SQL = """
WITH v AS (
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[],
                       $7::int[], $8::int[], $9::bigint[], $10::bigint[], $11::text[],
                       $12::bigint[], $13::bigint[], $14::text[], $15::text[], $16::text[],
                       $17::text[], $18::text[], $19::bigint[], $20::bigint[], $21::text[],
                       $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::text[])
    AS v(game_id, version, phase, to_act, black, white, seq, n_actions, clock_first_ms,
         clock_second_ms, clock_running, clock_since_ms, flag_due_ms, draw_offer_by,
         kind, role, player_id, data, at_ms, think_ms, clock, round_key, event_data,
         idem_principal, idem_key, idem_fingerprint, idem_response)
), f AS (
  -- a request whose key is stored already (a retry, a key reused for another request, or an
  -- expired key) is not applied here: the caller looks the key up on the ORM path; this spares
  -- every keyed move a lookup of its own
  SELECT * FROM v WHERE v.idem_key IS NULL
  UNION ALL
  SELECT * FROM v WHERE v.idem_key IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM idempotency_keys k WHERE k.principal = v.idem_principal AND k.key = v.idem_key)
), up AS (
  UPDATE games g SET version = v.version + 1, phase = v.phase, to_act = v.to_act, black = v.black,
         white = v.white, seq = v.seq, n_actions = v.n_actions, clock_first_ms = v.clock_first_ms,
         clock_second_ms = v.clock_second_ms, clock_running = v.clock_running,
         clock_since_ms = v.clock_since_ms, flag_due_ms = v.flag_due_ms, draw_offer_by = v.draw_offer_by
  FROM f AS v WHERE g.game_id = v.game_id AND g.version = v.version
  RETURNING g.game_id, v.n_actions AS idx, v.kind, v.role, v.player_id, v.data, v.at_ms, v.think_ms,
            v.clock, v.seq AS event_seq, v.round_key, v.event_data, v.idem_principal, v.idem_key,
            v.idem_fingerprint, v.idem_response
), a AS (
  INSERT INTO game_actions (game_id, idx, kind, role, player_id, data, at_ms, think_ms, clock)
  SELECT up.game_id, up.idx, up.kind, up.role, up.player_id, up.data::json, up.at_ms, up.think_ms, up.clock::json
  FROM up
), e AS (
  INSERT INTO game_events (game_id, seq, round_key, kind, data, at_ms)
  SELECT up.game_id, up.event_seq, up.round_key, 'action', up.event_data::json, up.at_ms
  FROM up
), k AS (
  -- no ON CONFLICT: a key stored meanwhile by a concurrent request (another replica) fails
  -- the whole statement, and every move of the batch is judged again
  INSERT INTO idempotency_keys (principal, key, fingerprint, status, response, created_ms)
  SELECT up.idem_principal, up.idem_key, up.idem_fingerprint, 200, up.idem_response::json, up.at_ms
  FROM up WHERE up.idem_key IS NOT NULL
)
SELECT game_id FROM up
"""

#: the game row's columns a move sets (besides its version)
GAME_COLUMNS = (
    "phase",
    "to_act",
    "black",
    "white",
    "seq",
    "n_actions",
    "clock_first_ms",
    "clock_second_ms",
    "clock_running",
    "clock_since_ms",
    "flag_due_ms",
    "draw_offer_by",
)
#: the statement's arrays, in the order of its parameters
_COLUMNS = (
    "game_id",
    "version",
    *GAME_COLUMNS,
    "kind",
    "role",
    "player_id",
    "data",
    "at_ms",
    "think_ms",
    "clock",
    "round_key",
    "event_data",
    "idem_principal",
    "idem_key",
    "idem_fingerprint",
    "idem_response",
)
#: where the JSON values are in a row (sent as text, cast by the statement)
_JSON_AT = tuple(_COLUMNS.index(name) for name in ("data", "clock", "event_data", "idem_response"))
#: compact JSON, the encoder made once (``json.dumps`` with options builds one per call)
_compact = json.JSONEncoder(separators=(",", ":")).encode


#: the writer's sessions plan with index lookups only. asyncpg keeps the statement prepared for
#: the connection's life, and PostgreSQL may switch it to a generic plan costed with the
#: statistics of that moment: prepared while ``idempotency_keys`` or ``games`` were small, that
#: plan scanned the whole table on every batch (a hashed NOT EXISTS over a sequential scan),
#: a cost growing with every key and game stored. A batch touches at most ``max_batch`` rows of
#: each table by primary key, so nested loops over index lookups are right at every size
#: (issue 33; ``test_move_writer_plans.py`` asks PostgreSQL for the plan itself)
SESSION_SETTINGS: dict[str, str] = {"enable_seqscan": "off", "enable_hashjoin": "off", "enable_mergejoin": "off"}


async def _no_reset(_conn) -> None:
    return None


def _fail(batch: list[tuple[MoveWrite, asyncio.Future]], exc: Exception) -> None:
    for _, fut in batch:
        if not fut.done():
            fut.set_exception(exc)


@dataclass
class MoveWrite:
    """The writes of one move; ``version`` is the game version the move was judged on."""

    values: dict[str, Any]

    def row(self) -> list:
        values = self.values
        row = [values[name] for name in _COLUMNS]
        for index in _JSON_AT:
            if row[index] is not None:
                row[index] = _compact(row[index])
        return row


class PgMoveWriter:
    def __init__(self, dsn: str, *, flushers: int = 4, max_batch: int = 256, linger_s: float = 0.0) -> None:
        self.dsn = dsn
        self.linger_s = linger_s
        self.flushers = flushers
        self.max_batch = max_batch
        self._pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()
        self._pending: list[tuple[MoveWrite, asyncio.Future]] = []
        self._running = 0
        self.batches = 0
        self.moves = 0
        self.stale = 0  # moves refused by the version check
        self._size: Any = None
        self._seconds: Any = None

    @classmethod
    def for_database(cls, database_url: str, **options: Any) -> PgMoveWriter:
        """A writer on the service's database (its SQLAlchemy URL, asyncpg's driver name dropped)."""
        return cls(make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False), **options)

    def instrument(self, registry) -> None:
        """Export batch sizes and statement times to the service's Prometheus registry."""
        from prometheus_client import Histogram

        self._size = Histogram(
            "gameplay_move_batch_size",
            "moves per group-committed statement",
            registry=registry,
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
        )
        self._seconds = Histogram(
            "gameplay_move_batch_seconds",
            "time of one group-committed statement",
            registry=registry,
            buckets=(0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
        )

    async def _get_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            async with self._pool_lock:
                if self._pool is None:
                    # no reset on release: the writer leaves no session state behind, and the
                    # default reset is one more round trip per batch
                    self._pool = await asyncpg.create_pool(
                        self.dsn,
                        min_size=1,
                        max_size=self.flushers,
                        reset=_no_reset,
                        server_settings=SESSION_SETTINGS,
                    )
        return self._pool

    async def write(self, move: MoveWrite) -> bool:
        """Write one move; False when the game's version moved on or its idempotency key is
        stored already (judge again on the database's state, where the key is looked up)."""
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((move, fut))
        if self._running < self.flushers:
            self._running += 1
            asyncio.get_running_loop().create_task(self._flush())
        return await fut

    def _take(self) -> list[tuple[MoveWrite, asyncio.Future]]:
        """The next batch: at most one move per game (a later one waits: it was judged on the
        state the earlier one changes, so it fails its version check and is judged again), and
        at most one per idempotency key (two in one statement would fail it as a whole)."""
        batch: list[tuple[MoveWrite, asyncio.Future]] = []
        rest: list[tuple[MoveWrite, asyncio.Future]] = []
        seen: set[Any] = set()
        for item in self._pending:
            values = item[0].values
            game_id = values["game_id"]
            key = (values["idem_principal"], values["idem_key"]) if values["idem_key"] is not None else None
            if len(batch) < self.max_batch and game_id not in seen and (key is None or key not in seen):
                seen.add(game_id)
                if key is not None:
                    seen.add(key)
                batch.append(item)
            else:
                rest.append(item)
        self._pending = rest
        return batch

    async def _flush(self) -> None:
        try:
            while self._pending:
                if self.linger_s:
                    # gather the moves arriving meanwhile: fewer, larger statements cost less
                    # CPU per move (on a busy machine that is what keeps the latency tail short)
                    await asyncio.sleep(self.linger_s)
                batch = self._take()
                try:
                    applied = await self._write_retryable([m for m, _ in batch])
                except Exception as exc:  # noqa: BLE001 - the waiters learn of the failure
                    if len(batch) == 1:
                        _fail(batch, exc)
                    else:
                        # one move the database refuses (a data error, a bug) fails the statement
                        # for all: each is written alone, so only that move's player gets the error
                        for item in batch:
                            await self._settle([item])
                    continue
                self._answer(batch, applied)
        finally:
            self._running -= 1

    async def _write_retryable(self, moves: list[MoveWrite]) -> set[str]:
        try:
            return await self._write(moves)
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
            return set()  # two replicas locked the same games in another order: judge again
        except asyncpg.UniqueViolationError:
            return set()  # a key stored meanwhile by another replica: judge again

    async def _settle(self, batch: list[tuple[MoveWrite, asyncio.Future]]) -> None:
        try:
            applied = await self._write_retryable([m for m, _ in batch])
        except Exception as exc:  # noqa: BLE001 - the waiter learns of the failure
            _fail(batch, exc)
            return
        self._answer(batch, applied)

    def _answer(self, batch: list[tuple[MoveWrite, asyncio.Future]], applied: set[str]) -> None:
        for move, future in batch:
            written = move.values["game_id"] in applied
            self.stale += not written
            if not future.done():
                future.set_result(written)

    async def _write(self, moves: list[MoveWrite]) -> set[str]:
        rows = [m.row() for m in moves]
        columns = [list(col) for col in zip(*rows)]
        pool = await self._get_pool()
        started = time.perf_counter()
        traced = time.monotonic() if stall_trace.ENABLED else 0.0
        async with pool.acquire() as conn:
            result = await conn.fetch(_SQL, *columns)
        stall_trace.note_span("batch", traced, len(moves), len(self._pending))
        self.batches += 1
        self.moves += len(moves)
        if self._size is not None:
            self._size.observe(len(moves))
            self._seconds.observe(time.perf_counter() - started)
        return {r[0] for r in result}

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
