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

from .seeding import StaffCredential, embedded_stack_process, partners_base
from .verdict import FUZZ_KEYS, assert_credential_admitted, fuzz_all, verdict


async def test_fuzz_every_service_in_the_embedded_mode(tmp_path):
    """Issue 29: every surface fuzzed with the operator's, a partner's and an arbiter's keys and a
    staff account's token (every event role in the default organisation)."""
    async with embedded_stack_process(tmp_path) as stack:
        staff = await asyncio.to_thread(StaffCredential(partners_base(stack)).invite)
        reports = await fuzz_all(stack, {**FUZZ_KEYS, "staff": staff})
        staff.close()
        assert "Traceback" not in stack.extras["log"].read_text()
    verdict("embedded", reports)
    assert_credential_admitted(reports, "staff")
