"""Background loops that stop by themselves: between two rounds of work a loop waits with
``idle``, which returns at once when the service is stopping (its ``stop`` event is set), and
the loop then returns. The runtime cancels a loop only when it has not returned within its
grace period (``runtime.BACKGROUND_STOP_S``): a cancel landing in the middle of the loop's work
(a query, a connection being returned to the pool) is what this avoids.
"""

from __future__ import annotations

import asyncio
import contextlib


def stopped(stop: asyncio.Event | None) -> bool:
    """Has the service asked its loops to stop (never, without a ``stop`` event)?"""
    return stop is not None and stop.is_set()


async def idle(stop: asyncio.Event | None, seconds: float, wake: asyncio.Event | None = None) -> bool:
    """Wait ``seconds`` at the most, less when ``stop`` or ``wake`` is set; True when the loop
    is to return (``stop`` is set)."""
    if stopped(stop):
        return True
    events = [event for event in (stop, wake) if event is not None]
    if not events:
        await asyncio.sleep(seconds)
    elif len(events) == 1:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await events[0].wait()
    else:
        waits = [asyncio.ensure_future(event.wait()) for event in events]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
    return stopped(stop)
