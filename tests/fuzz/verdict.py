"""What every whole-platform fuzz run shares: the keys of every role, one run over every
service, and the verdict on its reports (the test modules beside this one)."""

from __future__ import annotations

import asyncio

from gomoku_sim.client import SERVICES

from .runner import fuzz_service
from .seeding import KEYS, seed

#: the API keys of every role (the staff token is added where the partners service runs)
FUZZ_KEYS: dict = {"operator": KEYS.operator, "partner": KEYS.partner, "arbiter": KEYS.arbiter}


async def fuzz_all(stack, keys: dict) -> list:
    known = await seed(stack)
    reports = []
    for service in SERVICES:
        reports.append(await asyncio.to_thread(fuzz_service, service, stack.urls[service], keys, known=known))
    return reports


def verdict(mode: str, reports) -> None:
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
