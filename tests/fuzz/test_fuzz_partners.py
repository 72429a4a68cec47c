"""Fuzzing the partners service's OpenAPI as the other services' (test_fuzz.py), in the served
embedded process: every answer documented, never a 5xx, with the operator's, a partner's and an
arbiter's API keys and a staff account's access token (issue 29: "every HTTP surface fuzzed with
each role's credentials", the organisations, invitations, staff and sign-in routes included).

The staff token (``seeding.StaffCredential``) is renewed by a new sign-in when the fuzzer made it
invalid (signing the person out everywhere, moving the simulation clock past its expiry); the
organisation ``default`` is a known value, so requests also reach an existing organisation.

The token endpoint is left out: its refusals are RFC 6749 §5.2 JSON (``{"error": "invalid_client"}``),
which OAuth libraries expect, not the common error shape this runner checks; its answers are
tested one by one in services/partners/tests/unit/test_service_embedded.py."""

from __future__ import annotations

import asyncio

from gomoku_shared.staff_roles import DEFAULT_ORGANISATION

from .runner import fuzz_service
from .seeding import KEYS, StaffCredential, embedded_stack_process, partners_base
from .verdict import FUZZ_KEYS, assert_credential_admitted, verdict


async def test_fuzz_the_partners_service_in_the_embedded_mode(tmp_path):
    """Issue 29: the partners service fuzzed with every role's credentials, a person's token included."""
    async with embedded_stack_process(tmp_path) as stack:
        base = partners_base(stack)
        staff = await asyncio.to_thread(StaffCredential(base, KEYS.operator).invite)
        report = await asyncio.to_thread(
            fuzz_service,
            "partners",
            base,
            {**FUZZ_KEYS, "staff": staff},
            known={"org": [DEFAULT_ORGANISATION]},
            exclude_paths=("/oauth/token",),
        )
        staff.close()
        assert "Traceback" not in stack.extras["log"].read_text()
    verdict("embedded", [report])
    assert_credential_admitted([report], "staff")
