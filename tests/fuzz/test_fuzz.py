"""Fuzzing every service's OpenAPI (issue 12, item 12): schemathesis generates valid and invalid
requests for every operation, with an operator and a partner key, against served processes —
the embedded mode (SQLite, one process) and the distributed mode (PostgreSQL + RabbitMQ, four
processes) — after a small seed event has been played there, so requests also reach existing
events, entries, sections and games. Every answer must be documented: no 5xx, a documented
status, the documented body schema, content type and headers, the common error shape for every
error, and an offset on every timestamp.

``FUZZ_EXAMPLES`` (default in runner.py) bounds the examples per operation and key.
"""

from __future__ import annotations

import asyncio

import pytest

from gomoku_sim.client import SERVICES

from .runner import fuzz_service
from .seeding import KEYS, distributed, embedded_stack_process, seed

FUZZ_KEYS = {"operator": KEYS.operator, "partner": KEYS.partner}


async def _fuzz_all(stack) -> list:
    known = await seed(stack)
    reports = []
    for service in SERVICES:
        reports.append(await asyncio.to_thread(fuzz_service, service, stack.urls[service], FUZZ_KEYS, known=known))
    return reports


def _verdict(mode: str, reports) -> None:
    lines = [f"fuzz ({mode}): " + r.line() for r in reports]
    print("\n" + "\n".join(lines))
    failing = [r for r in reports if r.failed]
    assert reports and all(r.operations and r.cases for r in reports), lines
    assert not failing, "\n".join(lines + [f"{r.service}:\n{r.details()}" for r in failing])


async def test_fuzz_every_service_in_the_embedded_mode(tmp_path):
    async with embedded_stack_process(tmp_path) as stack:
        reports = await _fuzz_all(stack)
        assert "Traceback" not in stack.extras["log"].read_text()
    _verdict("embedded", reports)


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


async def test_fuzz_every_service_on_postgres_and_rabbitmq(tmp_path, databases, amqp_url, bus_namespace):
    async with distributed(tmp_path, amqp_url=amqp_url, databases=databases, namespace=bus_namespace) as stack:
        reports = await _fuzz_all(stack)
    _verdict("distributed", reports)
