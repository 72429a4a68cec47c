"""Deleting a finished run's broker objects by name (benchmarks, simulations, test fixtures)."""

from __future__ import annotations

from collections.abc import Sequence

import aio_pika


async def delete_objects(url: str, queues: Sequence[str], exchanges: Sequence[str] = ()) -> int:
    """Delete queues and exchanges by name (missing ones are fine); how many queues went."""
    deleted = 0
    conn = await aio_pika.connect(url, timeout=10)
    try:
        channel = await conn.channel()
        for name in queues:
            try:
                await channel.queue_delete(name)
                deleted += 1
            except Exception:  # noqa: BLE001 - an absent queue closes the channel
                channel = await conn.channel()
        for name in exchanges:
            try:
                await channel.exchange_delete(name)
            except Exception:  # noqa: BLE001
                channel = await conn.channel()
    finally:
        await conn.close()
    return deleted


async def delete_namespace(url: str, namespace: str, queues: Sequence[str] = ()) -> int:
    """Delete a finished run's broker objects: the service topology's queues and dead-letter
    queues (plus ``queues``) and both exchanges of ``namespace``. Benchmarks, simulations and
    test fixtures call it when they end: quorum queues left behind pile up on a shared broker
    until it stops answering. Returns how many queues were deleted."""
    from ..topology import CONSUMES

    names = [f"{namespace}.{q}{suffix}" for q in (*CONSUMES, *queues) for suffix in ("", ".dlq")]
    return await delete_objects(url, names, [f"{namespace}.events", f"{namespace}.dlx"])
