"""Connecting to RabbitMQ and declaring the topology through a broker that may be down or
restarting: the first connection is retried while the broker is unreachable, and a declaration
the broker interrupts (a broker restarting closes every connection, with INTERNAL_ERROR or
CONNECTION_FORCED) is made again once the robust connection is back, within the same window."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import aio_pika
import aiormq.exceptions
from aio_pika.abc import AbstractChannel, AbstractRobustConnection

log = logging.getLogger(__name__)

_T = TypeVar("_T")


@dataclass(frozen=True)
class Patience:
    """How long a start-up waits for the broker (``retry_for`` s) and the longest pause between tries."""

    retry_for: float
    max_backoff: float


async def connect(url: str, name: str, reconnect_interval: float, patience: Patience) -> AbstractRobustConnection:
    """The first (robust) connection, named ``name`` on the broker; retried while the broker is
    unreachable (it may start later), never for refused credentials."""
    deadline = time.monotonic() + patience.retry_for
    backoff = 0.2
    while True:
        try:
            return await aio_pika.connect_robust(
                url, reconnect_interval=reconnect_interval, client_properties={"connection_name": name}
            )
        except aio_pika.exceptions.ProbableAuthenticationError:
            raise  # waiting will not fix credentials
        except (ConnectionError, OSError, aio_pika.exceptions.AMQPConnectionError) as exc:
            if time.monotonic() + backoff > deadline:
                raise
            log.warning("RabbitMQ not reachable (%s); retrying in %.1fs", exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(patience.max_backoff, backoff * 2)


async def declaring(
    conn: AbstractRobustConnection,
    what: str,
    step: Callable[[], Awaitable[_T]],
    patience: Patience,
    closed: Callable[[], bool],
) -> _T:
    """``step`` (a declaration of the start-up), made again when the broker closed or lost the
    connection meanwhile: once the robust connection is back, for up to ``retry_for`` s, as an
    unreachable broker is waited for. Any other error (a queue declared with other arguments),
    or the bus closed (``closed()``), raises at once."""
    deadline = time.monotonic() + patience.retry_for
    backoff = 0.2
    while True:
        try:
            return await step()
        except Exception as exc:
            if closed() or not connection_lost(conn, exc) or time.monotonic() + backoff > deadline:
                raise
            log.warning(
                "RabbitMQ connection lost while declaring %s (%s: %s); declaring it again once reconnected",
                what,
                type(exc).__name__,
                exc,
            )
        await asyncio.sleep(backoff)
        backoff = min(patience.max_backoff, backoff * 2)
        try:
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                await conn.connected.wait()
        except TimeoutError:
            raise ConnectionError(
                f"RabbitMQ did not come back within {patience.retry_for:.0f}s while declaring {what}"
            ) from None


def connection_lost(conn: AbstractRobustConnection, exc: BaseException) -> bool:
    """True when ``exc`` says the connection is gone (closed by the broker, reset, or a channel
    used after that), not that the broker refused what was asked (a channel error) or who asked."""
    if isinstance(exc, aiormq.exceptions.AuthenticationError | aiormq.exceptions.ProbableAuthenticationError):
        return False
    if isinstance(exc, ConnectionError | aiormq.exceptions.ChannelInvalidStateError):
        return True
    # aio-pika says RuntimeError("<Connection ...> closed") for a channel asked of a lost connection
    return isinstance(exc, RuntimeError) and not conn.connected.is_set()


async def close_quietly(channel: AbstractChannel) -> None:
    """Close ``channel`` unless it is closed already; a connection gone meanwhile is no error here."""
    if not channel.is_closed:
        with contextlib.suppress(Exception):
            await channel.close()
