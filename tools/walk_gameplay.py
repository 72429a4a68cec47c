"""Gameplay's use cases for ``use_case_walk.py``: a player's plain move over HTTP (the lean lane,
the group-commit writer) and the move that makes five (through the ORM, until ``game.finished``
is in the outbox). PostgreSQL only (``DATABASE_URL``): the group-commit writer runs there, so the
walk makes a scratch database and drops it afterwards. The game (free rules, one game) is created
from ``round.paired`` and joined by both players, untraced; black plays down the h file, white
along the first row; only the chosen move is traced."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

from walk_record import Walk

REPOSITORY = "adapters/repositories.py"
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
GAME = "EV.main.S1.r1.p1.g1"
#: alternate black (alice) and white (bob) moves: the ninth makes five for black
MOVES = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
#: the plain move the ``move`` walk traces (the fifth: a game under way, cached by the process)
PLAIN = 4


async def walk_move(database_url: str | None = None) -> Walk:
    """The walk of one plain move (the fifth) from the HTTP request to its answer."""
    return await _walk(PLAIN, database_url)


async def walk_winning_move(database_url: str | None = None) -> Walk:
    """The walk of the move that makes five from the HTTP request to its answer."""
    return await _walk(len(MOVES) - 1, database_url)


@contextlib.asynccontextmanager
async def scratch_database(server_url: str) -> AsyncIterator[str]:
    """A new empty database on the server of ``server_url`` (a SQLAlchemy URL), dropped after."""
    import asyncpg
    from sqlalchemy.engine import make_url

    server = make_url(server_url)
    name = f"walk_{uuid.uuid4().hex[:12]}"
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(admin)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            await connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def _walk(traced: int, database_url: str | None) -> Walk:
    server = database_url or os.environ.get("DATABASE_URL", "")
    if not server.startswith("postgresql"):
        raise SystemExit("the gameplay walks need PostgreSQL: set DATABASE_URL=postgresql+asyncpg://...")
    async with scratch_database(server) as url:
        return await _walk_on(traced, url)


async def _walk_on(traced: int, url: str) -> Walk:
    import httpx

    import gameplay
    from gameplay.bootstrap import build
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.contracts import envelope_for
    from gomoku_shared.migrate import upgrade_async
    from gomoku_shared.settings import ServiceSettings

    clock = FakeClock(START)
    settings = ServiceSettings(DATABASE_URL=url, AMQP_URL=None, API_KEYS="op-key=operator")
    await upgrade_async("gameplay", url)
    service = build(settings, clock=clock)
    runtime = service.runtime
    async with runtime.transaction() as uow:
        await runtime._handlers["round.paired"](uow, envelope_for(_round_paired(), correlation_id="EV"))
    walk = Walk(str(Path(gameplay.__file__).parent) + "/", REPOSITORY)
    transport = httpx.ASGITransport(app=service.app)
    try:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://walk", headers={"x-api-key": "op-key"}
        ) as client:

            async def act(action: str, player: str, **body: str) -> None:
                answer = await client.post(f"/v1/games/{GAME}/{action}", json={"player_id": player, **body})
                assert answer.status_code == 200, answer.text

            await act("join", "alice")
            await act("join", "bob")
            for number, point in enumerate(MOVES[: traced + 1]):
                player = "alice" if number % 2 == 0 else "bob"
                if number == traced:
                    await walk.trace(act("move", player, point=point))
                else:
                    await act("move", player, point=point)
        finished = await _finished_in_outbox(runtime)
    finally:
        writer = (service.extras or {})["games"].writer
        if writer is not None:
            await writer.close()
        await runtime.engine.dispose()
    winning = traced == len(MOVES) - 1
    plain_moves = traced if winning else traced + 1
    assert writer is not None and writer.moves == plain_moves, "every plain move (and no other) group-committed"
    assert finished == winning, "game.finished is in the outbox after the winning move only"
    return walk


def _round_paired():
    from gomoku_shared.contracts.common import ClockSpec, Ruleset
    from gomoku_shared.contracts.events import PairingSpec, RoundPaired

    spec = PairingSpec(
        pairing_id="p1",
        first="alice",
        second="bob",
        games=1,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
    )
    return RoundPaired(
        event_code="EV", stage="main", section_id="S1", round=1, starts_at=START, no_show_minutes=15, pairings=[spec]
    )


async def _finished_in_outbox(runtime) -> bool:
    from sqlalchemy import text

    async with runtime.engine.connect() as connection:
        rows = await connection.execute(text("SELECT count(*) FROM outbox WHERE routing_key = 'game.finished'"))
        return bool(rows.scalar_one())
