"""A service process that dies (SIGKILL) right after committing state + outbox rows.

Run by test_bus_recovery.py as ``python _outbox_victim.py <database_url> <event_id>``.
The schema must exist already. The process never reaches its relay: the committed
outbox row is all that is left of the event.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from conftest import service_metadata  # this directory is sys.path[0] when run as a script
from gomoku_shared.messaging import Message, add_to_outbox


async def main(url: str, event_id: str) -> None:
    _md, state, outbox, _inbox = service_metadata()
    engine = create_async_engine(url)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    async with sessions() as s, s.begin():
        await s.execute(sa.insert(state).values(key="game-1", value=1))
        await add_to_outbox(s, [Message("game.finished", event_id, b'{"result": "1-0"}')], table=outbox)
    # the relay would run next; the process is killed between commit and publish
    print("committed", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
