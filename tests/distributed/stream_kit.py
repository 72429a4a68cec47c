"""Reading the per-event NDJSON stream of the gameplay process in the served tests."""

from __future__ import annotations

import asyncio
import json


async def next_message(lines) -> dict:
    """The next message of an NDJSON stream (empty lines are keep-alives)."""
    async with asyncio.timeout(30):
        while not (line := await anext(lines)):
            pass
    return json.loads(line)


async def read_until(lines, seen: list[dict], done) -> None:
    """Append the stream's messages to `seen` until `done` holds for the last one."""
    while not seen or not done(seen[-1]):
        seen.append(await next_message(lines))
