"""The whole-platform fuzz run (see test_fuzz.py) in the distributed mode: every service's
OpenAPI fuzzed with the operator's, a partner's and an arbiter's keys against served processes on
PostgreSQL and RabbitMQ. A module of its own, so that two workers run the two modes side by side."""

from __future__ import annotations

import pytest

from gomoku_sim.client import SERVICES

from .seeding import distributed
from .verdict import FUZZ_KEYS, fuzz_all, verdict


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


async def test_fuzz_every_service_on_postgres_and_rabbitmq(tmp_path, databases, amqp_url, bus_namespace):
    """Issue 29: every surface fuzzed with the operator's, a partner's and an arbiter's keys (no
    partners service here: the staff token is fuzzed in the embedded mode)."""
    async with distributed(tmp_path, amqp_url=amqp_url, databases=databases, namespace=bus_namespace) as stack:
        reports = await fuzz_all(stack, FUZZ_KEYS)
    verdict("distributed", reports)
