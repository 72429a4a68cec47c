"""Identical reads at once share one request (``upstream.Flights``), and each reader still gets an
answer begun after it arrived: a correction committed before a page load shows on it (ADR 0010)."""

from __future__ import annotations

import asyncio

import pytest

from portal.upstream import Flights


class Service:
    """Answers with its state as of when a read began; each read takes a moment."""

    def __init__(self) -> None:
        self.state = 0
        self.reads = 0

    async def read(self) -> int:
        self.reads += 1
        seen = self.state
        await asyncio.sleep(0.01)
        return seen


async def test_many_readers_at_once_cost_at_most_two_requests():
    service, flights = Service(), Flights()
    answers = await asyncio.gather(*(flights.read("k", service.read) for _ in range(100)))
    assert answers == [0] * 100
    assert service.reads <= 2


async def test_a_reader_never_joins_a_request_begun_before_it_arrived():
    service, flights = Service(), Flights()
    first = asyncio.ensure_future(flights.read("k", service.read))
    while not service.reads:
        await asyncio.sleep(0)  # the first read is in flight, as of state 0
    service.state = 1  # a correction commits
    later = await asyncio.gather(*(flights.read("k", service.read) for _ in range(10)))
    assert await first == 0
    assert later == [1] * 10  # one more request, begun after they arrived
    assert service.reads == 2
    # nothing in flight: the next read is a request of its own
    service.state = 2
    assert await flights.read("k", service.read) == 2


async def test_a_failure_reaches_every_reader_of_that_request_and_other_keys_are_apart():
    flights = Flights()

    async def broken() -> int:
        await asyncio.sleep(0.01)
        raise LookupError("404")

    async def fine() -> int:
        return 7

    results = await asyncio.gather(
        flights.read("a", broken), flights.read("a", broken), flights.read("b", fine), return_exceptions=True
    )
    assert isinstance(results[0], LookupError) and isinstance(results[1], LookupError)
    assert results[2] == 7


async def test_a_reader_that_leaves_does_not_end_the_request_of_the_others():
    service, flights = Service(), Flights()
    leaving = asyncio.ensure_future(flights.read("k", service.read))
    staying = asyncio.ensure_future(flights.read("k", service.read))
    await asyncio.sleep(0)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert await staying == 0
