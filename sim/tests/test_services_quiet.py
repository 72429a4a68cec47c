"""``ServicesQuiet``: quiet is two idle looks in a row, a moment apart, with unchanged counters."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from gomoku_sim.stack import ServicesQuiet


def idle(settled: int = 0, published: int = 0) -> dict[str, int]:
    return {
        "handling": 0,
        "background": 0,
        "outbox_pending": 0,
        "queue_ready": 0,
        "settled": settled,
        "published": published,
    }


class Scripted:
    """A platform whose services answer /v1/ops/quiet from a script (the last answer repeats)."""

    def __init__(self, script: dict[str, list[Any]]) -> None:
        self.script = {service: iter(answers) for service, answers in script.items()}
        self.last: dict[str, Any] = {}

    async def get(self, service: str, path: str) -> Any:
        assert path == "/v1/ops/quiet"
        answers: Iterator[Any] = self.script[service]
        self.last[service] = next(answers, self.last.get(service))
        answer = self.last[service]
        if isinstance(answer, Exception):
            raise answer
        return answer


async def test_quiet_needs_two_idle_looks_with_the_same_counters():
    """A busy look, then idle looks whose counters still move (work happened between them), then
    two equal ones: five looks. The next wait, a moment later with nothing changed, takes one look."""
    platform = Scripted(
        {
            "gameplay": [{**idle(), "handling": 1}, idle(1, 0), idle(1, 2), idle(1, 2)],
            "pairing": [idle(), idle(), idle(0, 0), idle(0, 1), idle(0, 1)],
        }
    )
    quiet = ServicesQuiet(platform, ("gameplay", "pairing"), gap_s=0.01, poll_s=0.001)  # type: ignore[arg-type]
    await quiet()
    assert quiet.looks == 5
    await asyncio.sleep(quiet.gap_s)
    await quiet()
    assert quiet.looks == 6


async def test_a_service_that_does_not_answer_is_not_quiet_and_the_wait_ends_naming_it():
    platform = Scripted({"gameplay": [idle()], "awards": [ConnectionRefusedError("awards is down")]})
    quiet = ServicesQuiet(platform, ("gameplay", "awards"), gap_s=0.01, poll_s=0.001, timeout_s=0.2)  # type: ignore[arg-type]
    with pytest.raises(TimeoutError, match="awards is down"):
        await quiet()
