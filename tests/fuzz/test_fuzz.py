"""Fuzzing every service's OpenAPI (issue 12, item 12): schemathesis generates valid and invalid
requests for every operation, with each role's credentials, against served processes —
the embedded mode (SQLite, one process) and the distributed mode (PostgreSQL + RabbitMQ, four
processes) — after a small seed event has been played there, so requests also reach existing
events, entries, sections and games. Every answer must be documented: no 5xx, a documented
status, the documented body schema, content type and headers, the common error shape for every
error, and an offset on every timestamp.

Credentials (issue 29, "every HTTP surface fuzzed with each role's credentials"): the
operator's, a partner's and an arbiter's API keys in both modes, and in the embedded mode also a
staff account's access token (``seeding.StaffCredential``: a person invited through the partners
service's identity API, holding every event role in the organisation that owns the seed events).
The distributed mode runs the four competition services without the partners service that signs people in
and serves the keys their tokens are verified with, so the staff token is fuzzed in the embedded
mode only (where every service verifies it with the partners app's keys, as deployed); the
organisations served test (tests/distributed/test_organisations_served.py) covers people in the
distributed mode.

``FUZZ_EXAMPLES`` (default in runner.py) bounds the examples per operation and key.
"""

from __future__ import annotations

import asyncio

import pytest

from gomoku_sim.client import SERVICES

from .runner import fuzz_service
from .seeding import KEYS, StaffCredential, distributed, embedded_stack_process, partners_base, seed

#: the API keys of every role (the staff token is added where the partners service runs)
FUZZ_KEYS: dict = {"operator": KEYS.operator, "partner": KEYS.partner, "arbiter": KEYS.arbiter}


async def _fuzz_all(stack, keys: dict) -> list:
    known = await seed(stack)
    reports = []
    for service in SERVICES:
        reports.append(await asyncio.to_thread(fuzz_service, service, stack.urls[service], keys, known=known))
    return reports


def _verdict(mode: str, reports) -> None:
    lines = [f"fuzz ({mode}): " + r.line() + "\n    answers: " + r.answers() for r in reports]
    for r in reports:
        if only := r.refused_only("staff", "staff_account_not_allowed", but="arbiter"):
            lines.append(f"    {r.service}: an arbiter's key, not a person: {', '.join(only)}")
    print("\n" + "\n".join(lines))
    failing = [r for r in reports if r.failed]
    assert reports and all(r.operations and r.cases for r in reports), lines
    assert not failing, "\n".join(lines + [f"{r.service}:\n{r.details()}" for r in failing])


def assert_credential_admitted(reports, key_name: str) -> None:
    """The credential reached the routes: most of its answers are not 401 (a token refused
    throughout would make its fuzzing an empty one)."""
    for r in reports:
        answers = {status: n for (name, status), n in r.statuses.items() if name == key_name}
        total, refused = sum(answers.values()), answers.get(401, 0)
        assert total and refused < total / 4, f"{r.service}: {key_name}'s answers by status {answers}"
        assert any(200 <= status < 300 for status in answers), f"{r.service}: {key_name}: no 2xx {answers}"


async def test_fuzz_every_service_in_the_embedded_mode(tmp_path):
    """Issue 29: every surface fuzzed with the operator's, a partner's and an arbiter's keys and a
    staff account's token (every event role in the default organisation)."""
    async with embedded_stack_process(tmp_path) as stack:
        staff = await asyncio.to_thread(StaffCredential(partners_base(stack)).invite)
        reports = await _fuzz_all(stack, {**FUZZ_KEYS, "staff": staff})
        staff.close()
        assert "Traceback" not in stack.extras["log"].read_text()
    _verdict("embedded", reports)
    assert_credential_admitted(reports, "staff")


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


async def test_fuzz_every_service_on_postgres_and_rabbitmq(tmp_path, databases, amqp_url, bus_namespace):
    """Issue 29: every surface fuzzed with the operator's, a partner's and an arbiter's keys (no
    partners service here: the staff token is fuzzed in the embedded mode)."""
    async with distributed(tmp_path, amqp_url=amqp_url, databases=databases, namespace=bus_namespace) as stack:
        reports = await _fuzz_all(stack, FUZZ_KEYS)
    _verdict("distributed", reports)
