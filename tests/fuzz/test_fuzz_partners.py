"""Fuzzing the partners service's OpenAPI as the other services' (test_fuzz.py), in the served
embedded process: every answer documented, never a 5xx, with an operator and a partner key.

The token endpoint is left out: its refusals are RFC 6749 §5.2 JSON (``{"error": "invalid_client"}``),
which OAuth libraries expect, not the common error shape this runner checks; its answers are
tested one by one in services/partners/tests/unit/test_service_embedded.py."""

from __future__ import annotations

import asyncio

from .runner import fuzz_service
from .seeding import KEYS, embedded_stack_process
from .test_fuzz import _verdict


async def test_fuzz_the_partners_service_in_the_embedded_mode(tmp_path):
    async with embedded_stack_process(tmp_path) as stack:
        base = stack.urls["registration"].rsplit("/", 1)[0] + "/partners"
        keys = {"operator": KEYS.operator, "partner": KEYS.partner}
        report = await asyncio.to_thread(
            fuzz_service, "partners", base, keys, known={}, exclude_paths=("/oauth/token",)
        )
        assert "Traceback" not in stack.extras["log"].read_text()
    _verdict("embedded", [report])
