"""A pooled PostgreSQL connection is pinged before use only when it has been idle a while.

SQLAlchemy's ``pool_pre_ping`` pings at every checkout; with asyncpg that ping is three round
trips (BEGIN, an empty statement, ROLLBACK), so a two-statement read paid for five. The
connections a ping finds dead are the ones left idle across a database restart or a network
cut; one back in the pool a moment ago was alive then. So a connection is pinged when it was
checked in more than ``PING_IDLE_S`` ago. A connection that dies in between fails its first
statement as before a ping would have, and SQLAlchemy then invalidates the whole pool, so
the next checkouts connect afresh.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine

#: seconds a connection may have been idle in the pool and still be used without a ping first
PING_IDLE_S = 1.0

_IDLE_SINCE = "idle_since"  # the key in a connection record's info (cleared with its connection)


def ping_idle_connections(engine: AsyncEngine) -> None:
    """Ping a connection at checkout when it was idle for more than ``PING_IDLE_S`` (a dead
    one is replaced: the pool retries the checkout with a new connection)."""
    pool, dialect = engine.sync_engine.pool, engine.sync_engine.dialect

    @event.listens_for(pool, "checkin")
    def _checked_in(dbapi_connection: Any, record: Any) -> None:
        if dbapi_connection is not None:  # None: the connection was invalidated
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)  # None: connected for this checkout
        if since is None or time.monotonic() - since <= PING_IDLE_S:
            return
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception as error:  # the driver's own error for a dead connection
            raise DisconnectionError("the pooled connection did not answer a ping") from error
        if not alive:
            raise DisconnectionError("the pooled connection did not answer a ping")
